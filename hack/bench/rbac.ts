/**
 * RBAC benchmark (issue #11 quality bars), in two parts.
 *
 * 1. Decisions, in process: the RBAC authorizer over informers fed by a real etcd. The policy —
 *    5,000 ClusterRoles (3 rules each), 20,000 RoleBindings over 1,000 namespaces and 2,000 users
 *    (each user ~10 bindings), 5 ClusterRoleBindings to `system:authenticated`, and a `heavy` user
 *    with 200 ClusterRoleBindings and 200 RoleBindings in one namespace — is written straight to
 *    etcd through the storage interface (the server's own encoding path, minus HTTP), then four
 *    informers list and watch it into the policy cache. Each decision is timed alone: p50/p99 in
 *    µs for a user with few bindings and for `heavy`, allowed and denied, from the user's grant
 *    index, and for the first two decisions after a policy change (a walk of the user's bindings,
 *    then the one that builds the index). Memory of the indexes: heap after the informers with the cache,
 *    minus the heap of the same informers without it (forced GC between).
 * 2. Cached-GET throughput end to end: two server processes, `--authorization-mode=Node,RBAC`
 *    (with the same policy created over HTTP) and `--authorization-mode=AlwaysAllow`; a static
 *    token user bound to a ClusterRole that may get namespaces GETs `/api/v1/namespaces/default`
 *    (served by the watch cache) on both, rounds interleaved; plus a `system:masters` certificate
 *    row on the RBAC server (decided before RBAC). Requests/s, p50/p99 ms, server CPU µs/request.
 *
 * Figures are printed, never asserted. Run: `npx tsx hack/bench/rbac.ts`.
 * Knobs: BENCH_RBAC_DECISIONS (per row, default 20000), BENCH_RBAC_ROUNDS (3),
 * BENCH_RBAC_REQUESTS (per row and round, 3000), BENCH_RBAC_CONCURRENCY (16),
 * BENCH_RBAC_HTTP_POLICY (1: also load the policy into the RBAC server; 0: skip),
 * BENCH_RBAC_THROUGHPUT (1: run part 2; 0: decisions and memory only).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { vendorGroup } from '../../lib/apis/vendor.js';
import type { AuthorizationAttributes } from '../../lib/authorization/interface.js';
import { RBACAuthorizer } from '../../lib/authorization/rbac/authorizer.js';
import { RbacPolicyCache } from '../../lib/authorization/rbac/policy-cache.js';
import { Informer } from '../../lib/client/informer.js';
import { newEtcdClient } from '../../lib/storage/etcd3/client.js';
import { Etcd3Storage } from '../../lib/storage/etcd3/store.js';
import { useEtcd } from '../../test/framework/etcd.js';
import { type ServerProcess, startServerProcess } from '../../test/framework/server-process.js';
import { cpuSeconds, usedHeapBytes } from './proc.js';
import { measure, type PhaseResult, printTable } from './stats.js';

const DECISIONS = Math.max(1000, Number(process.env.BENCH_RBAC_DECISIONS ?? 20000));
const ROUNDS = Math.max(1, Number(process.env.BENCH_RBAC_ROUNDS ?? 3));
const REQUESTS = Math.max(100, Number(process.env.BENCH_RBAC_REQUESTS ?? 3000));
const CONCURRENCY = Math.max(1, Number(process.env.BENCH_RBAC_CONCURRENCY ?? 16));
const HTTP_POLICY = (process.env.BENCH_RBAC_HTTP_POLICY ?? '1') !== '0';
const THROUGHPUT = (process.env.BENCH_RBAC_THROUGHPUT ?? '1') !== '0';

const CLUSTER_ROLES = 5000;
const ROLE_BINDINGS = 20000;
const NAMESPACES = 1000;
const USERS = 2000;
const HEAVY_CLUSTER_BINDINGS = 200;
const HEAVY_NAMESPACE_BINDINGS = 200;
const RBAC = vendorGroup('rbac.authorization');
const API_VERSION = `${RBAC}/v1`;

/** The policy as objects, by resource. */
interface Policy {
  clusterroles: Record<string, unknown>[];
  clusterrolebindings: Record<string, unknown>[];
  rolebindings: Record<string, unknown>[];
}

