/**
 * The HA drill (issue #16 § Quality bars): a 3-member etcd and 2 server processes listing all
 * three members; under a steady ConfigMap create load through both replicas, one replica is
 * SIGKILLed and then the etcd leader. A list+watch client failing over between the replicas must
 * end with exactly the objects in etcd (names and resourceVersions), every acknowledged create
 * must be there, the watch must have delivered each ADDED once, and the controllers' leader
 * Lease must be renewed by the surviving replica once the dead one's term expired. It prints the
 * figures: watch resumption time, failed writes and reads by status, the Lease renewal.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { COORDINATION_GROUP } from '../../../lib/apis/coordination/v1/lease.js';
import { CONTROLLER_MANAGER_LEASE_NAME, SYSTEM_NAMESPACE } from '../../../lib/apis/vendor.js';
import { ensureServingPKI } from '../../../lib/server/pki/serving-pki.js';
import { newEtcdClient } from '../../../lib/storage/etcd3/client.js';
import type { TestClient } from '../../framework/client.js';
import { type EtcdCluster, startEtcdCluster } from '../../framework/etcd-cluster.js';
import { FailoverWatch } from '../../framework/failover-watch.js';
import { type ServerProcess, startServerProcess } from '../../framework/server-process.js';

const execFileAsync = promisify(execFile);
const COLLECTION = '/api/v1/namespaces/default/configmaps';
const KEY_PREFIX = '/registry/core/configmaps/default/';

/** Index of the member that leads the cluster, from `etcdctl endpoint status`. */
async function leaderIndex(cluster: EtcdCluster): Promise<number> {
  const { stdout } = await execFileAsync('etcdctl', [`--endpoints=${cluster.endpoints.join(',')}`, 'endpoint', 'status', '-w', 'json'], { env: { ...process.env, ETCDCTL_API: '3' } });
  const status = JSON.parse(stdout) as Array<{ Endpoint: string; Status: { header: { member_id: number | string }; leader: number | string } }>;
  const leader = status.find((s) => String(s.Status.header.member_id) === String(s.Status.leader));
  return Math.max(0, cluster.endpoints.indexOf(leader?.Endpoint ?? ''));
}

/**
 * Waits until the controllers' leader-election Lease, read through `client`, was renewed later
 * than `killedAt` + its lease duration: whoever held it at the kill, a live replica holds it now.
 * Resolves with the holder and the time of that renewal; rejects after `timeoutMs`.
 */
async function leaderAfterKill(client: TestClient, killedAt: number, timeoutMs: number): Promise<{ holder: string; renewedAfterKillMs: number }> {
  const url = `/apis/${COORDINATION_GROUP}/v1/namespaces/${SYSTEM_NAMESPACE}/leases/${CONTROLLER_MANAGER_LEASE_NAME}`;
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    const res = await client.get(url).catch(() => undefined);
    last = res ? `${res.status} ${res.text.slice(0, 300)}` : 'no answer';
    if (res?.status === 200) {
      const spec = res.body.spec as { holderIdentity?: string; renewTime?: string; leaseDurationSeconds?: number };
      const renewed = Date.parse(spec.renewTime ?? '');
      if (spec.holderIdentity && renewed > killedAt + (spec.leaseDurationSeconds ?? 15) * 1000) {
        return { holder: spec.holderIdentity, renewedAfterKillMs: renewed - killedAt };
      }
    }
    await sleep(500);
  }
  throw new Error(`the leader-election Lease was not renewed by a live replica within ${timeoutMs} ms; last read: ${last}`);
}

/** Creates ConfigMaps through the replicas in turn until stopped; records which creates were acknowledged. */
class WriteLoad {
  readonly acknowledged = new Set<string>();
  /** Creates that got no answer (the replica was down), and answers other than 201, by status. */
  unanswered = 0;
  readonly failures = new Map<number, number>();
  private n = 0;
  private stopped = false;
  private readonly loops: Promise<void>[] = [];

  constructor(private readonly replicas: TestClient[]) {}

  start(workers: number): void {
    for (let w = 0; w < workers; w++) this.loops.push(this.run(w));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.loops);
  }

  private async run(worker: number): Promise<void> {
    let replica = worker % this.replicas.length;
    while (!this.stopped) {
      const name = `load-${worker}-${this.n++}`;
      const res = await this.replicas[replica]!.post(COLLECTION, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { n: name } }).catch(() => undefined);
      if (res?.status === 201) this.acknowledged.add(name);
      else if (res === undefined) this.unanswered++;
      else this.failures.set(res.status, (this.failures.get(res.status) ?? 0) + 1);
      replica = (replica + 1) % this.replicas.length;
      await sleep(res === undefined ? 50 : 10);
    }
  }
}

