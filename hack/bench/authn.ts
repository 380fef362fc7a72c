/**
 * Authentication benchmark (issue #10 quality bars): requests/s, p50/p99 and server CPU per
 * request of GETs authenticated by a client certificate, a static token, a service-account JWT and
 * an OIDC JWT — each bearer token cached (the same token every request) and cold (a token never
 * seen before every request, so the token cache misses) — plus anonymous requests. One server
 * process with a token file, a real HTTPS OpenID provider on 127.0.0.1 (test/framework) and a
 * service account whose tokens come from TokenRequest. Phases are interleaved round by round so a
 * noisy machine's drift falls on all rows alike; figures are medians of the rounds.
 *
 * Paths: `/api/v1/namespaces/default` (a GET the watch cache serves) for credentials allowed to
 * read it (certificate, static token and OIDC user in `system:masters`); `/api/v1` (discovery, for
 * any authenticated user) for the service-account rows, which the current authorizer does not let
 * read namespaces, with a certificate row on the same path to compare; `/version` for anonymous.
 *
 * Then the target — the authentication step adds at most 5% to a cached GET with a cached
 * token — twice: end to end, the server CPU per request of the cached static token against the
 * client certificate (whose verdict is kept per connection) on the same GET; and in process, the
 * authenticator union's time for a request with a cached token minus one without credentials,
 * over the server CPU per certificate GET. Figures are printed, never asserted.
 * Run: `npx tsx hack/bench/authn.ts` (part of `make bench`).
 * Knobs: BENCH_AUTHN_ROUNDS (default 3), BENCH_AUTHN_REQUESTS (cached rows, per round; default
 * 3000), BENCH_AUTHN_COLD (cold rows, per round; default 800), BENCH_AUTHN_CONCURRENCY (16).
 */
import { randomBytes } from 'node:crypto';
import { IncomingMessage } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:https';
import { Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildAuthentication } from '../../lib/controlplane/authentication.js';
import { removeRequestHeaders } from '../../lib/endpoints/filters/remove-headers.js';
import { defaultAuthenticationOptions } from '../../lib/server/options/authentication-options.js';
import { TestOIDCProvider } from '../../test/framework/oidc-provider.js';
import { type ServerProcess, startServerProcess } from '../../test/framework/server-process.js';
import { cpuSeconds } from './proc.js';
import { measure, type PhaseResult, printTable } from './stats.js';

const ROUNDS = Math.max(1, Number(process.env.BENCH_AUTHN_ROUNDS ?? 3));
const REQUESTS = Math.max(100, Number(process.env.BENCH_AUTHN_REQUESTS ?? 3000));
const COLD = Math.max(100, Number(process.env.BENCH_AUTHN_COLD ?? 800));
const CONCURRENCY = Math.max(1, Number(process.env.BENCH_AUTHN_CONCURRENCY ?? 16));
const NAMESPACE_PATH = '/api/v1/namespaces/default';
const DISCOVERY_PATH = '/api/v1';
const OIDC_CLIENT_ID = 'orch-bench';

/** How a row's request authenticates. */
type Credential = { cert: true } | { token: (i: number) => string } | { anonymous: true };

/** One measured row. */
interface Row {
  name: string;
  path: string;
  credential: Credential;
  /** Requests per round. */
  count: number;
}

/** Per-row results of every round. */
interface Sample {
  phase: PhaseResult;
  /** Server CPU milliseconds per request. */
  cpuMs: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** A keep-alive GET client with or without the admin certificate. */
function client(server: ServerProcess, withCert: boolean): (p: string, headers: Record<string, string>) => Promise<void> {
  const url = new URL(server.url);
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY, ca: server.admin.ca, ...(withCert && { cert: server.admin.creds.cert, key: server.admin.creds.key }) });
  return (p, headers) =>
    new Promise((resolve, reject) => {
      const req = request({ method: 'GET', hostname: url.hostname, port: url.port, path: p, agent, headers }, (res) => {
        res.resume();
        res.on('end', () => ((res.statusCode ?? 0) < 300 ? resolve() : reject(new Error(`GET ${p}: ${res.statusCode}`))));
      });
      req.on('error', reject);
      req.end();
    });
}

