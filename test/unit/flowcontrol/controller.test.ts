import { expect } from 'chai';
import type { Obj } from '../../../lib/apis/define.js';
import type { Informer } from '../../../lib/client/informer.js';
import { APFController } from '../../../lib/flowcontrol/controller.js';
import { APFMetrics } from '../../../lib/flowcontrol/metrics.js';
import { ObjectCounts } from '../../../lib/flowcontrol/work-estimator.js';
import { StabilityRegistry } from '../../../lib/metrics/registry.js';
import { requestInfoOf } from '../../../lib/request/request-info.js';

/** An informer over fixed objects. */
function fixed(objects: Obj[]): Informer {
  return {
    addHandler: () => undefined,
    run: () => new Promise<void>(() => undefined),
    waitForSync: () => Promise.resolve(),
    list: () => objects,
  } as unknown as Informer;
}

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

async function gauge(r: StabilityRegistry, name: string, pl: string): Promise<number | undefined> {
  const m = await r.registry.getSingleMetric(name)!.get();
  return m.values.find((v) => v.labels.priority_level === pl)?.value;
}

describe('flowcontrol controller', () => {
  it('lends the seats of an idle level to a busy one at the borrowing adjustment', async () => {
    const registry = new StabilityRegistry();
    const ctl = new APFController({
      flowSchemas: fixed([schema('busy', 'b'), schema('idle', 'i')]),
      priorityLevels: fixed([level('busy'), level('idle')]),
      serverConcurrencyLimit: 100,
      metrics: new APFMetrics(registry),
      objectCounts: new ObjectCounts(),
      requestWaitLimitMs: 60_000,
      adjustPeriodMs: 3_600_000,
      onError: (err) => {
        throw err;
      },
    });
    const ac = new AbortController();
    await ctl.run(ac.signal);
    try {
      expect(await gauge(registry, 'apiserver_flowcontrol_nominal_limit_seats', 'busy')).to.equal(48);
      expect(await gauge(registry, 'apiserver_flowcontrol_current_limit_seats', 'busy')).to.equal(48);
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
      expect(started).to.equal(48);
      ctl.adjust();
      await new Promise((r) => setImmediate(r));
      expect(started).to.equal(60);
      expect(await gauge(registry, 'apiserver_flowcontrol_current_limit_seats', 'busy')).to.equal(68);
      expect(await gauge(registry, 'apiserver_flowcontrol_current_limit_seats', 'idle')).to.equal(27);
      release();
      await Promise.all(all);
    } finally {
      ac.abort();
    }
  });

  it('classifies into the imagined mandatory levels before any object exists', async () => {
    const ctl = new APFController({
      flowSchemas: fixed([]),
      priorityLevels: fixed([]),
      serverConcurrencyLimit: 10,
      metrics: new APFMetrics(new StabilityRegistry()),
      objectCounts: new ObjectCounts(),
      requestWaitLimitMs: 1000,
      onError: (err) => {
        throw err;
      },
    });
    const info = requestInfoOf({ verb: 'get', path: '/x' });
    expect(ctl.classify({ name: 'admin', groups: ['system:masters'] }, info).level.name).to.equal('exempt');
    expect(ctl.classify({ name: 'alice', groups: ['system:authenticated'] }, info).level.name).to.equal('catch-all');
    expect(ctl.classify({ name: 'nobody', groups: [] }, info).schema.name).to.equal('catch-all');
  });
});
