/**
 * API Priority and Fairness benchmark (issue #16 quality bars): the cost of APF on create and get
 * throughput. Two server processes, `--enable-priority-and-fairness=false` (the max-in-flight
 * filter) and the default (APF over 400 + 200 seats), both `--authorization-mode=AlwaysAllow`;
 * requests are sent as an impersonated ordinary user, so that APF classifies them into
 * `global-default` and dispatches them through its queue set (the admin, in `system:masters`,
 * would only take the exempt path). Both servers share one etcd (the test framework's); rounds are interleaved; ConfigMap creates, then gets of the
 * created objects. Requests/s, p50/p99 ms and server CPU µs per request; the cost is APF's
 * throughput lost and CPU added relative to off (target ≤ 10%). A second table times the APF
 * controller's `handle` in process (bootstrap configuration, an ordinary user's GET, nothing
 * queued): the CPU APF adds to each request. Figures are printed, never asserted.
 *
 * Run: `npx tsx hack/bench/apf.ts`. Knobs: BENCH_APF_ROUNDS (3), BENCH_APF_REQUESTS (per row and
 * round, 1000), BENCH_APF_CONCURRENCY (16).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { BenchClient } from './bench-client.js';
import os from 'node:os';
import path from 'node:path';
import { mandatoryFlowSchemas, mandatoryPriorityLevels, suggestedFlowSchemas, suggestedPriorityLevels } from '../../lib/apis/flowcontrol/v1/index.js';
import type { Informer } from '../../lib/client/informer.js';
import { APFController } from '../../lib/flowcontrol/controller.js';
import { APFMetrics } from '../../lib/flowcontrol/metrics.js';
import { ObjectCounts } from '../../lib/flowcontrol/work-estimator.js';
import { StabilityRegistry } from '../../lib/metrics/registry.js';
import { requestInfoOf } from '../../lib/request/request-info.js';
import { useEtcd } from '../../test/framework/etcd.js';
import { type ServerProcess, startServerProcess } from '../../test/framework/server-process.js';
import { cpuSeconds } from './proc.js';
import { measure, type PhaseResult, printTable } from './stats.js';

const ROUNDS = Math.max(1, Number(process.env.BENCH_APF_ROUNDS ?? 3));
const REQUESTS = Math.max(100, Number(process.env.BENCH_APF_REQUESTS ?? 1000));
const CONCURRENCY = Math.max(1, Number(process.env.BENCH_APF_CONCURRENCY ?? 16));
const USER = 'bench-user';
const NS = 'default';

/** A keep-alive HTTPS client acting as USER through impersonation. */
function client(server: ServerProcess) {
  const c = new BenchClient(server, CONCURRENCY);
  const headers = { 'Impersonate-User': USER };
  return {
    create: (name: string) => c.call('POST', `/api/v1/namespaces/${NS}/configmaps`, { headers, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } } }),
    get: (name: string) => c.call('GET', `/api/v1/namespaces/${NS}/configmaps/${name}`, { headers }),
    close: () => c.close(),
  };
}