/** Mints `n` distinct service-account tokens for the API audiences (TokenRequest), 8 at a time. */
async function mintServiceAccountTokens(server: ServerProcess, n: number): Promise<string[]> {
  const tokens: string[] = [];
  await measure('mint', n, 8, async () => {
    const res = await server.admin.post('/api/v1/namespaces/default/serviceaccounts/bench/token', {
      apiVersion: 'authentication.orch.io/v1',
      kind: 'TokenRequest',
      spec: { audiences: [], expirationSeconds: 3600 },
    });
    if (res.status !== 201) throw new Error(`TokenRequest: ${res.status} ${res.text.slice(0, 200)}`);
    tokens.push(res.body.status.token as string);
  });
  if (tokens.length !== n) throw new Error(`minted ${tokens.length} of ${n} service-account tokens`);
  return tokens;
}

/** Signs `n` distinct OIDC ID tokens of a system:masters user. */
async function signOIDCTokens(provider: TestOIDCProvider, n: number): Promise<string[]> {
  const now = Math.floor(Date.now() / 1000);
  return Promise.all(
    Array.from({ length: n }, (_, i) => provider.sign({ iss: provider.issuer, aud: OIDC_CLIENT_ID, sub: `bench-${i}`, groups: ['system:masters'], iat: now, exp: now + 3600 })),
  );
}

/**
 * The in-process cost of the authentication step: microseconds per union.authenticate (plus the
 * header removal the filter does) for a request with a cached static token, and for one without
 * credentials, on the union the server builds from a token file.
 */
