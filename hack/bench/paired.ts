/**
 * Two builds' CPU per request, measured in alternating batches (issue #17, issue #23 item 3):
 * a finer comparison than compare-rounds for changes of a few percent.
 *
 * Why: a build's CPU per request moves by 10–30% between runs a minute apart on these machines
 * (shared cores; README § Performance), so compare-rounds, whose runs last ~40 s each, cannot
 * tell apart changes of a few percent. Here both builds run at once, each as one server process
 * with its own managed etcd (as `make run --workers=1`), and the same request is sent to them in
 * alternating batches of about a second each (old, new, new, old, …: the order flips every pair).
 * Each pair's ratio new ÷ old compares two batches run seconds apart, under the same machine
 * conditions; the median of many pairs' ratios is the figure, and its interquartile range says
 * how far one pair can be trusted.
 *
 * Per batch: the server process's CPU seconds (/proc, user + system, 10 ms ticks) ÷ the requests
 * it answered. Requests: `create` (POST a ConfigMap of 1 KiB, unique names), `get` (quorum GET of
 * one ConfigMap), `get-rv0` (the same at `resourceVersion=0`, served from the watch cache),
 * `update` (unconditional PUT of one ConfigMap per client, a changed value each time).
 *
 * Each DIR is a checkout with `dist/` built (`npm run build`) whose command knows `--workers`
 * (issue #17 onwards); older builds: compare-rounds. Figures are printed, never asserted. Not
 * part of `make bench` (it needs two builds): hack/bench/run.sh skips it.
 *
 * Usage: npx tsx hack/bench/paired.ts --old DIR --new DIR [--request create|get|get-rv0|update]
 *   [--pairs 16] [--batch N (default: ~1 s of CPU per batch)] [--concurrency 32]
 *   [--old-args=FLAGS] [--new-args=FLAGS] (the command's flags for each server, space-separated:
 *   one build against itself with a flag changed measures what that flag's layer costs).
 * Run it with one DIR as both builds first: the spread of that A/A run is the noise floor of the
 * sitting (on 2026-12-03, 12 pairs: 0.94–1.15 between quartiles, 1.02–1.04 as the figure).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startServerProcess, type ServerProcess } from '../../test/framework/server-process.js';
import { BenchClient } from './bench-client.js';
import { cpuSeconds } from './proc.js';
import { measure, percentile, printTable } from './stats.js';

const REQUESTS = ['create', 'get', 'get-rv0', 'update'] as const;
type Request = (typeof REQUESTS)[number];
/** Requests per batch by default: about one second of a server's CPU each on a 2-core machine. */
const DEFAULT_BATCH: Record<Request, number> = { create: 500, get: 2_000, 'get-rv0': 3_000, update: 500 };
const NS = 'default';
const PATH = `/api/v1/namespaces/${NS}/configmaps`;
const DATA = 'x'.repeat(1024);

/** One build under test. */
interface Build {
  name: 'old' | 'new';
  server: ServerProcess;
  client: BenchClient;
  /** CPU µs per request of each batch, in order. */
  batches: number[];
}

const { values: flags } = parseArgs({
  options: {
    old: { type: 'string' },
    new: { type: 'string' },
    request: { type: 'string', default: 'create' },
    pairs: { type: 'string', default: '16' },
    batch: { type: 'string' },
    concurrency: { type: 'string', default: '32' },
    'old-args': { type: 'string', default: '' },
    'new-args': { type: 'string', default: '' },
  },
});
const request = flags.request as Request;
if (!flags.old || !flags.new || !REQUESTS.includes(request)) {
  console.error(`usage: npx tsx hack/bench/paired.ts --old DIR --new DIR [--request ${REQUESTS.join('|')}] [--pairs 16] [--batch N] [--concurrency 32] [--old-args=FLAGS] [--new-args=FLAGS]`);
  process.exit(2);
}
const PAIRS = Math.max(2, Number(flags.pairs));
const BATCH = Math.max(50, Number(flags.batch ?? DEFAULT_BATCH[request]));
const CONCURRENCY = Math.max(1, Number(flags.concurrency));

