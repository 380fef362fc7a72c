/**
 * CustomResourceDefinition benchmark (issue #14 quality bars), against the real server command:
 *
 * 1. Time to Established: from the POST of a CRD until its resource is in discovery, for one CRD
 *    alone, then for 500 CRDs posted at concurrency 16 (until every group is in `/apis`; the
 *    median is of the times each group first appeared, from the first POST).
 * 2. Memory per CRD served: the server's resident memory before and after the 500 CRDs, divided
 *    by 500 (the process's RSS: an upper bound, garbage not yet collected included).
 * 3. Throughput of a custom resource against a ConfigMap of the same size (1 KiB of data in
 *    `data`/`spec.data`), interleaved rounds: creates/s and gets/s at concurrency 16, and server
 *    CPU µs per request; the custom resource's share of the ConfigMap's figure (target ≥ 90%).
 *
 * Figures are printed, never asserted. Run: `npx tsx hack/bench/crd.ts`.
 * Knobs: BENCH_CRD_COUNT (500), BENCH_CRD_REQUESTS (per phase and round, 2000),
 * BENCH_CRD_ROUNDS (3), BENCH_CRD_CONCURRENCY (16).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { vendorGroup } from '../../lib/apis/vendor.js';
import { type BenchClient, runBench } from './bench-client.js';
import { cpuSeconds, rssMiB } from './proc.js';
import { measure, type PhaseResult, printTable } from './stats.js';

const COUNT = Math.max(1, Number(process.env.BENCH_CRD_COUNT ?? 500));
const REQUESTS = Math.max(100, Number(process.env.BENCH_CRD_REQUESTS ?? 2000));
const ROUNDS = Math.max(1, Number(process.env.BENCH_CRD_ROUNDS ?? 3));
const CONCURRENCY = Math.max(1, Number(process.env.BENCH_CRD_CONCURRENCY ?? 16));
const CRDS = `/apis/${vendorGroup('apiextensions')}/v1/customresourcedefinitions`;
const VALUE = 'x'.repeat(1024);

/** A namespaced CRD `<plural>.<group>` with a small structural schema (a string map under spec.data). */
function crd(group: string, plural: string, kind: string): object {
  return {
    apiVersion: `${vendorGroup('apiextensions')}/v1`,
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural, kind },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { data: { type: 'object', additionalProperties: { type: 'string' } } } } } } },
        },
      ],
    },
  };
}

/** Resolves once `/apis/<group>/v1` lists `plural`; the milliseconds since `since`. */
async function servedAfter(client: BenchClient, group: string, plural: string, since: bigint): Promise<number> {
  for (;;) {
    const res = await client.call('GET', `/apis/${group}/v1`, { keepText: true }).catch(() => undefined);
    if (res && (JSON.parse(res.text) as { resources: Array<{ name: string }> }).resources.some((r) => r.name === plural)) return Number(process.hrtime.bigint() - since) / 1e6;
    await sleep(5);
  }
}

/**
 * Polls `/apis` every 10 ms until every group of `groups` is listed; the milliseconds since
 * `since` at which each one first was (one request per poll, so the polling adds no load that
 * grows with the number of CRDs).
 */
async function servedGroupsAfter(client: BenchClient, groups: Set<string>, since: bigint): Promise<number[]> {
  const seen: number[] = [];
  const left = new Set(groups);
  while (left.size > 0) {
    const res = await client.call('GET', '/apis', { keepText: true });
    const ms = Number(process.hrtime.bigint() - since) / 1e6;
    for (const g of (JSON.parse(res.text) as { groups: Array<{ name: string }> }).groups) {
      if (left.delete(g.name)) seen.push(ms);
    }
    await sleep(10);
  }
  return seen;
}

