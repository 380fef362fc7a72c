/**
 * The leader-election library (issue #16 item 1) against the real Lease store over the run's etcd:
 * two electors contend and exactly one leads; a stopped leader is replaced once its lease expires
 * (or at once when it releases); a leader that cannot renew stops its work; `leaseTransitions`
 * counts holders; the lock never overwrites a version it did not read.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { isReason } from '../../../lib/apimachinery/errors.js';
import { formatMicroTime } from '../../../lib/apimachinery/schema/decode.js';
import type { Obj } from '../../../lib/apis/define.js';
import { LeaderElector } from '../../../lib/controllers/leaderelection/elector.js';
import { LeaseLock } from '../../../lib/controllers/leaderelection/lease-lock.js';
import { newResourceStorage } from '../../../lib/registry/generic/resource-storage.js';
import type { Store } from '../../../lib/registry/generic/store.js';
import { leaseStrategy } from '../../../lib/registry/simple-strategies.js';
import { internalContext } from '../../../lib/request/context.js';
import { newEtcdClient } from '../../../lib/storage/etcd3/client.js';
import { Etcd3Storage } from '../../../lib/storage/etcd3/store.js';
import { useEtcd } from '../../framework/etcd.js';

const NS = 'orch-system';
const ctx = internalContext({ name: 'test', groups: ['system:masters'] });
/** Short timings: a 2 s lease, 1.5 s renew deadline, 200 ms retry period. */
const TIMINGS = { leaseDurationMs: 2000, renewDeadlineMs: 1500, retryPeriodMs: 200 };

async function eventually(fn: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await fn()) return;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** One candidate: its elector, whether it leads, its terms' signals. */
interface Candidate {
  id: string;
  elector: LeaderElector;
  leading: boolean;
  terms: AbortSignal[];
  stops: number;
  stop: AbortController;
  done: Promise<void>;
}

