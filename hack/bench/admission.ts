/**
 * Admission benchmark (issue #13 quality bars), in two parts.
 *
 * 1. Pod creates end to end against server processes on one etcd, rounds interleaved:
 *    - `none`: every admission plugin disabled;
 *    - `default`: the default plugin chain (the namespace's `default` ServiceAccount exists);
 *    - `default + webhook`: the default chain and one validating webhook on loopback (HTTPS,
 *      answered by this process) that allows every pod;
 *    - `default + 10 VAPs`: the default chain and 10 ValidatingAdmissionPolicies (with bindings)
 *      matching pod creates, each with one validation that passes.
 *    Requests/s, p50/p99 ms and server CPU µs per create; the default chain's cost is its
 *    throughput and CPU relative to `none` (target: ≤ 10% of create throughput).
 * 2. ValidatingAdmissionPolicy evaluation in process: the validating phase of a chain holding only
 *    the ValidatingAdmissionPolicy plugin with 10 policies matching the request, timed alone;
 *    p50/p99 µs per call and per policy (target: an evaluation p99 ≤ 100 µs).
 *
 * Figures are printed, never asserted. Run: `npx tsx hack/bench/admission.ts`.
 * Knobs: BENCH_ADMISSION_ROUNDS (3), BENCH_ADMISSION_REQUESTS (per row and round, 1000),
 * BENCH_ADMISSION_CONCURRENCY (16), BENCH_ADMISSION_CALLS (part 2, 20000).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request } from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_ON_PLUGINS } from '../../lib/admission/plugins/index.js';
import type { AdmissionAttributes } from '../../lib/admission/interface.js';
import { vendorGroup } from '../../lib/apis/vendor.js';
import { internalContext } from '../../lib/request/context.js';
import { type ServerProcess, startServerProcess } from '../../test/framework/server-process.js';
import { startTestServer } from '../../test/framework/test-server.js';
import { AdmissionWebhookServer, allow, webhookConfiguration } from '../../test/framework/admission-webhook.js';
import { cpuSeconds } from './proc.js';
import { measure, type PhaseResult, printTable } from './stats.js';

const ROUNDS = Math.max(1, Number(process.env.BENCH_ADMISSION_ROUNDS ?? 3));
const REQUESTS = Math.max(100, Number(process.env.BENCH_ADMISSION_REQUESTS ?? 1000));
const CONCURRENCY = Math.max(1, Number(process.env.BENCH_ADMISSION_CONCURRENCY ?? 16));
const CALLS = Math.max(1000, Number(process.env.BENCH_ADMISSION_CALLS ?? 20000));
const POLICIES = 10;
const NS = 'bench';
const ADMISSION = vendorGroup('admissionregistration');

/** The 10 policies and bindings: each matches pod creates and checks one passing rule. */
function policies(): Array<{ path: string; body: object }> {
  const out: Array<{ path: string; body: object }> = [];
  for (let i = 0; i < POLICIES; i++) {
    out.push({
      path: `/apis/${ADMISSION}/v1/validatingadmissionpolicies`,
      body: {
        apiVersion: `${ADMISSION}/v1`,
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: `bench-${i}` },
        spec: {
          failurePolicy: 'Fail',
          matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }] },
          validations: [{ expression: `object.spec.containers.all(c, c.image != "forbidden-${i}")`, message: 'forbidden image' }],
        },
      },
    });
    out.push({
      path: `/apis/${ADMISSION}/v1/validatingadmissionpolicybindings`,
      body: {
        apiVersion: `${ADMISSION}/v1`,
        kind: 'ValidatingAdmissionPolicyBinding',
        metadata: { name: `bench-${i}` },
        spec: { policyName: `bench-${i}`, validationActions: ['Deny'] },
      },
    });
  }
  return out;
}

/** The validating webhook configuration calling `hook` for pod creates. */
function allowWebhook(hook: AdmissionWebhookServer): { path: string; body: object } {
  return {
    path: `/apis/${ADMISSION}/v1/validatingwebhookconfigurations`,
    body: webhookConfiguration('Validating', 'bench', [{ name: 'allow.bench.example.com', clientConfig: { url: hook.url('/allow'), caBundle: hook.caBundle }, failurePolicy: 'Fail' }], ADMISSION),
  };
}

/** A keep-alive HTTPS client with the server's admin certificate that POSTs JSON. */
function poster(server: ServerProcess) {
  const url = new URL(server.url);
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY, ca: server.admin.ca, cert: server.admin.creds.cert, key: server.admin.creds.key });
  return {
    post: (p: string, body: object, want = 201) =>
      new Promise<void>((resolve, reject) => {
        const data = JSON.stringify(body);
        const req = request({ hostname: url.hostname, port: url.port, path: p, method: 'POST', agent, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data) } }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => ((res.statusCode ?? 0) === want ? resolve() : reject(new Error(`POST ${p}: ${res.statusCode} ${text.slice(0, 300)}`))));
        });
        req.on('error', reject);
        req.end(data);
      }),
    close: () => agent.destroy(),
  };
}

const pod = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'app', image: 'nginx:1.25' }] } });