type Sample = { phase: PhaseResult; cpuUs: number };
const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'orch-bench-apf-'));
  const rows: Array<{ name: string; server: ServerProcess; client: ReturnType<typeof client> }> = [];
  // One etcd for both servers (own key prefixes): creates are bound by etcd's fsyncs, which differ between instances.
  const { endpoint } = await useEtcd();
  try {
    for (const [name, args] of [
      ['APF off', ['--enable-priority-and-fairness=false']],
      ['APF on', []],
    ] as const) {
      const server = await startServerProcess([...args, '--authorization-mode=AlwaysAllow', `--etcd-servers=${endpoint}`, `--etcd-prefix=/bench-apf-${rows.length}-${Date.now()}`], path.join(dir, name.replace(/\W+/g, '-')));
      rows.push({ name, server, client: client(server) });
    }
    for (const r of rows) {
      await measure('warm-up create', 300, CONCURRENCY, (i) => r.client.create(`warm-${i}`));
      await measure('warm-up get', 300, CONCURRENCY, (i) => r.client.get(`warm-${i}`));
    }
    const results = { create: rows.map((): Sample[] => []), get: rows.map((): Sample[] => []) };
    for (let round = 0; round < ROUNDS; round++) {
      for (const op of ['create', 'get'] as const) {
        for (const [i, r] of rows.entries()) {
          const cpu0 = cpuSeconds(r.server.pid);
          const phase = await measure(`${r.name} ${op}`, REQUESTS, CONCURRENCY, (n) => r.client[op](`r${round}-${n}`));
          results[op][i]!.push({ phase, cpuUs: ((cpuSeconds(r.server.pid) - cpu0) * 1e6) / REQUESTS });
        }
      }
    }
    const table: (string | number)[][] = [];
    for (const op of ['create', 'get'] as const) {
      const base = { rate: median(results[op][0]!.map((x) => x.phase.rate)), cpu: median(results[op][0]!.map((x) => x.cpuUs)) };
      rows.forEach((r, i) => {
        const s = results[op][i]!;
        const rate = median(s.map((x) => x.phase.rate));
        const cpu = median(s.map((x) => x.cpuUs));
        table.push([
          `${op}, ${r.name}`,
          rate,
          median(s.map((x) => x.phase.p50)),
          median(s.map((x) => x.phase.p99)),
          cpu,
          `${(((base.rate - rate) / base.rate) * 100).toFixed(1)}%`,
          `${(((cpu - base.cpu) / base.cpu) * 100).toFixed(1)}%`,
          s.reduce((n, x) => n + x.phase.errors, 0),
        ]);
      });
    }
    console.log(`\nConfigMap creates and gets as an ordinary user, ${ROUNDS} interleaved rounds of ${REQUESTS} at concurrency ${CONCURRENCY} (medians of rounds)`);
    printTable(['request, flow control', 'req/s', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'throughput lost vs off', 'CPU added vs off', 'errors'], table);
  } finally {
    for (const r of rows) {
      r.client.close();
      await r.server.stop();
    }
    await rm(dir, { recursive: true, force: true });
  }
}

/** An informer over fixed objects (the in-process part needs no storage). */
function fixedInformer(objects: object[]): Informer {
  return { addHandler: () => undefined, run: () => new Promise<void>(() => undefined), waitForSync: () => Promise.resolve(), list: () => objects } as unknown as Informer;
}

async function inProcess(): Promise<void> {
  const ctl = new APFController({
    flowSchemas: fixedInformer([...mandatoryFlowSchemas(), ...suggestedFlowSchemas()]),
    priorityLevels: fixedInformer([...mandatoryPriorityLevels(), ...suggestedPriorityLevels()]),
    serverConcurrencyLimit: 600,
    metrics: new APFMetrics(new StabilityRegistry()),
    objectCounts: new ObjectCounts(),
    requestWaitLimitMs: 15_000,
    onError: (err) => console.error(err),
  });
  const stop = new AbortController();
  await ctl.run(stop.signal);
  const info = requestInfoOf({ isResourceRequest: true, verb: 'get', apiVersion: 'v1', resource: 'configmaps', namespace: NS, name: 'x', path: `/api/v1/namespaces/${NS}/configmaps/x` });
  const req = { user: { name: USER, groups: ['system:authenticated'] }, info, query: new URLSearchParams(), signal: stop.signal };
  const execute = async () => undefined;
  const calls = 200_000;
  const time = async (f: () => Promise<void>) => {
    for (let i = 0; i < 20_000; i++) await f();
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) await f();
    return Number(process.hrtime.bigint() - t0) / calls / 1000;
  };
  const bare = await time(execute);
  const handled = await time(() => ctl.handle(req, () => undefined, execute));
  stop.abort();
  console.log(`\nAPF controller in process: ${calls} GETs of an ordinary user (global-default), nothing queued`);
  printTable(['path', 'µs/request'], [['bare handler', bare], ['APF handle + handler', handled], ['APF cost', handled - bare]]);
}

await main();
await inProcess();
process.exit(0);
