/**
 * The scale benchmark (issue #24 item 5; `make bench-scale`): the steady API load of a cluster of
 * N simulated nodes with P Pods each (cluster.ts says which requests), against a server started
 * here as `make run` starts it (managed etcd, `--workers` as given, default one per CPU) or
 * against one given by `--server` and `--token`. It prints, for the steady phase: p50/p99 per
 * kind of request, the watch lag (a write acknowledged → its event seen by the kubelet of the
 * Pod's node), the events lost (acknowledged writes no kubelet saw by the end), relists, the CPU
 * and RSS of the server (all its processes) and of etcd over time with the p99 of the writes sent
 * in each interval, the same writes as one worker's request histogram timed them, the delay of
 * the generator's own event loop, the requests each APF priority level dispatched and rejected,
 * and a last line saying whether upstream's SLOs held: mutating and single-object read requests
 * p99 ≤ 1 s, LIST p99 ≤ 30 s. Figures are printed, never asserted.
 * With a server started here, the load is sent as upstream's clients send it: each kubelet as its
 * node (a token per node in a `--token-auth-file`), the informers and the churn as the controller
 * manager, the full lists as an ordinary user (both bound to cluster-admin), so that the Node
 * authorizer and flow control treat them as upstream's (issue #24 item 4).
 *
 * Usage: npx tsx hack/bench/scale/main.ts [--nodes 100] [--pods-per-node 30] [--duration 120]
 *   [--namespaces 10] [--pod-status-rate N/10] [--churn-rate N/100] [--workers 0]
 *   [--server-arg=--flag=value …] (flags of the server started here, e.g. `--server-arg=--max-event-loop-delay=0`)
 *   [--server URL --token T [--insecure] [--server-pid P] [--etcd-pid P]]
 *   [--cpu-profile DIR] (a CPU profile of each worker over the middle of the steady phase, at most 50 s, into DIR)
 * It opens one connection per node (its kubelet's watch): raise `ulimit -n` above N + 1,000
 * (`make bench-scale` does).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { vendorGroup } from '../../../lib/apis/vendor.js';
import { CONTROLLER_MANAGER_USER, NODES_GROUP } from '../../../lib/apis/rbac/bootstrap-policy/cluster-role-bindings.js';
import { NODE_USER_PREFIX } from '../../../lib/request/node-identity.js';
import { workerCount } from '../../../lib/server/options/workers-flags.js';
import { type ServerProcess, startServerProcess } from '../../../test/framework/server-process.js';
import { printTable } from '../stats.js';
import { ClusterClient } from './client.js';
import { type Identities, SimulatedCluster, type Verb } from './cluster.js';
import { nodeName } from './objects.js';
import { maximum, percentile, ResourceSampler, VerbStats } from './recorder.js';
import { DURATION_METRIC, metricsText, p99Bounds, ProcessProbes, SLI_METRIC, SLO_LIST_MS, SLO_MUTATING_MS, SLO_REQUESTS, type ServedTimings } from './server-metrics.js';

const { values: flags } = parseArgs({
  options: {
    nodes: { type: 'string', default: '100' },
    'pods-per-node': { type: 'string', default: '30' },
    duration: { type: 'string', default: '120' },
    namespaces: { type: 'string', default: '10' },
    'pod-status-rate': { type: 'string' },
    'churn-rate': { type: 'string' },
    workers: { type: 'string', default: '0' },
    'server-arg': { type: 'string', multiple: true, default: [] },
    server: { type: 'string' },
    token: { type: 'string' },
    insecure: { type: 'boolean', default: false },
    'server-pid': { type: 'string' },
    'etcd-pid': { type: 'string' },
    'cpu-profile': { type: 'string' },
  },
});

const NODES = Number(flags.nodes);
const SHAPE = {
  nodes: NODES,
  podsPerNode: Number(flags['pods-per-node']),
  namespaces: Number(flags.namespaces),
  podStatusPerSecond: flags['pod-status-rate'] === undefined ? NODES / 10 : Number(flags['pod-status-rate']),
  churnPerSecond: flags['churn-rate'] === undefined ? NODES / 100 : Number(flags['churn-rate']),
};
const DURATION_S = Number(flags.duration);
/**
 * How long the watches may still deliver, once the load has stopped and its requests have been
 * answered, before what is missing counts as lost.
 */
