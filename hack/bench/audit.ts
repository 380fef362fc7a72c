/**
 * Audit benchmark (issue #16 quality bars): the cost of auditing at Metadata level to a log file.
 * Two server processes, rounds interleaved: `no audit`, and `Metadata → log` (a policy with one
 * Metadata rule for every request, `--audit-log-path` to a file, default blocking mode). For
 * ConfigMap creates and gets: requests/s, p50/p99 ms, server CPU µs per request, and the cost
 * relative to `no audit` (target: ≤ 10% of throughput).
 *
 * Then, in process and free of the other processes' noise: the audit work of one request at
 * Metadata level — policy evaluation and two events (RequestReceived, ResponseComplete) serialized
 * and appended to a log file — in µs per request, beside the server CPU per request above.
 *
 * Figures are printed, never asserted. Run: `npx tsx hack/bench/audit.ts`.
 * Knobs: BENCH_AUDIT_ROUNDS (3), BENCH_AUDIT_REQUESTS (per row, verb and round, 1000),
 * BENCH_AUDIT_CONCURRENCY (16), BENCH_AUDIT_LOG_DIR (where the audit log goes; default the
 * benchmark's temporary directory, on the same disk as the servers' etcd — `/dev/shm` takes the
 * disk out of the comparison).
 */
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { BenchClient } from './bench-client.js';
import os from 'node:os';
import path from 'node:path';
import { type ServerProcess, startServerProcess } from '../../test/framework/server-process.js';
import { defaultAuditOptions } from '../../lib/audit/options.js';
import { buildAuditPipeline } from '../../lib/audit/pipeline.js';
import type { AuditEvent } from '../../lib/audit/types.js';
import { StabilityRegistry } from '../../lib/metrics/registry.js';
import { cpuSeconds } from './proc.js';
import { measure, type PhaseResult, printTable } from './stats.js';

const ROUNDS = Math.max(1, Number(process.env.BENCH_AUDIT_ROUNDS ?? 3));
const REQUESTS = Math.max(100, Number(process.env.BENCH_AUDIT_REQUESTS ?? 1000));
const CONCURRENCY = Math.max(1, Number(process.env.BENCH_AUDIT_CONCURRENCY ?? 16));
const NS = 'default';
const POLICY = 'apiVersion: audit.orch.io/v1\nkind: Policy\nrules:\n- level: Metadata\n';

const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { key: 'value' } });

interface Row {
  name: string;
  server: ServerProcess;
  client: BenchClient;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'orch-bench-audit-'));
  const rows: Row[] = [];
  const logDir = process.env.BENCH_AUDIT_LOG_DIR ? await mkdtemp(path.join(process.env.BENCH_AUDIT_LOG_DIR, 'orch-bench-audit-log-')) : dir;
  const logFile = path.join(logDir, 'audit.log');
  try {
    const policyFile = path.join(dir, 'policy.yaml');
    await writeFile(policyFile, POLICY);
    const start = async (name: string, args: string[]) => {
      const server = await startServerProcess(args, path.join(dir, name.replace(/\W+/g, '-')));
      rows.push({ name, server, client: new BenchClient(server, CONCURRENCY) });
    };
    await start('no audit', []);
    await start('Metadata → log', [`--audit-policy-file=${policyFile}`, `--audit-log-path=${logFile}`]);
    const verbs: Array<{ verb: string; op: (r: Row, round: number, n: number) => Promise<unknown> }> = [
      { verb: 'create', op: (r, round, n) => r.client.call('POST', `/api/v1/namespaces/${NS}/configmaps`, { body: configMap(`r${round}-${n}`) }) },
      { verb: 'get', op: (r, _round, n) => r.client.call('GET', `/api/v1/namespaces/${NS}/configmaps/warm-${n % 300}`) },
    ];
    for (const r of rows) await measure('warm-up', 300, CONCURRENCY, (i) => r.client.call('POST', `/api/v1/namespaces/${NS}/configmaps`, { body: configMap(`warm-${i}`) }));
    const results = new Map<string, Array<{ phase: PhaseResult; cpuUs: number }>>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const v of verbs) {
        for (const r of rows) {
          const cpu0 = cpuSeconds(r.server.pid);
          const phase = await measure(`${r.name} ${v.verb}`, REQUESTS, CONCURRENCY, (n) => v.op(r, round, n));
          const key = `${v.verb}|${r.name}`;
          results.set(key, [...(results.get(key) ?? []), { phase, cpuUs: ((cpuSeconds(r.server.pid) - cpu0) * 1e6) / REQUESTS }]);
        }
      }
    }
    const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const table: (string | number)[][] = [];
    for (const v of verbs) {
      const base = results.get(`${v.verb}|${rows[0]!.name}`)!;
      const baseRate = median(base.map((x) => x.phase.rate));
      const baseCpu = median(base.map((x) => x.cpuUs));
      for (const r of rows) {
        const xs = results.get(`${v.verb}|${r.name}`)!;
        const rate = median(xs.map((x) => x.phase.rate));
        const cpu = median(xs.map((x) => x.cpuUs));
        table.push([
          `${v.verb}, ${r.name}`,
          rate,
          median(xs.map((x) => x.phase.p50)),
          median(xs.map((x) => x.phase.p99)),
          cpu,
          `${(((baseRate - rate) / baseRate) * 100).toFixed(1)}%`,
          `${(((cpu - baseCpu) / baseCpu) * 100).toFixed(1)}%`,
          xs.reduce((n, x) => n + x.phase.errors, 0),
        ]);
      }
    }
    console.log(`\nConfigMap creates and gets, ${ROUNDS} interleaved rounds of ${REQUESTS} at concurrency ${CONCURRENCY} (medians of rounds)`);
    printTable(['verb, audit', 'requests/s', 'p50 ms', 'p99 ms', 'server CPU µs/request', 'throughput lost vs no audit', 'CPU added vs no audit'], table.map((r) => r.slice(0, 7)));
    const errors = table.reduce((n, r) => n + Number(r[7]), 0);
    console.log(`\nerrors: ${errors}; audit log written: ${((await stat(logFile)).size / 1024 / 1024).toFixed(1)} MiB in ${logDir}`);
  } finally {
    for (const r of rows) {
      r.client.close();
      await r.server.stop();
    }
    await rm(dir, { recursive: true, force: true });
    await rm(logDir, { recursive: true, force: true });
  }
}