async function authenticationStepMicros(tokenFile: string, caPem: string): Promise<{ token: number; anonymous: number }> {
  const { authenticator } = await buildAuthentication({ ...defaultAuthenticationOptions(), tokenAuthFile: tokenFile }, [], { clientCAPem: caPem });
  const socket = new Socket();
  const message = (headers: Record<string, string>) => {
    const req = new IncomingMessage(socket);
    req.headers = { ...headers };
    req.rawHeaders = Object.entries(headers).flat();
    return req;
  };
  const isAuthorization = (n: string) => n === 'authorization';
  const time = async (headers: Record<string, string>): Promise<number> => {
    const n = 100_000;
    const reqs = Array.from({ length: n }, () => message(headers));
    for (let i = 0; i < 2000; i++) await authenticator.authenticate(message(headers));
    const t0 = process.hrtime.bigint();
    for (const req of reqs) {
      await authenticator.authenticate(req);
      if (req.headers.authorization !== undefined) removeRequestHeaders(req, isAuthorization);
    }
    return Number(process.hrtime.bigint() - t0) / 1e3 / n;
  };
  const common = { host: '127.0.0.1', accept: 'application/json', 'user-agent': 'bench' };
  return { token: await time({ ...common, authorization: 'Bearer hot-token' }), anonymous: await time(common) };
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'orch-bench-authn-'));
  const provider = await TestOIDCProvider.start();
  let server: ServerProcess | undefined;
  try {
    const coldStatic = Array.from({ length: ROUNDS * COLD }, () => randomBytes(16).toString('hex'));
    const tokenFile = path.join(dir, 'tokens.csv');
    await writeFile(tokenFile, ['hot-token,bench,uid-bench,"system:masters"', ...coldStatic.map((t, i) => `${t},cold-${i},uid-cold-${i},"system:masters"`)].join('\n'));
    const oidcCA = path.join(dir, 'oidc-ca.crt');
    await writeFile(oidcCA, provider.caPem);
    server = await startServerProcess(
      [`--token-auth-file=${tokenFile}`, `--oidc-issuer-url=${provider.issuer}`, `--oidc-client-id=${OIDC_CLIENT_ID}`, `--oidc-ca-file=${oidcCA}`, '--oidc-groups-claim=groups'],
      path.join(dir, 'data'),
    );
    const s = server;
    const createdSA = await s.admin.post('/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'bench' } });
    if (createdSA.status !== 201) throw new Error(`creating the service account: ${createdSA.status} ${createdSA.text}`);
    const [hotSA, ...coldSA] = await mintServiceAccountTokens(s, 1 + ROUNDS * COLD);
    const [hotOIDC, ...coldOIDC] = await signOIDCTokens(provider, 1 + ROUNDS * COLD);

    let round = 0;
    const cold = (tokens: string[]) => (i: number) => tokens[round * COLD + i]!;
    const rows: Row[] = [
      { name: 'client certificate', path: NAMESPACE_PATH, credential: { cert: true }, count: REQUESTS },
      { name: 'static token, cached', path: NAMESPACE_PATH, credential: { token: () => 'hot-token' }, count: REQUESTS },
      { name: 'static token, cold', path: NAMESPACE_PATH, credential: { token: cold(coldStatic) }, count: COLD },
      { name: 'OIDC JWT, cached', path: NAMESPACE_PATH, credential: { token: () => hotOIDC! }, count: REQUESTS },
      { name: 'OIDC JWT, cold', path: NAMESPACE_PATH, credential: { token: cold(coldOIDC) }, count: COLD },
      { name: 'client certificate', path: DISCOVERY_PATH, credential: { cert: true }, count: REQUESTS },
      { name: 'service-account JWT, cached', path: DISCOVERY_PATH, credential: { token: () => hotSA! }, count: REQUESTS },
      { name: 'service-account JWT, cold', path: DISCOVERY_PATH, credential: { token: cold(coldSA) }, count: COLD },
      { name: 'anonymous', path: '/version', credential: { anonymous: true }, count: REQUESTS },
      { name: 'static token, cached', path: '/version', credential: { token: () => 'hot-token' }, count: REQUESTS },
    ];
    const withCert = client(s, true);
    const without = client(s, false);
    const send = (row: Row, i: number): Promise<void> => {
      const c = row.credential;
      if ('cert' in c) return withCert(row.path, {});
      if ('anonymous' in c) return without(row.path, {});
      return without(row.path, { Authorization: `Bearer ${c.token(i)}` });
    };
    const isCold = (row: Row) => 'token' in row.credential && row.count === COLD;
    // Warm-up: connections opened, every cached credential through its path once.
    for (const row of rows) if (!isCold(row)) await measure('warm-up', 200, CONCURRENCY, (i) => send(row, i));

    const samples = rows.map((): Sample[] => []);
    for (round = 0; round < ROUNDS; round++) {
      for (const [i, row] of rows.entries()) {
        const cpu0 = cpuSeconds(s.pid);
        const phase = await measure(row.name, row.count, CONCURRENCY, (i) => send(row, i));
        samples[i]!.push({ phase, cpuMs: ((cpuSeconds(s.pid) - cpu0) * 1000) / row.count });
      }
    }

    console.log(`authentication: ${ROUNDS} rounds, ${CONCURRENCY} clients, ${REQUESTS} requests per cached row and ${COLD} per cold row each round (medians)`);
    const summary = rows.map((row, i) => {
      const ss = samples[i]!;
      return {
        row,
        rate: median(ss.map((x) => x.phase.rate)),
        p50: median(ss.map((x) => x.phase.p50)),
        p99: median(ss.map((x) => x.phase.p99)),
        cpuMs: median(ss.map((x) => x.cpuMs)),
        errors: ss.reduce((n, x) => n + x.phase.errors, 0),
      };
    });
    printTable(
      ['credential', 'GET', 'req/s', 'p50 ms', 'p99 ms', 'server CPU ms/req', 'errors'],
      summary.map((x) => [x.row.name, x.row.path, x.rate, x.p50, x.p99, x.cpuMs, x.errors]),
    );

    const cpuOf = (name: string, p: string) => summary.find((x) => x.row.name === name && x.row.path === p)!.cpuMs;
    const certCpu = cpuOf('client certificate', NAMESPACE_PATH);
    const step = await authenticationStepMicros(tokenFile, s.admin.ca);
    console.log('');
    printTable(
      ['authentication step on a cached GET with a cached token', 'value', 'target'],
      [
        ['server CPU per GET, cached static token vs client certificate', `${(((cpuOf('static token, cached', NAMESPACE_PATH) - certCpu) / certCpu) * 100).toFixed(1)}%`, '≤ 5%'],
        ['server CPU per GET /version, cached static token vs anonymous', `${(((cpuOf('static token, cached', '/version') - cpuOf('anonymous', '/version')) / cpuOf('anonymous', '/version')) * 100).toFixed(1)}%`, ''],
        ['in process: union with a cached token, µs', step.token.toFixed(2), ''],
        ['in process: union without credentials, µs', step.anonymous.toFixed(2), ''],
        ['in process: extra step time over server CPU per certificate GET', `${(((step.token - step.anonymous) / (certCpu * 1000)) * 100).toFixed(2)}%`, '≤ 5%'],
      ],
    );
  } finally {
    await server?.stop();
    await provider.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