function buildPolicy(): Policy {
  const clusterroles = Array.from({ length: CLUSTER_ROLES }, (_, i) => ({
    apiVersion: API_VERSION,
    kind: 'ClusterRole',
    metadata: { name: `cr-${i}` },
    rules: [
      { verbs: ['get', 'list', 'watch'], apiGroups: [`g${i % 50}.example.com`], resources: [`res-${i}`] },
      { verbs: ['update'], apiGroups: [`g${i % 50}.example.com`], resources: [`res-${i}/status`] },
      { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: [`cm-${i}`] },
    ],
  }));
  const crb = (name: string, role: string, subject: object) => ({
    apiVersion: API_VERSION,
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: role },
    subjects: [subject],
  });
  const rb = (namespace: string, name: string, role: string, user: string) => ({
    apiVersion: API_VERSION,
    kind: 'RoleBinding',
    metadata: { namespace, name },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: role },
    subjects: [{ kind: 'User', apiGroup: RBAC, name: user }],
  });
  const clusterrolebindings = [
    ...Array.from({ length: 5 }, (_, i) => crb(`authenticated-${i}`, `cr-${4990 + i}`, { kind: 'Group', apiGroup: RBAC, name: 'system:authenticated' })),
    ...Array.from({ length: HEAVY_CLUSTER_BINDINGS }, (_, i) => crb(`heavy-${i}`, `cr-${i}`, { kind: 'User', apiGroup: RBAC, name: 'heavy' })),
  ];
  const rolebindings = [
    ...Array.from({ length: ROLE_BINDINGS - HEAVY_NAMESPACE_BINDINGS }, (_, b) => rb(`ns-${b % NAMESPACES}`, `rb-${b}`, `cr-${b % CLUSTER_ROLES}`, `user-${b % USERS}`)),
    ...Array.from({ length: HEAVY_NAMESPACE_BINDINGS }, (_, i) => rb('ns-0', `heavy-${i}`, `cr-${1000 + i}`, 'heavy')),
  ];
  return { clusterroles, clusterrolebindings, rolebindings };
}

/** Runs `op` over `items` with `concurrency` workers. */
async function pool<T>(items: readonly T[], concurrency: number, op: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (;;) {
        const i = next++;
        if (i >= items.length) return;
        await op(items[i]!);
      }
    }),
  );
}

function heapMiB(): number {
  return usedHeapBytes() / 2 ** 20;
}

function percentiles(samples: number[]): { p50: number; p99: number } {
  samples.sort((a, b) => a - b);
  return { p50: samples[Math.floor(samples.length / 2)]!, p99: samples[Math.min(samples.length - 1, Math.floor(samples.length * 0.99))]! };
}

