import { expect } from 'chai';
import { fixedInformer, gauge } from '../../framework/apf-unit.js';
import type { Informer, InformerHandler } from '../../../lib/client/informer.js';
import { APFController } from '../../../lib/flowcontrol/controller.js';
import { APFMetrics } from '../../../lib/flowcontrol/metrics.js';
import { ObjectCounts } from '../../../lib/flowcontrol/work-estimator.js';
import { StabilityRegistry } from '../../../lib/metrics/registry.js';
import { requestInfoOf } from '../../../lib/request/request-info.js';

const level = (name: string) => ({
  metadata: { name, uid: `uid-${name}` },
  spec: { type: 'Limited', limited: { nominalConcurrencyShares: 50, lendablePercent: 50, limitResponse: { type: 'Queue', queuing: { queues: 8, handSize: 2, queueLengthLimit: 50 } } } },
});
const schema = (name: string, user: string) => ({
  metadata: { name, uid: `uid-${name}` },
  spec: {
    priorityLevelConfiguration: { name },
    matchingPrecedence: 100,
    distinguisherMethod: { type: 'ByUser' },
    rules: [{ subjects: [{ kind: 'User', user: { name: user } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }],
  },
});

/** A controller with no FlowSchema or PriorityLevelConfiguration objects (only the imagined mandatory ones). */
function unconfiguredController(): APFController {
  return new APFController({
    flowSchemas: fixedInformer([]),
    priorityLevels: fixedInformer([]),
    serverConcurrencyLimit: 10,
    metrics: new APFMetrics(new StabilityRegistry()),
    objectCounts: new ObjectCounts(),
    requestWaitLimitMs: 1000,
    onError: (err) => {
      throw err;
    },
  });
}

describe('flowcontrol controller', () => {
  // Levels busy and idle (50 shares, 50 % lendable, no borrowing limit) plus the imagined exempt
  // (0 shares) and catch-all (5 shares) under 100 seats: nominal ⌈100 × 50 / 105⌉ = 48, lendable 24,
  // bounds [24, 148]; catch-all 5, [5, 105]; exempt 0, [0, 0]; Σ nominal 101. The expected limits are
  // worked by hand through upstream's updateBorrowingLocked and computeConcurrencyAllocation.
  it('re-allocates the limits by seat demand statistics at the borrowing adjustment, as upstream', async () => {
    const registry = new StabilityRegistry();
    let t = 0;
    const ctl = new APFController({
      flowSchemas: fixedInformer([schema('busy', 'b'), schema('idle', 'i')]),
      priorityLevels: fixedInformer([level('busy'), level('idle')]),
      serverConcurrencyLimit: 100,
      metrics: new APFMetrics(registry),
      objectCounts: new ObjectCounts(),
      requestWaitLimitMs: 60_000,
      adjustPeriodMs: 3_600_000,
      now: () => t,
      onError: (err) => {
        throw err;
      },
    });
    const ac = new AbortController();
    await ctl.run(ac.signal);
    try {
      expect(await gauge(registry, 'apiserver_flowcontrol_nominal_limit_seats', 'busy')).to.equal(48);
      expect(await gauge(registry, 'apiserver_flowcontrol_lower_limit_seats', 'busy')).to.equal(24);
      expect(await gauge(registry, 'apiserver_flowcontrol_upper_limit_seats', 'busy')).to.equal(148);
      // No demand yet: lower bounds 24, 24, 5, 0 are the targets; f = 101 / 53 → 45.7 → 46, 46, 9.5 → 10, 0.
      expect(await gauge(registry, 'apiserver_flowcontrol_current_limit_seats', 'busy')).to.equal(46);
      expect(await gauge(registry, 'apiserver_flowcontrol_current_limit_seats', 'catch-all')).to.equal(10);
      expect(await gauge(registry, 'apiserver_flowcontrol_seat_fair_frac')).to.be.closeTo(101 / 53, 1e-9);
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let started = 0;
      const req = { user: { name: 'b', groups: [] }, info: requestInfoOf({ verb: 'get', path: '/x' }), query: new URLSearchParams() };
      const all = Array.from({ length: 60 }, () =>
        ctl.handle({ ...req, signal: new AbortController().signal }, () => undefined, async () => {
          started++;
          await gate;
        }),
      );
      await new Promise((r) => setImmediate(r));
      expect(started).to.equal(46);
      // 10 s at a demand of 60 (46 executing + 14 waiting): avg 60, stdDev 0, high watermark 60,
      // smoothed 60 → busy lower max(24, min(48, 60)) = 48, target 60; idle 24/24; catch-all 5/5.
      // f = 1 at idle's lower bound (sum 89), then (101 − 89) / 89 more: f = 101 / 89 →
      // busy 68.1 → 68, idle 27.2 → 27, catch-all 5.7 → 6.
      t = 10_000;
      ctl.adjust();
      await new Promise((r) => setImmediate(r));
      expect(started).to.equal(60);
      expect(await gauge(registry, 'apiserver_flowcontrol_demand_seats_high_watermark', 'busy')).to.equal(60);
      expect(await gauge(registry, 'apiserver_flowcontrol_demand_seats_average', 'busy')).to.equal(60);
      expect(await gauge(registry, 'apiserver_flowcontrol_demand_seats_stdev', 'busy')).to.equal(0);
      expect(await gauge(registry, 'apiserver_flowcontrol_demand_seats_smoothed', 'busy')).to.equal(60);
      expect(await gauge(registry, 'apiserver_flowcontrol_target_seats', 'busy')).to.equal(60);
      expect(await gauge(registry, 'apiserver_flowcontrol_target_seats', 'idle')).to.equal(24);
      expect(await gauge(registry, 'apiserver_flowcontrol_seat_fair_frac')).to.be.closeTo(101 / 89, 1e-9);
      expect(await gauge(registry, 'apiserver_flowcontrol_current_limit_seats', 'busy')).to.equal(68);
      expect(await gauge(registry, 'apiserver_flowcontrol_current_limit_seats', 'idle')).to.equal(27);
      expect(await gauge(registry, 'apiserver_flowcontrol_current_limit_seats', 'catch-all')).to.equal(6);
      release();
      await Promise.all(all);
      // The next period: 60 seats for 0 s then 0 for 10 s → avg 0, high watermark 60 (the period's start),
      // smoothed max(0, 0.977 × 60) = 58.62; busy keeps lower 48, target 58.62.
      t = 20_000;
      ctl.adjust();
      expect(await gauge(registry, 'apiserver_flowcontrol_demand_seats_smoothed', 'busy')).to.be.closeTo(0.977 * 60, 1e-9);
      expect(await gauge(registry, 'apiserver_flowcontrol_demand_seats_high_watermark', 'busy')).to.equal(60);
    } finally {
      ac.abort();
    }
  });

  it('holds the seats of a mutating request watched by many for its additional latency', async () => {
    const registry = new StabilityRegistry();
    const timers: { ms: number; fn: () => void }[] = [];
    const ctl = new APFController({
      flowSchemas: fixedInformer([schema('busy', 'b')]),
      priorityLevels: fixedInformer([level('busy')]),
      serverConcurrencyLimit: 100,
      metrics: new APFMetrics(registry),
      objectCounts: new ObjectCounts(),
      requestWaitLimitMs: 60_000,
      now: () => 0,
      after: (ms, fn) => timers.push({ ms, fn }),
      onError: (err) => {
        throw err;
      },
    });
    const watchInfo = requestInfoOf({ isResourceRequest: true, verb: 'watch', resource: 'configmaps', namespace: 'a' });
    for (let i = 0; i < 25; i++) ctl.watches.register(watchInfo, new URLSearchParams());
    const user = { name: 'b', groups: [] };
    const create = requestInfoOf({ isResourceRequest: true, verb: 'create', resource: 'configmaps', namespace: 'a', path: '/api/v1/namespaces/a/configmaps' });
    await ctl.handle({ user, info: create, query: new URLSearchParams(), signal: new AbortController().signal }, () => undefined, async () => undefined);
    // The schema matches non-resource requests only: the create falls to catch-all (Reject, maximum
    // 10 seats). 25 watchers → 3 final seats for 5 ms, still held after the request returned.
    expect(timers.map((x) => x.ms)).to.deep.equal([5]);
    const seats = async () => (await registry.registry.getSingleMetric('apiserver_flowcontrol_current_executing_seats')!.get()).values.find((v) => v.labels.priority_level === 'catch-all')?.value;
    expect(await seats()).to.equal(3);
    timers[0]!.fn();
    expect(await seats()).to.equal(0);
    const samples = await registry.registry.getSingleMetric('apiserver_flowcontrol_watch_count_samples')!.get();
    const sum = samples.values.find((v) => (v as { metricName?: string }).metricName === 'apiserver_flowcontrol_watch_count_samples_sum');
    expect(sum?.value).to.equal(25);
  });

  it('runs exempt requests at once whatever their number', async () => {
    const ctl = unconfiguredController();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let started = 0;
    const admin = { name: 'admin', groups: ['system:masters'] };
    const all = Array.from({ length: 30 }, () =>
      ctl.handle({ user: admin, info: requestInfoOf({ verb: 'get', path: '/x' }), query: new URLSearchParams(), signal: new AbortController().signal }, () => undefined, async () => {
        started++;
        await gate;
      }),
    );
    await new Promise((r) => setImmediate(r));
    expect(started).to.equal(30);
    release();
    await Promise.all(all);
  });

  it('classifies into the imagined mandatory levels before any object exists', async () => {
    const ctl = unconfiguredController();
    const info = requestInfoOf({ verb: 'get', path: '/x' });
    expect(ctl.classify({ name: 'admin', groups: ['system:masters'] }, info).level.name).to.equal('exempt');
    expect(ctl.classify({ name: 'alice', groups: ['system:authenticated'] }, info).level.name).to.equal('catch-all');
    expect(ctl.classify({ name: 'nobody', groups: [] }, info).schema.name).to.equal('catch-all');
  });
  // Upstream's config controller digests nothing before both caches have synced. A FlowSchema
  // event of the first list, digested before the levels are listed, would write Dangling=True on
  // every FlowSchema of a restarting server, then False again.
  it('writes no Dangling condition before both informers have listed', async () => {
    const writes: string[] = [];
    let onSchema: InformerHandler | undefined;
    let levels: object[] = [];
    let levelsListed!: () => void;
    const levelsSynced = new Promise<void>((resolve) => (levelsListed = resolve));
    const flowSchemas = {
      addHandler: (h: InformerHandler) => (onSchema = h),
      run: () => {
        onSchema!('ADDED', schema('busy', 'b'));
        return new Promise<void>(() => undefined);
      },
      waitForSync: () => Promise.resolve(),
      list: () => [schema('busy', 'b')],
    } as unknown as Informer;
    const priorityLevels = { addHandler: () => undefined, run: () => new Promise<void>(() => undefined), waitForSync: () => levelsSynced, list: () => levels } as unknown as Informer;
    const ctl = new APFController({
      flowSchemas,
      priorityLevels,
      serverConcurrencyLimit: 10,
      metrics: new APFMetrics(new StabilityRegistry()),
      objectCounts: new ObjectCounts(),
      requestWaitLimitMs: 1000,
      writeDangling: async (name, c) => void writes.push(`${name} ${c.status}`),
      onError: (err) => {
        throw err;
      },
    });
    const ac = new AbortController();
    const running = ctl.run(ac.signal);
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
    levels = [level('busy')];
    levelsListed();
    await running;
    ac.abort();
    expect(writes).to.deep.equal(['busy False']);
  });
});