/** Creates the namespace and waits for its `default` ServiceAccount (made by the server's controller). */
async function prepareNamespace(server: ServerProcess): Promise<void> {
  const ns = await server.admin.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  if (ns.status !== 201) throw new Error(`namespace: ${ns.status} ${ns.text}`);
  for (let i = 0; i < 200; i++) {
    if ((await server.admin.get(`/api/v1/namespaces/${NS}/serviceaccounts/default`)).status === 200) return;
    await sleep(50);
  }
  throw new Error('the default ServiceAccount did not appear');
}

/** Posts `objects` and waits a moment for the informers of every server to see them. */
async function createAll(server: ServerProcess, objects: Array<{ path: string; body: object }>): Promise<void> {
  for (const o of objects) {
    const res = await server.admin.post(o.path, o.body);
    if (res.status !== 201) throw new Error(`${o.path}: ${res.status} ${res.text}`);
  }
  await sleep(1500);
}

async function throughput(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'orch-bench-admission-'));
  const hook = await AdmissionWebhookServer.start();
  hook.on('/allow', allow);
  const rows: Array<{ name: string; server: ServerProcess; client: ReturnType<typeof poster> }> = [];
  try {
    const start = async (name: string, args: string[]) => {
      const server = await startServerProcess(args, path.join(dir, name.replace(/\W+/g, '-')));
      await prepareNamespace(server);
      rows.push({ name, server, client: poster(server) });
      return server;
    };
    await start('none', [`--disable-admission-plugins=${DEFAULT_ON_PLUGINS.join(',')}`]);
    await start('default', []);
    await createAll(await start('default + webhook', []), [allowWebhook(hook)]);
    await createAll(await start(`default + ${POLICIES} VAPs`, []), policies());
    for (const r of rows) await measure('warm-up', 300, CONCURRENCY, (i) => r.client.post(`/api/v1/namespaces/${NS}/pods`, pod(`warm-${i}`)));
    const results: Array<Array<{ phase: PhaseResult; cpuUs: number }>> = rows.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, r] of rows.entries()) {
        const cpu0 = cpuSeconds(r.server.pid);
        const phase = await measure(r.name, REQUESTS, CONCURRENCY, (n) => r.client.post(`/api/v1/namespaces/${NS}/pods`, pod(`r${round}-${n}`)));
        results[i]!.push({ phase, cpuUs: ((cpuSeconds(r.server.pid) - cpu0) * 1e6) / REQUESTS });
      }
    }
    const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const base = { rate: median(results[0]!.map((x) => x.phase.rate)), cpu: median(results[0]!.map((x) => x.cpuUs)) };
    const table = rows.map((r, i) => {
      const rate = median(results[i]!.map((x) => x.phase.rate));
      const cpu = median(results[i]!.map((x) => x.cpuUs));
      return [
        r.name,
        rate,
        median(results[i]!.map((x) => x.phase.p50)),
        median(results[i]!.map((x) => x.phase.p99)),
        cpu,
        `${(((base.rate - rate) / base.rate) * 100).toFixed(1)}%`,
        `${(((cpu - base.cpu) / base.cpu) * 100).toFixed(1)}%`,
        results[i]!.reduce((n, x) => n + x.phase.errors, 0),
      ];
    });
    console.log(`\nPod creates, ${ROUNDS} interleaved rounds of ${REQUESTS} at concurrency ${CONCURRENCY} (medians of rounds)`);
    printTable(['chain', 'creates/s', 'p50 ms', 'p99 ms', 'server CPU µs/create', 'throughput lost vs none', 'CPU added vs none', 'errors'], table);
  } finally {
    for (const r of rows) {
      r.client.close();
      await r.server.stop();
    }
    await hook.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

async function policyEvaluation(): Promise<void> {
  const server = await startTestServer({ admission: { plugins: ['ValidatingAdmissionPolicy'] } });
  try {
    for (const o of policies()) {
      const res = await server.admin.post(o.path, o.body);
      if (res.status !== 201) throw new Error(`${o.path}: ${res.status} ${res.text}`);
    }
    await sleep(1500);
    const chain = server.cp.admission;
    const user = { name: 'bench', groups: ['system:authenticated'] };
    const ctx = internalContext(user);
    const attrs = (): AdmissionAttributes => ({
      operation: 'CREATE',
      group: '',
      version: 'v1',
      kind: 'Pod',
      resource: 'pods',
      subresource: '',
      requestGroup: '',
      requestVersion: 'v1',
      requestKind: 'Pod',
      namespace: 'default',
      name: 'p',
      namespaced: true,
      object: pod('p'),
      oldObject: null,
      options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' },
      dryRun: false,
      user,
      reinvocation: { isReinvoke: false, shouldReinvoke: false, values: new Map() },
    });
    for (let i = 0; i < 2000; i++) await chain.validate(ctx, attrs());
    const samples: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const a = attrs();
      const t0 = process.hrtime.bigint();
      await chain.validate(ctx, a);
      samples.push(Number(process.hrtime.bigint() - t0) / 1000);
    }
    samples.sort((a, b) => a - b);
    const p = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]!;
    console.log(`\nValidatingAdmissionPolicy evaluation in process (${POLICIES} matching policies, ${CALLS} validating phases)`);
    printTable(
      ['figure', 'p50 µs', 'p99 µs'],
      [
        [`validating phase (${POLICIES} policies)`, p(0.5), p(0.99)],
        ['per policy', p(0.5) / POLICIES, p(0.99) / POLICIES],
      ],
    );
  } finally {
    await server.stop();
  }
}

await policyEvaluation();
await throughput();
process.exit(0);
