/**
 * Upstream-alias benchmark (issue #9): the cost of serving a vendor group under its upstream
 * alias (`--upstream-aliases`, default on). Against one server: cached GET of one Lease
 * (`resourceVersion=0`), create of Leases, and create of RoleBindings (which also convert
 * `roleRef.apiGroup` / `subjects[].apiGroup`), each through the vendor group and through its
 * alias, at 1 and 16 clients. Phases are INTERLEAVED (direct, alias, direct, alias, …; a warm-up
 * pair first, not counted) so the drift of a noisy machine falls on both spellings alike. Prints
 * req/s (mean of rounds, min–max), pooled p50/p99 and the alias/direct ratio; the target
 * is alias within 5% of direct (ratio ≥ 0.95). Figures are printed, never asserted.
 * Run: `npx tsx hack/bench/aliases.ts` (part of `make bench`).
 * Knobs: BENCH_ALIAS_ROUNDS (≥ 3), BENCH_ALIAS_SCALE (multiplies every request count).
 */
import os from 'node:os';
import { upstreamAlias, vendorGroup } from '../../lib/apis/vendor.js';
import { type BenchClient, runBench } from './bench-client.js';
import { measure, type PhaseResult, printTable } from './stats.js';

const ROUNDS = Math.max(3, Number(process.env.BENCH_ALIAS_ROUNDS ?? 5));
const SCALE = Math.max(0.01, Number(process.env.BENCH_ALIAS_SCALE ?? 1));
const CONCURRENCIES = [1, 16] as const;
/** A request that takes longer than this fails (counted as an error) instead of hanging the run. */
const REQUEST_TIMEOUT_MS = 10_000;
/** A measured phase past this budget fails its remaining requests at once, so every loop ends. */
const PHASE_BUDGET_MS = 60_000;
const NAMESPACE = 'default';

const COORDINATION = vendorGroup('coordination');
const RBAC = vendorGroup('rbac.authorization');

/** One spelling of a group: the vendor group itself or its upstream alias. */
interface Spelling {
  label: 'direct' | 'alias';
  group: string;
}

function spellings(group: string): [Spelling, Spelling] {
  const alias = upstreamAlias(group);
  if (alias === undefined) throw new Error(`${group} has no upstream alias`);
  return [
    { label: 'direct', group },
    { label: 'alias', group: alias },
  ];
}

/** A measured operation: what one request does, given the spelling and a unique index. */
interface Phase {
  name: string;
  spellings: [Spelling, Spelling];
  /** Requests per round at each concurrency. */
  count: (concurrency: number) => number;
  op: (client: BenchClient, s: Spelling, tag: string, i: number) => Promise<void>;
}

const lease = (group: string, name: string) => ({
  apiVersion: `${group}/v1`,
  kind: 'Lease',
  metadata: { name },
  spec: { holderIdentity: 'bench', leaseDurationSeconds: 15 },
});

const roleBinding = (group: string, name: string) => ({
  apiVersion: `${group}/v1`,
  kind: 'RoleBinding',
  metadata: { name },
  roleRef: { apiGroup: group, kind: 'ClusterRole', name: 'view' },
  subjects: [
    { kind: 'User', apiGroup: group, name: 'bench-user' },
    { kind: 'Group', apiGroup: group, name: 'bench-group' },
    { kind: 'ServiceAccount', name: 'default', namespace: NAMESPACE },
  ],
});

const leases = (group: string) => `/apis/${group}/v1/namespaces/${NAMESPACE}/leases`;
const roleBindings = (group: string) => `/apis/${group}/v1/namespaces/${NAMESPACE}/rolebindings`;
const GET_TARGET = 'bench-get';

const PHASES: Phase[] = [
  {
    name: 'cached GET lease',
    spellings: spellings(COORDINATION),
    count: (c) => Math.ceil(SCALE * (c === 1 ? 2000 : 4000)),
    op: (client, s) => client.call('GET', `${leases(s.group)}/${GET_TARGET}?resourceVersion=0`).then(() => undefined),
  },
  {
    name: 'create lease',
    spellings: spellings(COORDINATION),
    count: (c) => Math.ceil(SCALE * (c === 1 ? 500 : 1000)),
    op: (client, s, tag, i) => client.call('POST', leases(s.group), { body: lease(s.group, `${tag}-${i}`) }).then(() => undefined),
  },
  {
    name: 'create rolebinding',
    spellings: spellings(RBAC),
    count: (c) => Math.ceil(SCALE * (c === 1 ? 500 : 1000)),
    op: (client, s, tag, i) => client.call('POST', roleBindings(s.group), { body: roleBinding(s.group, `${tag}-${i}`) }).then(() => undefined),
  },
];

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
  });
  return Promise.race([p, expired]).finally(() => clearTimeout(timer));
}

/** Rounds of one (phase, concurrency, spelling) cell, with its latencies pooled over the rounds. */
interface Cell {
  rounds: PhaseResult[];
  latencies: number[];
}

