/**
 * The server's readiness checks (issue #22 § Health): `/readyz?verbose`, one row per `[+]` or
 * `[-]` line, read again on every poll.
 */
import { api, ApiError } from '../../api/client';
import { ErrorBox } from '../../components/error-box';

/** One check line of `/readyz?verbose`. */
export interface Check {
  name: string;
  ok: boolean;
  /** What follows the name: `ok`, `failed: reason withheld`, … */
  detail: string;
}

/** The checks of a verbose health body (`[+]name ok` / `[-]name failed: …` lines). issue #22 § Health. */
export function parseChecks(text: string): Check[] {
  const out: Check[] = [];
  for (const line of text.split('\n')) {
    const m = /^\[([+-])\](\S+)\s*(.*)$/.exec(line.trim());
    if (m) out.push({ ok: m[1] === '+', name: m[2]!, detail: m[3]! });
  }
  return out;
}

/** The result of one read of `/readyz?verbose`: its checks and whether the server is ready. */
export interface Readyz {
  ready: boolean;
  checks: Check[];
  summary: string;
}

/**
 * Reads `/readyz?verbose` (issue #22 § Health). A 500 (not ready) still carries the check list,
 * so it is a result, not an error; other failures (403, network) are thrown.
 */
export async function readReadyz(signal?: AbortSignal): Promise<Readyz> {
  let text: string;
  let ready = true;
  try {
    text = String((await api<string>('/readyz', { query: { verbose: '1' }, accept: 'text/plain', signal })).body);
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 500) throw e;
    text = e.message;
    ready = false;
  }
  const lines = text.trim().split('\n');
  return { ready, checks: parseChecks(text), summary: lines[lines.length - 1] ?? '' };
}

/** The checks as a table (issue #22 § Health); `error` when the last read failed. */
export function ReadyzTable({ readyz, error }: { readyz?: Readyz; error?: unknown }) {
  return (
    <section class="health-readyz">
      <h2>
        Readiness{' '}
        {readyz && <span class={readyz.ready ? 'health-ok' : 'health-bad'}>{readyz.ready ? 'ready' : 'not ready'}</span>}
      </h2>
      {error !== undefined && <ErrorBox error={error} />}
      {readyz && (
        <table class="health-checks">
          <thead>
            <tr>
              <th>CHECK</th>
              <th>STATUS</th>
            </tr>
          </thead>
          <tbody>
            {readyz.checks.map((c) => (
              <tr key={c.name} class={c.ok ? 'check-ok' : 'check-failed'}>
                <td>{c.name}</td>
                <td class={c.ok ? 'health-ok' : 'health-bad'}>{c.ok ? `[+] ${c.detail}` : `[-] ${c.detail}`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {readyz && <p class="muted health-summary">{readyz.summary}</p>}
    </section>
  );
}
