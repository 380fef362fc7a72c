/**
 * The etcd member-loss drill (issue #19 items 2 and 5): a 3-member etcd started by the test and
 * one server process listing all three. Under load — 16 creators, 8 read-modify-write clients
 * incrementing one counter ConfigMap with resourceVersion preconditions (retried on 409), plain
 * GET and LIST readers, a list+watch from the start — the raft leader is SIGKILLed at ~5 s and
 * restarted at ~12 s; the load stops at ~18 s. It asserts: no read failed (every GET and LIST
 * answered 200), no acknowledged create lost, the counter equal to the increments that were
 * applied (every acknowledged one, plus those answered "may have succeeded" that etcd holds),
 * the watch saw every create, and every 5xx is a Status carrying `Retry-After`. Prints the figures.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { newEtcdClient } from '../../../lib/storage/etcd3/client.js';
import type { TestClient } from '../../framework/client.js';
import { type EtcdCluster, startEtcdCluster } from '../../framework/etcd-cluster.js';
import { FailoverWatch } from '../../framework/failover-watch.js';
import { type ServerProcess, startServerProcess } from '../../framework/server-process.js';

const execFileAsync = promisify(execFile);
const CM = '/api/v1/namespaces/default/configmaps';
const KEY_PREFIX = '/registry/core/configmaps/default/';
const COUNTER = 'counter';
const KILL_AT_MS = 5_000;
const RESTART_AT_MS = 12_000;
const STOP_AT_MS = 18_000;

/** Index of the member that leads the cluster, from `etcdctl endpoint status` over the running members. */
async function leaderIndex(cluster: EtcdCluster): Promise<number> {
  const endpoints = cluster.members.filter((m) => m.running).map((m) => m.clientURL);
  const { stdout } = await execFileAsync('etcdctl', [`--endpoints=${endpoints.join(',')}`, 'endpoint', 'status', '-w', 'json'], { env: { ...process.env, ETCDCTL_API: '3' } });
  const status = JSON.parse(stdout) as Array<{ Endpoint: string; Status: { header: { member_id: number | string }; leader: number | string } }>;
  const leader = status.find((s) => String(s.Status.header.member_id) === String(s.Status.leader));
  const i = cluster.endpoints.indexOf(leader?.Endpoint ?? '');
  if (i < 0) throw new Error(`no leader in ${stdout}`);
  return i;
}

type Answer = Awaited<ReturnType<TestClient['get']>> | undefined;

/** Every answer of the drill, tallied; 5xx answers checked for a Status with Retry-After. */
class Tally {
  requests = 0;
  /** `<code> <reason>` → count, for 5xx answers. */
  readonly serverErrors = new Map<string, number>();
  /** 5xx answers that were not a Status with a Retry-After header. */
  readonly bad5xx: string[] = [];
  /** Reads not answered 200 (status 0: no answer). */
  readonly failedReads: string[] = [];
  reads = 0;

  record(what: string, res: Answer, read: boolean): void {
    this.requests++;
    if (read) this.reads++;
    const status = res?.status ?? 0;
    if (read && status !== 200) this.failedReads.push(`${what}: ${status} ${res?.text.slice(0, 200) ?? 'no answer'}`);
    if (status < 500) return;
    const body = res!.body as { kind?: string; reason?: string } | undefined;
    const key = `${status} ${body?.reason ?? '?'}`;
    this.serverErrors.set(key, (this.serverErrors.get(key) ?? 0) + 1);
    if (body?.kind !== 'Status' || !res!.headers['retry-after']) this.bad5xx.push(`${what}: ${status} retry-after=${res!.headers['retry-after']} ${res!.text.slice(0, 200)}`);
  }
}