async function decisions(policy: Policy): Promise<void> {
  const { endpoint } = await useEtcd();
  const client = newEtcdClient([endpoint]);
  const storage = new Etcd3Storage(client);
  const prefix = `/${randomUUID()}/registry/${RBAC}`;
  const keyOf = (resource: string, o: Record<string, unknown>) => {
    const m = o.metadata as { name: string; namespace?: string };
    return m.namespace ? `${prefix}/${resource}/${m.namespace}/${m.name}` : `${prefix}/${resource}/${m.name}`;
  };
  const t0 = Date.now();
  for (const resource of ['clusterroles', 'clusterrolebindings', 'rolebindings'] as const) {
    await pool(policy[resource], 64, async (o) => {
      await storage.create(keyOf(resource, o), structuredClone(o));
    });
  }
  console.log(`wrote ${policy.clusterroles.length} ClusterRoles, ${policy.clusterrolebindings.length} ClusterRoleBindings, ${policy.rolebindings.length} RoleBindings to etcd in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  const stop = new AbortController();
  const informers = () => {
    const of = (resource: string) => new Informer(storage, `${prefix}/${resource}/`, (err) => console.error(resource, err));
    return { roles: of('roles'), clusterRoles: of('clusterroles'), roleBindings: of('rolebindings'), clusterRoleBindings: of('clusterrolebindings') };
  };
  const start = async (set: ReturnType<typeof informers>) => {
    for (const i of Object.values(set)) void i.run(stop.signal);
    await Promise.all(Object.values(set).map((i) => i.waitForSync()));
  };
  const heap0 = heapMiB();
  const plain = informers();
  await start(plain);
  const heap1 = heapMiB();
  const withCache = informers();
  const cache = new RbacPolicyCache(withCache);
  const t1 = Date.now();
  await start(withCache);
  const syncMs = Date.now() - t1;
  const heap2 = heapMiB();
  const indexMiB = heap2 - heap1 - (heap1 - heap0);
  const authorizer = new RBACAuthorizer(cache);

  const attrs = (user: string, groups: string[], verb: string, apiGroup: string, resource: string, namespace: string, name = ''): AuthorizationAttributes => ({
    user: { name: user, groups: [...groups, 'system:authenticated'] },
    verb,
    isResourceRequest: true,
    path: '',
    apiGroup,
    apiVersion: 'v1',
    namespace,
    resource,
    subresource: '',
    name,
  });
  // user-7's RoleBindings: rb-7, rb-2007, … in ns-7 (b % 1000 = 7 for b = 7 + 2000k), roles cr-(b % 5000).
  // 'walk' rows move the policy generation before each timed decision, as any Role or binding
  // event does, so it is the user's first decision since (a walk of its bindings); 'build' rows
  // time the second decision, which builds the user's grant index. 'warm' rows use the index.
  const rows: [string, AuthorizationAttributes, 'Allow' | 'NoOpinion', 'warm' | 'walk' | 'build'][] = [
    ['few bindings (user-7, ~10), allowed', attrs('user-7', [], 'list', 'g7.example.com', 'res-7', 'ns-7'), 'Allow', 'warm'],
    ['few bindings (user-7), denied', attrs('user-7', [], 'delete', 'g7.example.com', 'res-7', 'ns-7'), 'NoOpinion', 'warm'],
    ['few bindings (user-7), denied, other namespace', attrs('user-7', [], 'list', 'g7.example.com', 'res-7', 'ns-8'), 'NoOpinion', 'warm'],
    ['many bindings (heavy, 400), allowed late', attrs('heavy', [], 'get', '', 'configmaps', 'ns-0', 'cm-1199'), 'Allow', 'warm'],
    ['many bindings (heavy), denied', attrs('heavy', [], 'delete', '', 'configmaps', 'ns-0', 'x'), 'NoOpinion', 'warm'],
    ['few bindings (user-7), 1st decision after a policy change', attrs('user-7', [], 'list', 'g7.example.com', 'res-7', 'ns-7'), 'Allow', 'walk'],
    ['few bindings (user-7), 2nd decision (builds the index)', attrs('user-7', [], 'list', 'g7.example.com', 'res-7', 'ns-7'), 'Allow', 'build'],
    ['many bindings (heavy), 1st decision after a policy change', attrs('heavy', [], 'delete', '', 'configmaps', 'ns-0', 'x'), 'NoOpinion', 'walk'],
    ['many bindings (heavy), 2nd decision (builds the index)', attrs('heavy', [], 'delete', '', 'configmaps', 'ns-0', 'x'), 'NoOpinion', 'build'],
  ];
  const table: (string | number)[][] = [];
  for (const [name, a, want, temperature] of rows) {
    const got = await authorizer.authorize(a);
    if (got.decision !== want) throw new Error(`${name}: expected ${want}, got ${got.decision} ${got.reason}`);
    for (let i = 0; i < 2000; i++) await authorizer.authorize(a);
    const samples: number[] = [];
    for (let i = 0; i < DECISIONS; i++) {
      if (temperature !== 'warm') cache.generation++;
      if (temperature === 'build') await authorizer.authorize(a);
      const s = process.hrtime.bigint();
      await authorizer.authorize(a);
      samples.push(Number(process.hrtime.bigint() - s) / 1000);
    }
    const { p50, p99 } = percentiles(samples);
    table.push([name, DECISIONS, p50, p99]);
  }
  stop.abort();
  client.close();

  console.log('\nRBAC decisions in process (authorizer over informers fed by etcd)');
  printTable(['case', 'decisions', 'p50 µs', 'p99 µs'], table);
  const s = cache.stats();
  console.log('\nRBAC policy cache');
  printTable(
    ['figure', 'value'],
    [
      ['ClusterRoles indexed', s.clusterRoles],
      ['ClusterRoleBindings indexed', s.clusterRoleBindings],
      ['RoleBindings indexed', s.roleBindings],
      ['namespaces with bindings', s.namespaces],
      ['informer object caches (MiB of heap)', heap1 - heap0],
      ['RBAC indexes (MiB of heap)', indexMiB],
      ['grant indexes kept after the decisions (subjects × namespaces / rules)', `${authorizer.grantIndexStats().entries} / ${authorizer.grantIndexStats().rules}`],
      ['initial sync of the second informer set (ms)', syncMs],
    ],
  );
}

/** A keep-alive HTTPS GET client with a bearer token (or the server's admin certificate). */
function getter(server: ServerProcess, creds: { token: string } | 'admin') {
  const url = new URL(server.url);
  const agent = new Agent({
    keepAlive: true,
    maxSockets: CONCURRENCY,
    ca: server.admin.ca,
    ...(creds === 'admin' && { cert: server.admin.creds.cert, key: server.admin.creds.key }),
  });
  const headers: Record<string, string> = creds === 'admin' ? {} : { Authorization: `Bearer ${creds.token}` };
  return {
    get: (p: string) =>
      new Promise<void>((resolve, reject) => {
        const req = request({ hostname: url.hostname, port: url.port, path: p, agent, headers }, (res) => {
          res.resume();
          res.on('end', () => ((res.statusCode ?? 0) === 200 ? resolve() : reject(new Error(`GET ${p}: ${res.statusCode}`))));
        });
        req.on('error', reject);
        req.end();
      }),
    close: () => agent.destroy(),
  };
}

async function throughput(policy: Policy): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'orch-bench-rbac-'));
  const tokenFile = path.join(dir, 'tokens.csv');
  await writeFile(tokenFile, 'bench-token,bench-user,uid-bench,bench\n');
  const servers: ServerProcess[] = [];
  try {
    const rbacServer = await startServerProcess([`--token-auth-file=${tokenFile}`, '--authorization-mode=Node,RBAC'], path.join(dir, 'rbac'));
    servers.push(rbacServer);
    const allowServer = await startServerProcess([`--token-auth-file=${tokenFile}`, '--authorization-mode=AlwaysAllow'], path.join(dir, 'allow'));
    servers.push(allowServer);
    const admin = rbacServer.admin;
    const post = async (p: string, body: object) => {
      const res = await admin.post(p, body);
      if (res.status !== 201) throw new Error(`POST ${p}: ${res.status} ${res.text.slice(0, 200)}`);
    };
    await post(`/apis/${RBAC}/v1/clusterroles`, { apiVersion: API_VERSION, kind: 'ClusterRole', metadata: { name: 'ns-reader' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['namespaces'] }] });
    await post(`/apis/${RBAC}/v1/clusterrolebindings`, {
      apiVersion: API_VERSION,
      kind: 'ClusterRoleBinding',
      metadata: { name: 'bench-ns-reader' },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'ns-reader' },
      subjects: [{ kind: 'User', apiGroup: RBAC, name: 'bench-user' }],
    });
    if (HTTP_POLICY) {
      const t0 = Date.now();
      for (let n = 0; n < NAMESPACES; n += 1) await post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `ns-${n}` } }).catch(() => undefined);
      await pool(policy.clusterroles, 16, (o) => post(`/apis/${RBAC}/v1/clusterroles`, o));
      await pool(policy.clusterrolebindings, 16, (o) => post(`/apis/${RBAC}/v1/clusterrolebindings`, o));
      await pool(policy.rolebindings, 16, (o) => post(`/apis/${RBAC}/v1/namespaces/${(o.metadata as { namespace: string }).namespace}/rolebindings`, o));
      console.log(`\nloaded the policy into the RBAC server over HTTP in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }
    const rows = [
      { name: 'RBAC, token user bound to a ClusterRole', server: rbacServer, client: getter(rbacServer, { token: 'bench-token' }) },
      { name: 'RBAC server, system:masters certificate', server: rbacServer, client: getter(rbacServer, 'admin') },
      { name: 'AlwaysAllow, same token user', server: allowServer, client: getter(allowServer, { token: 'bench-token' }) },
    ];
    const p = '/api/v1/namespaces/default';
    for (const r of rows) await measure('warm-up', 500, CONCURRENCY, () => r.client.get(p));
    const results: { phase: PhaseResult; cpuUs: number }[][] = rows.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i]!;
        const cpu0 = cpuSeconds(r.server.pid);
        const phase = await measure(r.name, REQUESTS, CONCURRENCY, () => r.client.get(p));
        results[i]!.push({ phase, cpuUs: ((cpuSeconds(r.server.pid) - cpu0) * 1e6) / REQUESTS });
      }
    }
    for (const r of rows) r.client.close();
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const table = rows.map((r, i) => {
      const rs = results[i]!;
      return [r.name, median(rs.map((x) => x.phase.rate)), median(rs.map((x) => x.phase.p50)), median(rs.map((x) => x.phase.p99)), median(rs.map((x) => x.cpuUs)), rs.reduce((n, x) => n + x.phase.errors, 0)];
    });
    console.log(`\nCached GET ${p}, ${REQUESTS} requests × ${ROUNDS} rounds at concurrency ${CONCURRENCY} (medians of the rounds)`);
    printTable(['row', 'req/s', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'errors'], table);
    const rbacRate = table[0]![1] as number;
    const allowRate = table[2]![1] as number;
    const rbacCpu = table[0]![4] as number;
    const allowCpu = table[2]![4] as number;
    console.log(`\nRBAC vs AlwaysAllow: throughput ${(((allowRate - rbacRate) / allowRate) * 100).toFixed(1)}% lower, server CPU per request ${(((rbacCpu - allowCpu) / allowCpu) * 100).toFixed(1)}% higher (target ≤ 10%)`);
  } finally {
    for (const s of servers) await s.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const policy = buildPolicy();
  await decisions(policy);
  if (THROUGHPUT) await throughput(policy);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
