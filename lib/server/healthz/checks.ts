/**
 * Health checks and their endpoints `/livez`, `/readyz`, `/healthz` with `?verbose`,
 * `?exclude=<check>` and `/<endpoint>/<check>` (spec 000 § Health endpoints).
 */
import type { Context } from 'koa';

/** One named check; `check()` rejects when unhealthy. */
export interface HealthCheck {
  name: string;
  check(): Promise<void>;
}

const TEXT = 'text/plain; charset=utf-8';

async function run(c: HealthCheck): Promise<Error | null> {
  try {
    await c.check();
    return null;
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

function writeText(koa: Context, status: number, body: string): void {
  koa.status = status;
  koa.type = TEXT;
  koa.set('X-Content-Type-Options', 'nosniff');
  koa.body = body;
}

/**
 * Serves `/<endpoint>` or `/<endpoint>/<check>`. Returns false when `sub` names no check (404).
 * `log` receives failure reasons, which the response withholds.
 */
export async function serveHealth(
  koa: Context,
  endpoint: string,
  checks: readonly HealthCheck[],
  sub: string,
  log: (msg: string) => void,
): Promise<boolean> {
  if (sub) {
    const c = checks.find((x) => x.name === sub);
    if (!c) return false;
    const err = await run(c);
    if (err) writeText(koa, 500, `internal server error: ${err.message}\n`);
    else writeText(koa, 200, 'ok');
    return true;
  }
  const q = new URLSearchParams(koa.querystring);
  const verbose = q.has('verbose') && q.get('verbose') !== 'false';
  const excluded = new Set(q.getAll('exclude').flatMap((e) => e.split(',')).filter((e) => e !== ''));
  const lines: string[] = [];
  let failed = false;
  const results = await Promise.all(checks.map(async (c) => (excluded.has(c.name) ? 'excluded' : run(c))));
  checks.forEach((c, i) => {
    const r = results[i];
    if (r === 'excluded') {
      lines.push(`[+]${c.name} excluded: ok`);
      excluded.delete(c.name);
    } else if (r) {
      failed = true;
      lines.push(`[-]${c.name} failed: reason withheld`);
      log(`${endpoint} check ${c.name} failed: ${r.message}`);
    } else {
      lines.push(`[+]${c.name} ok`);
    }
  });
  if (excluded.size > 0) lines.push(`warn: some health checks cannot be excluded: no matches for ${[...excluded].map((e) => JSON.stringify(e)).join(',')}`);
  if (failed) {
    writeText(koa, 500, `${lines.join('\n')}\n${endpoint} check failed\n`);
  } else if (verbose) {
    writeText(koa, 200, `${lines.join('\n')}\n${endpoint} check passed\n`);
  } else {
    writeText(koa, 200, 'ok');
  }
  return true;
}