/** One measured run of `phase` through `s`: `count` requests, latencies appended to `cell`. */
async function run(client: BenchClient, phase: Phase, s: Spelling, concurrency: number, tag: string, cell?: Cell): Promise<PhaseResult> {
  const deadline = Date.now() + PHASE_BUDGET_MS;
  return measure(`${phase.name} ${s.group} c${concurrency} ${tag}`, phase.count(concurrency), concurrency, async (i) => {
    if (Date.now() > deadline) throw new Error(`phase over its ${PHASE_BUDGET_MS / 1000}s budget`);
    const t0 = process.hrtime.bigint();
    await withTimeout(phase.op(client, s, tag, i), REQUEST_TIMEOUT_MS);
    cell?.latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
  });
}

/** What one answer of the alias says about the conversion (printed, not asserted). */
async function spotCheck(client: BenchClient): Promise<string[]> {
  const notes: string[] = [];
  const alias = upstreamAlias(RBAC)!;
  const check = async (what: string, f: () => Promise<string>) => {
    try {
      notes.push(`${what}: ${await f()}`);
    } catch (err) {
      notes.push(`${what}: FAILED ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  await check(`GET lease via ${upstreamAlias(COORDINATION)}`, async () => {
    const o = JSON.parse((await client.call('GET', `${leases(upstreamAlias(COORDINATION)!)}/${GET_TARGET}?resourceVersion=0`, { keepText: true })).text);
    return `apiVersion=${o.apiVersion}`;
  });
  await check(`POST rolebinding via ${alias}`, async () => {
    const o = JSON.parse((await client.call('POST', roleBindings(alias), { body: roleBinding(alias, 'spot-check'), keepText: true })).text);
    return `apiVersion=${o.apiVersion} roleRef.apiGroup=${o.roleRef?.apiGroup} subjects[0].apiGroup=${o.subjects?.[0]?.apiGroup}`;
  });
  await check(`same rolebinding via ${RBAC}`, async () => {
    const o = JSON.parse((await client.call('GET', `${roleBindings(RBAC)}/spot-check`, { keepText: true })).text);
    return `apiVersion=${o.apiVersion} roleRef.apiGroup=${o.roleRef?.apiGroup} subjects[0].apiGroup=${o.subjects?.[0]?.apiGroup}`;
  });
  return notes;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
const fmt = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));

runBench('aliases', Math.max(...CONCURRENCIES), async ({ client }) => {
  const started = Date.now();
  await client.call('POST', leases(COORDINATION), { body: lease(COORDINATION, GET_TARGET) });
  const notes = await spotCheck(client);

  const rows: (string | number)[][] = [];
  let serial = 0;
  for (const phase of PHASES) {
    for (const concurrency of CONCURRENCIES) {
      const cells = new Map<string, Cell>(phase.spellings.map((s) => [s.label, { rounds: [], latencies: [] }]));
      // Warm-up pair (JIT, connections, caches), then direct, alias, direct, alias, …
      for (const s of phase.spellings) await run(client, phase, s, concurrency, `w${serial++}`);
      for (let r = 0; r < ROUNDS; r++) {
        for (const s of phase.spellings) {
          const cell = cells.get(s.label)!;
          cell.rounds.push(await run(client, phase, s, concurrency, `r${serial++}`, cell));
        }
      }
      const [direct, alias] = phase.spellings.map((s) => cells.get(s.label)!);
      const directRate = mean(direct!.rounds.map((r) => r.rate));
      // Paired per-round ratios: round r of the alias against round r of the direct spelling.
      const paired = alias!.rounds.map((r, i) => r.rate / direct!.rounds[i]!.rate);
      for (const s of phase.spellings) {
        const cell = cells.get(s.label)!;
        const rates = cell.rounds.map((r) => r.rate);
        const lat = [...cell.latencies].sort((a, b) => a - b);
        const rate = mean(rates);
        rows.push([
          s.label === 'direct' ? phase.name : '',
          s.label === 'direct' ? concurrency : '',
          `${s.label} ${s.group}`,
          `${cell.rounds.length}×${phase.count(concurrency)}`,
          fmt(rate),
          `${fmt(Math.min(...rates))}–${fmt(Math.max(...rates))}`,
          fmt(percentile(lat, 50)),
          fmt(percentile(lat, 99)),
          cell.rounds.reduce((a, r) => a + r.errors, 0),
          s.label === 'alias' ? `${(rate / directRate).toFixed(3)} (${Math.min(...paired).toFixed(2)}–${Math.max(...paired).toFixed(2)})` : '',
        ]);
      }
    }
  }

  console.log(
    `\nUpstream aliases: vendor group vs its upstream alias, ${ROUNDS} interleaved rounds after a warm-up pair ` +
      `(${os.cpus().length} cores, node ${process.version}, ${((Date.now() - started) / 1000).toFixed(0)} s)\n`,
  );
  printTable(['phase', 'clients', 'group spelling', 'requests', 'req/s mean', 'min–max', 'p50 ms', 'p99 ms', 'errors', 'alias/direct (rounds)'], rows);
  console.log('\ntarget (issue #9): alias/direct ≥ 0.95; the bracket is the min–max of the paired per-round ratios');
  console.log('\nconversion spot check:');
  for (const n of notes) console.log(`  ${n}`);
});