describe('leader election over Leases (issue #16 item 1)', function () {
  this.timeout(30_000);
  let client: ReturnType<typeof newEtcdClient>;
  let leases: Store;
  let name: string;
  let candidates: Candidate[] = [];
  let maxLeaders = 0;

  before(async () => {
    const { endpoint } = await useEtcd();
    client = newEtcdClient([endpoint]);
    leases = newResourceStorage(() => new Etcd3Storage(client), `/${randomUUID()}/registry`, leaseStrategy).store;
  });
  after(() => client.close());
  beforeEach(() => {
    name = `lock-${randomUUID().slice(0, 8)}`;
    candidates = [];
    maxLeaders = 0;
  });
  afterEach(async () => {
    for (const c of candidates) c.stop.abort();
    await Promise.all(candidates.map((c) => c.done));
  });

  const lease = () => leases.get(ctx, NS, name);
  const spec = async () => (await lease()).spec as Obj;

  function candidate(id: string, releaseOnCancel = false): Candidate {
    const stop = new AbortController();
    const c = { id, leading: false, terms: [] as AbortSignal[], stops: 0, stop } as Candidate;
    c.elector = new LeaderElector({
      lock: new LeaseLock({ leases, namespace: NS, name, identity: id, ctx }),
      ...TIMINGS,
      releaseOnCancel,
      callbacks: {
        onStartedLeading(signal) {
          c.leading = true;
          c.terms.push(signal);
          maxLeaders = Math.max(maxLeaders, candidates.filter((x) => x.leading).length);
        },
        onStoppedLeading() {
          c.leading = false;
          c.stops++;
        },
      },
    });
    c.done = c.elector.run(stop.signal);
    candidates.push(c);
    return c;
  }

  it('two contending electors: exactly one leads, and the Lease names it', async () => {
    const a = candidate('a');
    const b = candidate('b');
    await eventually(() => a.leading || b.leading, 5_000, 'a leader');
    // Several renewals and retry periods pass: the follower never starts leading.
    await sleep(TIMINGS.leaseDurationMs);
    expect(maxLeaders).to.equal(1);
    const leader = a.leading ? a : b;
    const follower = leader === a ? b : a;
    expect(follower.terms).to.have.length(0);
    expect(follower.elector.isLeader()).to.equal(false);
    expect(follower.elector.getLeader()).to.equal(leader.id);
    const s = await spec();
    expect(s).to.include({ holderIdentity: leader.id, leaseDurationSeconds: 2, leaseTransitions: 0 });
    expect(Date.parse(s.renewTime as string)).to.be.greaterThan(Date.parse(s.acquireTime as string));
  });

  it("a stopped leader's lease expires and the other candidate takes over; leaseTransitions increments, acquireTime moves", async () => {
    const a = candidate('a');
    await eventually(() => a.leading, 5_000, 'a to lead');
    const b = candidate('b');
    const first = await spec();
    a.stop.abort();
    await a.done;
    expect(a.terms[0]!.aborted).to.equal(true);
    expect(a.stops).to.equal(1);
    await eventually(() => b.leading, TIMINGS.leaseDurationMs + 3 * TIMINGS.retryPeriodMs * 2.2 + 1000, 'b to lead');
    const second = await spec();
    expect(second).to.include({ holderIdentity: 'b', leaseTransitions: 1 });
    expect(second.acquireTime).to.not.equal(first.acquireTime);
    expect(maxLeaders).to.equal(1);
  });

  it('a leader that releases on stop hands over at once (empty holder, 1 s lease)', async () => {
    const a = candidate('a', true);
    await eventually(() => a.leading, 5_000, 'a to lead');
    a.stop.abort();
    await a.done;
    expect(await spec()).to.include({ holderIdentity: '', leaseDurationSeconds: 1 });
    const b = candidate('b');
    await eventually(() => b.leading, 2_000, 'b to lead');
    expect(await spec()).to.include({ holderIdentity: 'b', leaseTransitions: 1 });
  });

  it("a leader whose renewals fail stops its work, then leads again once the intruder's lease expires", async () => {
    const a = candidate('a');
    await eventually(() => a.leading, 5_000, 'a to lead');
    const term = a.terms[0]!;
    // Another holder takes the Lease behind the elector's back and never renews it.
    await leases.update(ctx, NS, name, async (cur) => ({ ...cur!, spec: { ...(cur!.spec as Obj), holderIdentity: 'intruder', renewTime: formatMicroTime(new Date()), leaseTransitions: 7 } }));
    await eventually(() => term.aborted, TIMINGS.renewDeadlineMs + 2_000, 'the term to end');
    expect(a.stops).to.equal(1);
    expect(a.elector.getLeader()).to.equal('intruder');
    await eventually(() => a.leading, TIMINGS.leaseDurationMs + 3_000, 'a to lead again');
    expect(a.terms).to.have.length(2);
    expect(a.terms[1]!.aborted).to.equal(false);
    expect(await spec()).to.include({ holderIdentity: 'a', leaseTransitions: 8 });
  });

  it('the lock writes only over the version it read: a stale update is a Conflict', async () => {
    const one = new LeaseLock({ leases, namespace: NS, name, identity: 'one', ctx });
    const two = new LeaseLock({ leases, namespace: NS, name, identity: 'two', ctx });
    const record = { holderIdentity: 'one', leaseDurationSeconds: 15, leaderTransitions: 0 };
    const uninitialized = await one.update(record).then(() => undefined, (e: unknown) => e);
    expect(String(uninitialized)).to.equal('Error: lease not initialized, call get or create first');
    await one.create(record);
    expect((await two.get()).record).to.deep.equal(record);
    await one.update({ ...record, leaseDurationSeconds: 20 });
    const err = await two.update({ ...record, holderIdentity: 'two' }).then(() => undefined, (e: unknown) => e);
    expect(isReason(err, 'Conflict'), String(err)).to.equal(true);
    expect(await spec()).to.include({ holderIdentity: 'one', leaseDurationSeconds: 20 });
  });

  it("client-go's configuration checks", () => {
    const lock = new LeaseLock({ leases, namespace: NS, name, identity: 'x', ctx });
    const cb = { onStartedLeading: () => undefined, onStoppedLeading: () => undefined };
    const make = (t: Partial<typeof TIMINGS>, identity = 'x') =>
      () => new LeaderElector({ lock: identity === 'x' ? lock : new LeaseLock({ leases, namespace: NS, name, identity, ctx }), ...TIMINGS, ...t, callbacks: cb });
    expect(make({ leaseDurationMs: 1500 })).to.throw('leaseDuration must be greater than renewDeadline');
    expect(make({ retryPeriodMs: 1300 })).to.throw('renewDeadline must be greater than retryPeriod*JitterFactor');
    expect(make({ retryPeriodMs: 0 })).to.throw('retryPeriod must be greater than zero');
    expect(make({}, '')).to.throw('Lock identity is empty');
  });
});