const DRAIN_MS = 15_000;
/** The longest wait, once the load has stopped, for the answers of the requests still in flight (ms). */
const SETTLE_LIMIT_MS = 180_000;
const SETUP_CONCURRENCY = 64;
/**
 * Connections of the request pool (of each identity's pool: the admin's, the token clients'). The
 * kubelets share one pool, where upstream each has a connection of its own, so a request can wait
 * for a connection (the report prints how long); 2,048 connections instead (2026-11-30) made the
 * requests of the first 40 s wait many seconds for their new connections' handshakes.
 */
const POOL = 256;
/** The user the periodic full LIST is sent as (an ordinary user: APF's global-default level). */
const LISTER_USER = 'scale-bench-lister';
/** The issue's milestone for the watch lag p99 (ms). */
const LAG_TARGET_MS = 5000;

const VERBS: Verb[] = ['PUT lease', 'PATCH node status', 'PATCH pod status', 'DELETE pod (graceful)', 'DELETE pod (kubelet)', 'POST pod', 'LIST pods (quorum)'];

const log = (msg: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);

/** The tokens of the identities the load is sent as with a server started here (cluster.ts Identities). */
interface IdentityTokens {
  controllers: string;
  lister: string;
  nodes: string[];
}

/** A `--token-auth-file` naming the identities of `tokens` (token,user,uid,"groups"). */
function tokenFile(tokens: IdentityTokens): string {
  const lines = [`${tokens.controllers},${CONTROLLER_MANAGER_USER},scale-controllers`, `${tokens.lister},${LISTER_USER},scale-lister`];
  tokens.nodes.forEach((t, i) => lines.push(`${t},${NODE_USER_PREFIX}${nodeName(i)},scale-node-${i},${NODES_GROUP}`));
  return `${lines.join('\n')}\n`;
}