/** The built command of checkout `dir`. @throws Error when it is not built. */
function entryOf(dir: string): string {
  const entry = path.resolve(dir, 'dist/lib/cmd/orch-apiserver.js');
  if (!existsSync(entry)) throw new Error(`${dir}: no dist/lib/cmd/orch-apiserver.js (run npm ci && npm run build there)`);
  return entry;
}

/** Sends one batch of `request` to `b` (batch number `k`) and records its CPU µs per request. @throws Error when a request fails. */
async function batch(b: Build, k: number): Promise<void> {
  const c = b.client;
  const op: Record<Request, (i: number) => Promise<unknown>> = {
    create: (i) => c.call('POST', PATH, { body: { metadata: { name: `paired-${k}-${i}` }, data: { a: DATA } } }),
    get: () => c.call('GET', `${PATH}/paired`),
    'get-rv0': () => c.call('GET', `${PATH}/paired?resourceVersion=0`),
    update: (i) => c.call('PUT', `${PATH}/paired-${i % CONCURRENCY}`, { body: { metadata: { name: `paired-${i % CONCURRENCY}` }, data: { a: DATA, k: `${k}-${i}` } } }),
  };
  const cpu0 = cpuSeconds(b.server.pid);
  const r = await measure(request, BATCH, CONCURRENCY, op[request]);
  if (r.errors > 0) throw new Error(`${b.name}: ${r.errors} of ${BATCH} requests failed`);
  b.batches.push(((cpuSeconds(b.server.pid) - cpu0) * 1e6) / BATCH);
}

/** Creates what `request` reads or overwrites. */
async function setUp(b: Build): Promise<void> {
  const names = request === 'update' ? Array.from({ length: CONCURRENCY }, (_, i) => `paired-${i}`) : ['paired'];
  for (const name of names) await b.client.call('POST', PATH, { body: { metadata: { name }, data: { a: DATA } } });
}

async function main(): Promise<void> {
  const builds: Build[] = [];
  try {
    for (const name of ['old', 'new'] as const) {
      const args = (name === 'old' ? flags['old-args'] : flags['new-args'])!.split(' ').filter((a) => a !== '');
      const server = await startServerProcess(args, undefined, 120_000, entryOf(name === 'old' ? flags.old! : flags.new!));
      builds.push({ name, server, client: new BenchClient(server, CONCURRENCY), batches: [] });
    }
    const [oldB, newB] = builds as [Build, Build];
    for (const b of builds) {
      await setUp(b);
      await batch(b, -1);
      b.batches.length = 0;
    }
    const ratios: number[] = [];
    for (let p = 0; p < PAIRS; p++) {
      const order = p % 2 === 0 ? [oldB, newB] : [newB, oldB];
      for (const b of order) await batch(b, p);
      ratios.push(newB.batches[p]! / oldB.batches[p]!);
      process.stderr.write(`pair ${p + 1}/${PAIRS}: old ${oldB.batches[p]!.toFixed(0)} µs, new ${newB.batches[p]!.toFixed(0)} µs, ratio ${ratios[p]!.toFixed(3)}\n`);
    }
    const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    const r = sorted(ratios);
    console.log(`\n${request}: ${PAIRS} pairs of ${BATCH} requests at concurrency ${CONCURRENCY}, one server process per build (server CPU µs per request)\n`);
    printTable(
      ['request', 'old µs/req (median)', 'new µs/req (median)', 'new ÷ old (all batches)', 'new ÷ old (median of pairs)', 'p25–p75 of pairs', 'pairs new cheaper'],
      [
        [
          request,
          percentile(sorted(oldB.batches), 50).toFixed(0),
          percentile(sorted(newB.batches), 50).toFixed(0),
          (sum(newB.batches) / sum(oldB.batches)).toFixed(3),
          percentile(r, 50).toFixed(3),
          `${percentile(r, 25).toFixed(3)}–${percentile(r, 75).toFixed(3)}`,
          `${ratios.filter((x) => x < 1).length} of ${PAIRS}`,
        ],
      ],
    );
  } finally {
    for (const b of builds) {
      b.client.close();
      await b.server.stop();
    }
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