/** Reads the collection through `client` until stopped; counts answers other than 200. */
class ReadProbe {
  ok = 0;
  /** Answers other than 200 (0: no answer), by status. */
  readonly errors = new Map<number, number>();
  private stopped = false;
  private loop: Promise<void> | undefined;

  constructor(private readonly client: TestClient) {}

  start(): void {
    this.loop = (async () => {
      while (!this.stopped) {
        const res = await this.client.get(`${COLLECTION}?limit=1`).catch(() => undefined);
        const status = res?.status ?? 0;
        if (status === 200) this.ok++;
        else this.errors.set(status, (this.errors.get(status) ?? 0) + 1);
        await sleep(20);
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
  }
}

describe('HA drill: 3 etcd members, 2 replicas, a replica and the etcd leader killed under load', function () {
  this.timeout(180_000);
  let dir: string;
  let cluster: EtcdCluster | undefined;
  const replicas: ServerProcess[] = [];

  before(async function () {
    dir = await mkdtemp(path.join(os.tmpdir(), 'ha-drill-'));
    const certDir = path.join(dir, 'pki');
    await ensureServingPKI({ certDir });
    cluster = await startEtcdCluster({ members: 3 });
    const args = [`--etcd-servers=${cluster.endpoints.join(',')}`, `--cert-dir=${certDir}`, '--bind-address=127.0.0.1'];
    // One after the other: the first creates the system objects, the second finds them.
    replicas.push(await startServerProcess(args, path.join(dir, 'r0')));
    replicas.push(await startServerProcess(args, path.join(dir, 'r1')));
  });

  after(async function () {
    await Promise.all(replicas.map((r) => r.stop().catch(() => null)));
    await cluster?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('ends with the client view equal to etcd, no acknowledged write lost, each ADDED once', async function () {
    const clients = replicas.map((r) => r.admin);
    // The watch starts on replica 1, the one to be killed: it must fail over to replica 0.
    const watch = new FailoverWatch(clients, COLLECTION, 1);
    await watch.start();
    const load = new WriteLoad(clients);
    load.start(2);
    await sleep(4_000);

    const replicaKilledAt = Date.now();
    process.kill(replicas[1]!.pid, 'SIGKILL');
    await sleep(4_000);

    const reads = new ReadProbe(clients[0]!);
    reads.start();
    await cluster!.kill(await leaderIndex(cluster!));
    await sleep(6_000);
    await reads.stop();
    await load.stop();
    const leader = await leaderAfterKill(clients[0]!, replicaKilledAt, 40_000);

    // etcd's own view, through the surviving members.
    const etcd = newEtcdClient(cluster!.endpoints);
    let stored: Map<string, string>;
    try {
      const res = await etcd.getAll().prefix(KEY_PREFIX).exec();
      stored = new Map(res.kvs.map((kv) => [kv.key.toString().slice(KEY_PREFIX.length), kv.mod_revision]));
    } finally {
      etcd.close();
    }
    const lastRevision = Math.max(0, ...[...stored.values()].map(Number));
    for (let i = 0; i < 300 && Number(watch.resourceVersion) < lastRevision; i++) await sleep(100);
    await watch.stop();

    const resumption = watch.resumptions.find((r) => r.brokenAt >= replicaKilledAt);
    process.stdout.write(
      `      drill: ${load.acknowledged.size} writes acknowledged, ${load.unanswered} unanswered (replica down), failed by status ${JSON.stringify(Object.fromEntries(load.failures))}; ` +
        `watch resumed ${resumption ? `${resumption.brokenAt - replicaKilledAt + resumption.resumedAfterMs} ms after the kill (break seen after ${resumption.brokenAt - replicaKilledAt} ms, reopened ${resumption.resumedAfterMs} ms later)` : 'never'}; ` +
        `${watch.lists} list(s); reads during the etcd member kill: ${reads.ok} ok, errors by status ${JSON.stringify(Object.fromEntries(reads.errors))}; ` +
        `leader Lease held by ${leader.holder}, renewed ${leader.renewedAfterKillMs} ms after the replica kill\n`,
    );

    expect(resumption, 'the watch resumed on the other replica').to.not.equal(undefined);
    expect(resumption!.replica).to.equal(0);
    const lost = [...load.acknowledged].filter((name) => !stored.has(name));
    expect(lost, 'acknowledged writes missing from etcd').to.deep.equal([]);
    expect(watch.duplicates, 'names ADDED twice').to.deep.equal([]);
    expect(watch.gaps, 'events for names never ADDED').to.deep.equal([]);
    expect(Object.fromEntries([...watch.state].sort())).to.deep.equal(Object.fromEntries([...stored].sort()));
    expect(load.acknowledged.size).to.be.greaterThan(0);
  });
});