/** Part 2: the per-request audit work in process (see the module comment). */
async function inProcess(): Promise<void> {
  const dir = await mkdtemp(path.join(process.env.BENCH_AUDIT_LOG_DIR ?? os.tmpdir(), 'orch-bench-audit-inproc-'));
  try {
    const opts = defaultAuditOptions();
    opts.policyFile = path.join(dir, 'policy.yaml');
    opts.log.path = path.join(dir, 'audit.log');
    await writeFile(opts.policyFile, POLICY);
    const p = (await buildAuditPipeline(opts, new StabilityRegistry(), { error: console.error, warn: console.error }))!;
    const attrs = { user: { name: 'admin', groups: ['system:masters', 'system:authenticated'] }, verb: 'create', isResourceRequest: true, path: '/api/v1/namespaces/default/configmaps', apiGroup: '', namespace: 'default', resource: 'configmaps', subresource: '', name: '' };
    const event = (id: number, stage: AuditEvent['stage']): AuditEvent => ({
      kind: 'Event',
      apiVersion: 'audit.orch.io/v1',
      level: 'Metadata',
      auditID: `0000000-${id}`,
      stage,
      requestURI: '/api/v1/namespaces/default/configmaps',
      verb: 'create',
      user: { username: 'admin', groups: ['system:masters', 'system:authenticated'] },
      sourceIPs: ['127.0.0.1'],
      userAgent: 'bench',
      objectRef: { resource: 'configmaps', namespace: 'default', apiVersion: 'v1' },
      responseStatus: stage === 'ResponseComplete' ? { metadata: {}, code: 201 } : undefined,
      requestReceivedTimestamp: '2026-11-29T01:24:48.123456Z',
      stageTimestamp: '2026-11-29T01:24:48.125456Z',
      annotations: stage === 'ResponseComplete' ? { 'authorization.orch.io/decision': 'allow', 'authorization.orch.io/reason': '' } : undefined,
    });
    const N = 50_000;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < N; i++) {
      p.checker.evaluate(attrs);
      p.backend.processEvents([event(i, 'RequestReceived')]);
      p.backend.processEvents([event(i, 'ResponseComplete')]);
      if (i % 1000 === 999) await new Promise((r) => setImmediate(r));
    }
    const us = Number(process.hrtime.bigint() - t0) / 1000 / N;
    await p.shutdown();
    console.log(`\nIn process: audit work of one request at Metadata level to a log file (${N} requests)`);
    printTable(['figure', 'µs/request'], [['policy evaluation + 2 events serialized and appended', us]]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
await inProcess();
process.exit(0);
