/**
 * The console URL of the local `make run` (issue #22 § Login): once the server is ready, with the
 * generated admin identity, as any client would — ensure the ServiceAccount
 * `<system namespace>/console-admin` bound to `cluster-admin` (created if missing, kept if
 * present), ask a one-hour token for it (TokenRequest) and print
 * `Console: https://127.0.0.1:<port>/console/#token=<token>` to stdout, never to the log. The
 * token expires; no long-lived secret is written anywhere.
 */
import { Agent, request } from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import { CONSOLE_ADMIN_SERVICE_ACCOUNT, SYSTEM_NAMESPACE, vendorGroup } from '../apis/vendor.js';
import type { Logger } from '../server/logging.js';
import type { ServerOptions } from '../server/options/server-options.js';
import type { TLSMaterial } from './tls-material.js';

/** The console token's lifetime: one hour. */
export const CONSOLE_TOKEN_SECONDS = 3600;
/** How long to wait for `/readyz` before giving up on the URL (ms). */
const READY_TIMEOUT_MS = 120_000;

/** The generated admin identity and where the server listens. */
export interface ConsoleURLTarget {
  /** `https://127.0.0.1:<port>`. */
  url: string;
  caPem: string;
  certPem: string;
  keyPem: string;
  /**
   * Resolves once the server in this process has run its post-start hooks: `/readyz` is polled
   * only then, so that the polls' TLS handshakes do not slow the start they wait for. Absent (the
   * primary of `--workers`, whose workers serve): polled from the start.
   */
  started?: Promise<void>;
}

interface Answer {
  status: number;
  body: unknown;
}

/** One JSON request as the admin, over `agent`'s kept-alive connection. */
function call(t: ConsoleURLTarget, agent: Agent, method: string, path: string, body?: unknown): Promise<Answer> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const u = new URL(path, t.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        method,
        hostname: u.hostname,
        port: u.port,
        path: u.pathname,
        agent,
        headers: { Accept: 'application/json', ...(payload && { 'Content-Type': 'application/json', 'Content-Length': String(payload.length) }) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON (a health endpoint's `ok`)
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Creates the object at `path`; an existing one (409) is kept. @throws Error on any other answer. */
async function createOrKeep(t: ConsoleURLTarget, agent: Agent, path: string, obj: unknown): Promise<void> {
  const res = await call(t, agent, 'POST', path, obj);
  if (res.status !== 201 && res.status !== 409) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
}

/**
 * The short-lived console token of the admin service account (created with its
 * ClusterRoleBinding when missing), once the server answers `/readyz` 200.
 * @throws Error when the server is not ready in time or refuses a request.
 */
export async function consoleAdminToken(t: ConsoleURLTarget): Promise<string> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1, ca: t.caPem, cert: t.certPem, key: t.keyPem });
  try {
    return await adminToken(t, agent);
  } finally {
    agent.destroy();
  }
}

async function adminToken(t: ConsoleURLTarget, agent: Agent): Promise<string> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  if (t.started) await Promise.race([t.started, sleep(READY_TIMEOUT_MS, undefined, { ref: false })]);
  while ((await call(t, agent, 'GET', '/readyz').catch(() => undefined))?.status !== 200) {
    if (Date.now() > deadline) throw new Error('the server did not become ready');
    await sleep(100);
  }
  const sa = CONSOLE_ADMIN_SERVICE_ACCOUNT;
  await createOrKeep(t, agent, `/api/v1/namespaces/${SYSTEM_NAMESPACE}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: sa } });
  const rbac = vendorGroup('rbac.authorization');
  await createOrKeep(t, agent, `/apis/${rbac}/v1/clusterrolebindings`, {
    apiVersion: `${rbac}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: { name: sa },
    roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'cluster-admin' },
    subjects: [{ kind: 'ServiceAccount', name: sa, namespace: SYSTEM_NAMESPACE }],
  });
  const path = `/api/v1/namespaces/${SYSTEM_NAMESPACE}/serviceaccounts/${sa}/token`;
  const res = await call(t, agent, 'POST', path, { apiVersion: `${vendorGroup('authentication')}/v1`, kind: 'TokenRequest', spec: { expirationSeconds: CONSOLE_TOKEN_SECONDS } });
  const token = (res.body as { status?: { token?: string } }).status?.token;
  if (res.status !== 201 || !token) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return token;
}

/**
 * Prints the console URL line to `out` (stdout) once the server is ready; a failure is logged as
 * a warning (the server keeps serving). Returns when printed or given up.
 */
export async function printConsoleURL(t: ConsoleURLTarget, log: Logger, out: (line: string) => void = (l) => process.stdout.write(l)): Promise<void> {
  try {
    const token = await consoleAdminToken(t);
    out(`Console: ${t.url}/console/#token=${token}\n`);
  } catch (err) {
    log.warn({ err: err instanceof Error ? err.message : String(err) }, 'could not make the console URL');
  }
}

/**
 * In the managed local mode (no `--etcd-servers`, the generated PKI: what `make run` starts) with
 * the console on, prints the console URL in the background (see {@link printConsoleURL}), once
 * `started` resolves (see {@link ConsoleURLTarget.started}).
 */
export function startConsoleURL(o: ServerOptions, tls: TLSMaterial, port: number, log: Logger, started?: Promise<void>): void {
  if (!o.console || o.etcdServers.length > 0 || !tls.admin) return;
  void printConsoleURL({ url: `https://127.0.0.1:${port}`, caPem: tls.admin.caPem, certPem: tls.admin.certPem, keyPem: tls.admin.keyPem, started }, log);
}