/** Binds `user` to cluster-admin (the controllers and the lister act on every namespace). */
async function bindClusterAdmin(admin: ClusterClient, user: string): Promise<void> {
  const rbac = `${vendorGroup('rbac.authorization')}`;
  const binding = {
    apiVersion: `${rbac}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: { name: `scale-bench-${user.replace(/:/g, '-')}` },
    roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'cluster-admin' },
    subjects: [{ kind: 'User', apiGroup: rbac, name: user }],
  };
  const reply = await admin.call('POST', `/apis/${rbac}/v1/clusterrolebindings`, binding);
  if (reply.status !== 201 && reply.status !== 409) throw new Error(`binding ${user}: ${reply.status} ${reply.body?.message ?? ''}`);
}

/** The server to measure and the identities to send the load as: the server named by the flags, or one started here. */
async function connect(): Promise<{ ids: Identities; close: () => void; serverPid?: number; etcdPid?: number; stop: () => Promise<void> }> {
  if (flags.server) {
    if (!flags.token) throw new Error('--server needs --token');
    const client = new ClusterClient({ url: flags.server, token: flags.token, insecure: flags.insecure }, POOL);
    const pid = (f: string | undefined) => (f === undefined ? undefined : Number(f));
    const ids: Identities = { admin: client, node: () => client, controllers: client, lister: client };
    return { ids, close: () => client.close(), serverPid: pid(flags['server-pid']), etcdPid: pid(flags['etcd-pid']), stop: async () => undefined };
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'orch-bench-scale-'));
  const token = () => randomBytes(16).toString('hex');
  const tokens: IdentityTokens = { controllers: token(), lister: token(), nodes: Array.from({ length: NODES }, token) };
  const tokensPath = path.join(dir, 'tokens.csv');
  await writeFile(tokensPath, tokenFile(tokens), { mode: 0o600 });
  const server: ServerProcess = await startServerProcess([`--workers=${flags.workers}`, '--bind-address=127.0.0.1', `--token-auth-file=${tokensPath}`, ...flags['server-arg']], dir, 180_000);
  const etcdPid = Number((await readFile(path.join(dir, 'etcd.pid'), 'utf8')).split('\n')[0]);
  const admin = new ClusterClient({ url: server.url, ca: server.admin.ca, cert: server.admin.creds.cert, key: server.admin.creds.key }, POOL);
  await bindClusterAdmin(admin, CONTROLLER_MANAGER_USER);
  await bindClusterAdmin(admin, LISTER_USER);
  const nodes = tokens.nodes.map((t) => admin.as(t));
  const ids: Identities = { admin, node: (i) => nodes[i]!, controllers: admin.as(tokens.controllers), lister: admin.as(tokens.lister) };
  return {
    ids,
    close: () => admin.close(),
    serverPid: server.pid,
    etcdPid,
    stop: async () => {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Requests dispatched and rejected (429) per APF priority level, summed from a worker's
 * `/metrics` (with `--workers` above 1, the figures of the worker that answered only).
 */
function flowControlCounts(text: string): (string | number)[][] {
  const rows = new Map<string, [number, number]>();
  for (const line of text.split('\n')) {
    const m = /^apiserver_flowcontrol_(dispatched|rejected)_requests_total\{.*priority_level="([^"]+)".*\} (\S+)$/.exec(line);
    if (!m) continue;
    const row = rows.get(m[2]!) ?? [0, 0];
    row[m[1] === 'dispatched' ? 0 : 1] += Number(m[3]);
    rows.set(m[2]!, row);
  }
  return [...rows].sort((a, b) => a[0].localeCompare(b[0])).map(([level, [dispatched, rejected]]) => [level, dispatched, rejected]);
}

/**
 * Profiles every worker over the middle of the steady phase: from a quarter in, for half of it
 * (at most 50 s: a profile must end within the server's request timeout of 60 s).
 */
async function profileMiddle(probes: ProcessProbes, dir: string): Promise<string[]> {
  const seconds = Math.max(1, Math.min(50, Math.floor(DURATION_S / 2)));
  await new Promise((r) => setTimeout(r, (DURATION_S / 4) * 1000));
  return probes.cpuProfiles(seconds, dir);
}

/** One worker's event loop, read from `/metrics`. */
interface LoopSample {
  /** `apiserver_flowcontrol_event_loop_pressure`: priority levels shed. */
  pressure: number;
  /** `nodejs_eventloop_lag_mean_seconds`, ms (since the previous scrape). */
  lagMeanMs: number;
  /** `nodejs_eventloop_lag_p99_seconds`, ms (since the previous scrape). */
  lagP99Ms: number;
  /** `nodejs_eventloop_lag_max_seconds`, ms (since the previous scrape). */
  lagMaxMs: number;
}

/** Samples one worker's event loop every `everyMs` until stopped; a failed read is skipped. */
function sampleLoop(admin: ClusterClient, everyMs: number): { stop(): LoopSample[] } {
  const values: LoopSample[] = [];
  const read = (text: string, name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  const timer = setInterval(() => {
    void metricsText(admin).then((text) => {
      if (text === undefined) return;
      const ms = (name: string) => read(text, `nodejs_eventloop_lag_${name}_seconds`) * 1000;
      values.push({ pressure: read(text, 'apiserver_flowcontrol_event_loop_pressure'), lagMeanMs: ms('mean'), lagP99Ms: ms('p99'), lagMaxMs: ms('max') });
    });
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return values;
    },
  };
}

function report(cluster: SimulatedCluster, stats: Record<Verb, VerbStats>, sampler: ResourceSampler, served: ServedTimings, metrics: string, loop: LoopSample[], generatorDelay: IntervalHistogram): void {
  console.log(`\nsteady phase: ${DURATION_S} s, ${SHAPE.nodes} nodes, ${SHAPE.nodes * SHAPE.podsPerNode} pods; ${SHAPE.podStatusPerSecond}/s pod status updates, ${SHAPE.churnPerSecond}/s graceful deletes`);
  printTable(
    ['request', 'count', 'errors', 'p50 ms', 'p99 ms', 'max ms'],
    VERBS.map((v) => {
      const s = stats[v];
      const n = s.latencies.length;
      return [v, n, s.errors, percentile(s.latencies, 50), percentile(s.latencies, 99), maximum(s.latencies)];
    }),
  );
  for (const v of VERBS) if (stats[v].firstError) console.log(`  ${v}: first error: ${stats[v].firstError!.slice(0, 160)}`);
  const lag = cluster.lag;
  const w = cluster.watchCounts();
  console.log(`\nwatch lag (write acknowledged → seen by its node's kubelet): ${lag.lags.length} events, p50 ${percentile(lag.lags, 50).toFixed(0)} ms, p99 ${percentile(lag.lags, 99).toFixed(0)} ms, max ${maximum(lag.lags).toFixed(0)} ms`);
  console.log(`events lost: ${lag.pending}${lag.pending ? ` (${lag.pendingKeys(5).join(', ')})` : ''}; acknowledgements of a write seen before: ${lag.repeated}; kubelet relists: ${w.kubeletRelists}; informer relists: ${w.informerRelists}; failed watches: ${w.watchFailures}; informer events: ${w.informerEvents}; requests skipped (2,000 in flight): ${cluster.skipped}`);
  const sli = p99Bounds(served.byMetric.get(SLI_METRIC)!);
  const whole = new Map(p99Bounds(served.byMetric.get(DURATION_METRIC)!).map((r) => [r.key, r.p99]));
  const bound = (p99: number | undefined) => (p99 === undefined ? '' : p99 === Infinity ? '> 60' : `≤ ${p99}`);
  if (sli.length > 0) {
    const left = served.skipped > 0 ? `; ${served.skipped} probe connection(s) closed or failed, left out` : '';
    console.log(`\nthe same requests as the server timed them (the steady phase, summed over the ${served.processes} server process(es) told apart${left}; SLI: without flow control's queueing):`);
    printTable(['request', 'count', 'SLI p99 s', 'in the server p99 s'], sli.map((r) => [r.key, r.count, bound(r.p99), bound(whole.get(r.key))]));
  }
  if (served.memory.length > 0) {
    console.log("\nmemory of each server process told apart, once the load's requests were answered and the watches drained (MiB; V8 heap used includes garbage not yet collected):");
    const mib = (x: number) => x.toFixed(0);
    printTable(['process', 'RSS', 'V8 heap used', 'V8 heap total', 'external (Buffers)'], served.memory.map((m, k) => [k + 1, mib(m.rss), mib(m.heapUsed), mib(m.heapTotal), mib(m.external)]));
  }
  const waits = cluster.connectionWaits;
  console.log(`waits for one of the generator's pooled connections (${POOL} a pool, the kubelets' shared; in the latencies measured here, not in the server's): p50 ${percentile(waits, 50).toFixed(0)} ms, p99 ${percentile(waits, 99).toFixed(0)} ms, max ${maximum(waits).toFixed(0)} ms`);
  const ms = (ns: number) => (ns / 1e6).toFixed(0);
  console.log(`the generator's own event loop (its delays are in the latencies measured here, not in the server's): mean ${ms(generatorDelay.mean)} ms, p99 ${ms(generatorDelay.percentile(99))} ms, max ${ms(generatorDelay.max)} ms`);
  const apf = flowControlCounts(metrics);
  if (apf.length > 0) {
    console.log('\nflow control (the whole run, one worker\'s figures):');
    printTable(['priority level', 'dispatched', 'rejected (429)'], apf);
  }
  if (loop.length > 0) {
    console.log(`\nevent loop of one worker, every 10 s: pressure (levels shed) ${loop.map((l) => l.pressure.toFixed(2)).join(' ')}`);
    console.log(`  mean delay ms ${loop.map((l) => l.lagMeanMs.toFixed(0)).join(' ')}`);
    console.log(`  p99 delay ms ${loop.map((l) => l.lagP99Ms.toFixed(0)).join(' ')}`);
    console.log(`  max delay ms ${loop.map((l) => l.lagMaxMs.toFixed(0)).join(' ')}`);
  }
  const samples = sampler.samples;
  const step = Math.max(1, Math.floor(samples.length / 12));
  console.log('\nresources (server = all its processes):');
  const writes = VERBS.filter((v) => !v.startsWith('LIST')).map((v) => stats[v]);
  const rows = samples.filter((_, k) => k % step === step - 1);
  printTable(
    ['t s', 'server cores', 'server RSS MiB', 'etcd cores', 'etcd RSS MiB', 'generator cores', 'writes sent: p99 ms'],
    rows.map((s, k) => [s.t.toFixed(0), s.serverCores, s.serverRssMiB, s.etcdCores, s.etcdRssMiB, s.generatorCores, percentile(writes.flatMap((w) => w.sentBetween(k === 0 ? 0 : rows[k - 1]!.at, s.at)), 99)]),
  );
  const t0 = samples.length > 0 ? samples[0]!.at - samples[0]!.t * 1000 : 0;
  const lists = stats['LIST pods (quorum)'];
  console.log(`quorum LISTs (sent at t s: took s): ${lists.sentAt.map((at, k) => `${((at - t0) / 1000).toFixed(0)}: ${(lists.latencies[k]! / 1000).toFixed(1)}`).join(', ')}`);
  const mean = (f: (s: (typeof samples)[number]) => number) => samples.reduce((a, s) => a + f(s), 0) / Math.max(1, samples.length);
  console.log(`mean: server ${mean((s) => s.serverCores).toFixed(2)} cores, etcd ${mean((s) => s.etcdCores).toFixed(2)} cores; peak RSS: server ${Math.max(0, ...samples.map((s) => s.serverRssMiB)).toFixed(0)} MiB, etcd ${Math.max(0, ...samples.map((s) => s.etcdRssMiB)).toFixed(0)} MiB`);
  const broken: string[] = [];
  const errors: string[] = [];
  for (const v of VERBS) {
    const limit = v.startsWith('LIST') ? SLO_LIST_MS : SLO_MUTATING_MS;
    const p99 = percentile(stats[v].latencies, 99);
    if (p99 > limit) broken.push(`${v} p99 ${p99.toFixed(0)} ms > ${limit} ms`);
    if (stats[v].errors > 0) errors.push(`${v}: ${stats[v].errors} errors`);
  }
  broken.push(...errors);
  // A request the server refused (429) or lost is fast in its histograms: its failure counts here.
  const brokenSli = sli.filter((r) => r.p99 * 1000 > SLO_REQUESTS[r.key]!).map((r) => `${r.key} p99 > ${r.above} s`);
  brokenSli.push(...errors);
  const lagP99 = percentile(lag.lags, 99);
  const milestone = lagP99 <= LAG_TARGET_MS && lag.pending === 0 ? 'met' : `not met (lag p99 ${lagP99.toFixed(0)} ms, ${lag.pending} lost)`;
  const verdict = (b: string[]) => (b.length === 0 ? 'HELD' : `BROKEN: ${b.join('; ')}`);
  console.log(`\n${SHAPE.nodes} nodes: upstream SLOs (mutating and single-object reads p99 ≤ 1 s, LIST p99 ≤ 30 s)`);
  console.log(`  as upstream judges them (the server's SLI histograms above; the errors its clients got): ${sli.length === 0 ? 'not read' : verdict(brokenSli)}`);
  console.log(`  as this generator's clients saw them (errors count): ${verdict(broken)}`);
  console.log(`  watch lag p99 ≤ 5 s with 0 lost: ${milestone}`);
}

async function main(): Promise<void> {
  const server = await connect();
  const stats = Object.fromEntries(VERBS.map((v) => [v, new VerbStats()])) as Record<Verb, VerbStats>;
  const cluster = new SimulatedCluster(server.ids, SHAPE, stats);
  const sampler = new ResourceSampler(server.serverPid, server.etcdPid);
  try {
    const t0 = performance.now();
    log(`setup: ${SHAPE.nodes} nodes, ${SHAPE.nodes * SHAPE.podsPerNode} pods in ${SHAPE.namespaces} namespaces`);
    await cluster.setup(SETUP_CONCURRENCY, (what) => log(`  created ${what}`));
    log(`setup done in ${((performance.now() - t0) / 1000).toFixed(0)} s; starting ${SHAPE.nodes} kubelet watches and 20 informers`);
    await cluster.startWatches();
    const workers = flags.server ? 1 : workerCount(Number(flags.workers));
    const probes = await ProcessProbes.open(server.ids.admin, 4 * workers);
    log(`watching; steady load for ${DURATION_S} s`);
    sampler.start(5000);
    const loop = sampleLoop(server.ids.admin, 10_000);
    const generatorDelay = monitorEventLoopDelay({ resolution: 10 });
    generatorDelay.enable();
    cluster.startLoad();
    const profiled = flags['cpu-profile'] === undefined ? undefined : profileMiddle(probes, flags['cpu-profile']);
    await new Promise((r) => setTimeout(r, DURATION_S * 1000));
    cluster.stopLoad();
    if (profiled) log(`CPU profiles: ${(await profiled).join(', ') || 'none received'}`);
    const left = await cluster.settled(SETTLE_LIMIT_MS);
    log(`load stopped and its requests answered${left > 0 ? ` but ${left} (after ${SETTLE_LIMIT_MS / 1000} s)` : ''}; draining watches for ${DRAIN_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, DRAIN_MS));
    generatorDelay.disable();
    sampler.stop();
    const loopSamples = loop.stop();
    await cluster.stopWatches();
    const served = await probes.finish([SLI_METRIC, DURATION_METRIC]);
    report(cluster, stats, sampler, served, (await metricsText(server.ids.admin)) ?? '', loopSamples, generatorDelay);
  } finally {
    sampler.stop();
    server.close();
    await server.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