describe('drill: the etcd raft leader killed and restarted under load (issue #19 items 2 and 5)', function () {
  this.timeout(150_000);
  let cluster: EtcdCluster | undefined;
  let server: ServerProcess | undefined;

  after(async () => {
    await server?.stop().catch(() => null);
    await cluster?.stop();
  });

  it('fails no read, loses no acknowledged write, keeps the counter exact, and answers every 5xx with Retry-After', async () => {
    cluster = await startEtcdCluster({ members: 3 });
    server = await startServerProcess([`--etcd-servers=${cluster.endpoints.join(',')}`]);
    const admin = server.admin;
    expect((await admin.post(CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: COUNTER }, data: { n: '0' } })).status).to.equal(201);
    const watch = new FailoverWatch([admin], CM);
    await watch.start();

    const tally = new Tally();
    const created = new Set<string>();
    const createUnknown = new Set<string>();
    /** Increment ids answered 200, and those answered 5xx (applied or not: etcd decides). */
    const incAcked = new Set<string>();
    const incUnknown = new Set<string>();
    let conflicts = 0;
    let stopped = false;

    const creator = async (w: number): Promise<void> => {
      for (let i = 0; !stopped; i++) {
        const name = `c-${w}-${i}`;
        const res = await admin.post(CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { n: name } }).catch(() => undefined);
        tally.record('create', res, false);
        if (res?.status === 201) created.add(name);
        else if (res === undefined || res.status >= 500) createUnknown.add(name);
        await sleep(20);
      }
    };
    const incrementer = async (w: number): Promise<void> => {
      for (let i = 0; !stopped; i++) {
        const id = `op-${w}-${i}`;
        for (;;) {
          const got = await admin.get(`${CM}/${COUNTER}`).catch(() => undefined);
          tally.record('get counter', got, true);
          if (got?.status !== 200) {
            if (stopped) break;
            await sleep(50);
            continue;
          }
          const cm = got.body as { metadata: Record<string, unknown>; data: Record<string, string> };
          const put = await admin.put(`${CM}/${COUNTER}`, { ...cm, data: { ...cm.data, n: String(Number(cm.data.n) + 1), [id]: '1' } }).catch(() => undefined);
          tally.record('update counter', put, false);
          if (put?.status === 200) incAcked.add(id);
          else if (put?.status === 409) {
            conflicts++;
            continue;
          } else incUnknown.add(id);
          break;
        }
        await sleep(20);
      }
    };
    const reader = async (r: number): Promise<void> => {
      for (let i = 0; !stopped; i++) {
        const path = (r + i) % 2 === 0 ? `${CM}/${COUNTER}` : `${CM}?limit=20`;
        tally.record(`GET ${path}`, await admin.get(path).catch(() => undefined), true);
        await sleep(10);
      }
    };
    const started = Date.now();
    const loops = [
      ...Array.from({ length: 16 }, (_, w) => creator(w)),
      ...Array.from({ length: 8 }, (_, w) => incrementer(w)),
      ...Array.from({ length: 4 }, (_, r) => reader(r)),
    ];
    let leader: number | undefined;
    try {
      await sleep(KILL_AT_MS);
      leader = await leaderIndex(cluster);
      await cluster.kill(leader);
      await sleep(RESTART_AT_MS - (Date.now() - started));
      await cluster.restart(leader);
      await sleep(Math.max(0, STOP_AT_MS - (Date.now() - started)));
    } finally {
      stopped = true;
      await Promise.all(loops);
    }

    // etcd's own view, and the watch caught up with it.
    const etcd = newEtcdClient(cluster.endpoints);
    let stored: Map<string, string>;
    let counter: Record<string, string>;
    try {
      const res = await etcd.getAll().prefix(KEY_PREFIX).exec();
      stored = new Map(res.kvs.map((kv) => [kv.key.toString().slice(KEY_PREFIX.length), kv.mod_revision]));
      const cm = await admin.get(`${CM}/${COUNTER}`);
      expect(cm.status).to.equal(200);
      counter = (cm.body as { data: Record<string, string> }).data;
    } finally {
      etcd.close();
    }
    const lastRevision = Math.max(0, ...[...stored.values()].map(Number));
    for (let i = 0; i < 300 && Number(watch.resourceVersion) < lastRevision; i++) await sleep(100);
    await watch.stop();

    const unknownApplied = [...incUnknown].filter((id) => counter[id] === '1');
    process.stdout.write(
      `      member-loss drill: leader m${leader ?? '?'} killed at ${KILL_AT_MS} ms, restarted at ${RESTART_AT_MS} ms; ${tally.requests} requests ` +
        `(${tally.reads} reads, ${tally.failedReads.length} failed); ${created.size} creates acknowledged, ${createUnknown.size} answered 5xx; ` +
        `counter ${counter.n} = ${incAcked.size} acknowledged + ${unknownApplied.length} of ${incUnknown.size} "may have succeeded" increments, ${conflicts} conflicts; ` +
        `5xx by reason ${JSON.stringify(Object.fromEntries(tally.serverErrors))}; watch: ${watch.resumptions.length} resumption(s), ${watch.lists} list(s)\n`,
    );

    expect(tally.failedReads, 'reads not answered 200').to.deep.equal([]);
    expect(tally.bad5xx, '5xx answers without a Status and Retry-After').to.deep.equal([]);
    expect([...created].filter((name) => !stored.has(name)), 'acknowledged creates missing from etcd').to.deep.equal([]);
    expect([...incAcked].filter((id) => counter[id] !== '1'), 'acknowledged increments missing from the counter').to.deep.equal([]);
    expect(Number(counter.n)).to.equal(incAcked.size + unknownApplied.length);
    expect(Object.keys(counter).filter((k) => k.startsWith('op-')).length).to.equal(Number(counter.n));
    expect([...created].filter((name) => !watch.state.has(name)), 'acknowledged creates the watch did not see').to.deep.equal([]);
    expect(watch.duplicates, 'names ADDED twice').to.deep.equal([]);
    expect(watch.gaps, 'events for names never ADDED').to.deep.equal([]);
    expect(created.size).to.be.greaterThan(0);
    expect(incAcked.size).to.be.greaterThan(0);
  });
});