runBench('crd', CONCURRENCY, async ({ server, client }) => {
  // 1. One CRD alone.
  const t0 = process.hrtime.bigint();
  await client.call('POST', CRDS, { body: crd('one.bench.example.com', 'things', 'Thing') });
  const one = await servedAfter(client, 'one.bench.example.com', 'things', t0);

  // 2. Many CRDs, and the memory they take.
  await sleep(2000);
  const rssBefore = rssMiB(server.pid);
  const t1 = process.hrtime.bigint();
  const groups = Array.from({ length: COUNT }, (_, i) => `g${i}.bench.example.com`);
  await measure('post CRDs', COUNT, CONCURRENCY, (i) => client.call('POST', CRDS, { body: crd(groups[i]!, 'widgets', 'Widget') }).then(() => undefined));
  const latencies = await servedGroupsAfter(client, new Set(groups), t1);
  const many = Math.max(...latencies);
  await sleep(3000);
  const rssAfter = rssMiB(server.pid);
  console.log(`\nTime to Established (POST until the resource is in discovery)`);
  printTable(
    ['CRDs', 'all served after ms', 'median CRD served after ms', 'server RSS before MiB', 'after MiB', 'KiB per CRD'],
    [
      ['1', one, one, '', '', ''],
      [String(COUNT), many, latencies.sort((a, b) => a - b)[Math.floor(latencies.length / 2)]!, rssBefore, rssAfter, ((rssAfter - rssBefore) * 1024) / COUNT],
    ],
  );

  // 3. A custom resource against a ConfigMap of the same size.
  await client.call('POST', CRDS, { body: crd('cr.bench.example.com', 'payloads', 'Payload') });
  await servedAfter(client, 'cr.bench.example.com', 'payloads', process.hrtime.bigint());
  await client.call('POST', '/api/v1/namespaces', { body: { metadata: { name: 'bench' } } });
  const kinds = [
    {
      name: 'ConfigMap',
      path: '/api/v1/namespaces/bench/configmaps',
      body: (n: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: n }, data: { v: VALUE } }),
    },
    {
      name: 'custom resource',
      path: '/apis/cr.bench.example.com/v1/namespaces/bench/payloads',
      body: (n: string) => ({ apiVersion: 'cr.bench.example.com/v1', kind: 'Payload', metadata: { name: n }, spec: { data: { v: VALUE } } }),
    },
  ];
  for (const k of kinds) await measure('warm-up', 300, CONCURRENCY, (i) => client.call('POST', k.path, { body: k.body(`warm-${i}`) }).then(() => undefined));
  const results = new Map<string, Array<{ phase: PhaseResult; cpuUs: number }>>();
  const record = (key: string, phase: PhaseResult, cpuUs: number) => {
    const list = results.get(key) ?? [];
    list.push({ phase, cpuUs });
    results.set(key, list);
  };
  for (let round = 0; round < ROUNDS; round++) {
    for (const k of kinds) {
      let cpu = cpuSeconds(server.pid);
      const created = await measure('create', REQUESTS, CONCURRENCY, (i) => client.call('POST', k.path, { body: k.body(`r${round}-${i}`) }).then(() => undefined));
      record(`${k.name} create`, created, ((cpuSeconds(server.pid) - cpu) * 1e6) / REQUESTS);
      cpu = cpuSeconds(server.pid);
      const got = await measure('get', REQUESTS, CONCURRENCY, (i) => client.call('GET', `${k.path}/r${round}-${(i * 7919) % REQUESTS}`).then(() => undefined));
      record(`${k.name} get`, got, ((cpuSeconds(server.pid) - cpu) * 1e6) / REQUESTS);
    }
  }
  const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const figure = (key: string) => {
    const list = results.get(key)!;
    return { rate: median(list.map((x) => x.phase.rate)), p99: median(list.map((x) => x.phase.p99)), cpu: median(list.map((x) => x.cpuUs)), errors: list.reduce((n, x) => n + x.phase.errors, 0) };
  };
  const rows: (string | number)[][] = [];
  for (const verb of ['create', 'get']) {
    const cm = figure(`ConfigMap ${verb}`);
    const cr = figure(`custom resource ${verb}`);
    rows.push([`ConfigMap ${verb}`, cm.rate, cm.p99, cm.cpu, '', cm.errors]);
    rows.push([`custom resource ${verb}`, cr.rate, cr.p99, cr.cpu, `${((cr.rate / cm.rate) * 100).toFixed(0)}% / ${((cm.cpu / cr.cpu) * 100).toFixed(0)}%`, cr.errors]);
  }
  console.log(`\nCustom resource vs ConfigMap of the same size, ${ROUNDS} interleaved rounds of ${REQUESTS} at concurrency ${CONCURRENCY} (medians of rounds)`);
  printTable(['phase', 'req/s', 'p99 ms', 'server CPU µs/req', 'CR share of ConfigMap (rate / CPU)', 'errors'], rows);
});
