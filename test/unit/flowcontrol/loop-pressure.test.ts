import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Obj } from '../../../lib/apis/define.js';
import { suggestedFlowSchemas, suggestedPriorityLevels } from '../../../lib/apis/flowcontrol/v1/index.js';
import { fixedInformer, gauge } from '../../framework/apf-unit.js';
import { APFController } from '../../../lib/flowcontrol/controller.js';
import { DEFAULT_SHED_LEVELS, eventLoopDelaySampler, LoopPressure, PRESSURE_FALL, PRESSURE_RISE } from '../../../lib/flowcontrol/loop-pressure.js';
import { APFMetrics } from '../../../lib/flowcontrol/metrics.js';
import { ObjectCounts } from '../../../lib/flowcontrol/work-estimator.js';
import { StabilityRegistry } from '../../../lib/metrics/registry.js';
import { requestInfoOf } from '../../../lib/request/request-info.js';
import { AUTHENTICATED_GROUP } from '../../../lib/request/user.js';
import { NODES_GROUP } from '../../../lib/request/node-identity.js';
import { COORDINATION_GROUP } from '../../../lib/apis/coordination/v1/lease.js';

describe('flowcontrol loop pressure', () => {
  it('rises by a step per period at or over the limit, falls slowly below half of it, holds between', () => {
    const p = new LoopPressure(100, 3);
    expect(p.update(100)).to.equal(PRESSURE_RISE);
    expect(p.update(400)).to.equal(2 * PRESSURE_RISE);
    expect(p.update(60)).to.equal(2 * PRESSURE_RISE);
    expect(p.update(49)).to.be.closeTo(2 * PRESSURE_RISE - PRESSURE_FALL, 1e-9);
    for (let i = 0; i < 20; i++) p.update(1000);
    expect(p.value).to.equal(3);
    for (let i = 0; i < 1000; i++) p.update(0);
    expect(p.value).to.equal(0);
  });

  it('keeps the whole limit below the pressure, none of it above, a fraction in between', () => {
    const p = new LoopPressure(100, 6);
    for (let i = 0; i < 6; i++) p.update(100);
    expect(p.value).to.equal(1.5);
    expect(p.fraction(0)).to.equal(0);
    expect(p.fraction(1)).to.equal(0.5);
    expect(p.fraction(2)).to.equal(1);
    p.setMaxLevels(1);
    expect(p.value).to.equal(1);
  });

  it("measures the event loop's delay as a timer's lateness, a busy stretch included", async () => {
    const sampler = eventLoopDelaySampler();
    try {
      await sleep(50);
      expect(sampler.sample()).to.be.below(20);
      const end = Date.now() + 150;
      while (Date.now() < end);
      await sleep(15);
      expect(sampler.sample()).to.be.above(40);
    } finally {
      sampler.stop();
    }
  });

  /** A controller over upstream's suggested configuration, its pressure driven by the test. */
  async function suggested(shedLevels: readonly string[]) {
    const registry = new StabilityRegistry();
    const ctl = new APFController({
      flowSchemas: fixedInformer(suggestedFlowSchemas() as unknown as Obj[]),
      priorityLevels: fixedInformer(suggestedPriorityLevels() as unknown as Obj[]),
      serverConcurrencyLimit: 600,
      metrics: new APFMetrics(registry),
      objectCounts: new ObjectCounts(),
      requestWaitLimitMs: 60_000,
      adjustPeriodMs: 3_600_000,
      loopPressure: { limitMs: 100, shedLevels, startSampler: () => ({ sample: () => 0, stop: () => undefined }), periodMs: 3_600_000 },
      onError: (err) => {
        throw err;
      },
    });
    const ac = new AbortController();
    await ctl.run(ac.signal);
    return { ctl, registry, stop: () => ac.abort() };
  }

  const request = (user: { name: string; groups: string[] }, info: ReturnType<typeof requestInfoOf>) => ({ user, info, query: new URLSearchParams(), signal: new AbortController().signal });
  const alice = { name: 'alice', groups: [AUTHENTICATED_GROUP] };
  const get = requestInfoOf({ isResourceRequest: true, verb: 'get', resource: 'configmaps', namespace: 'a', name: 'x', path: '/api/v1/namespaces/a/configmaps/x' });
  const node = { name: 'system:node:n1', groups: [NODES_GROUP, AUTHENTICATED_GROUP] };
  const lease = requestInfoOf({ isResourceRequest: true, verb: 'update', apiGroup: COORDINATION_GROUP, resource: 'leases', namespace: 'kube-node-lease', name: 'n1' });

  it('sheds the listed levels in order, queuing their new requests, while node-high runs; they run as the pressure falls', async () => {
    const { ctl, registry, stop } = await suggested(DEFAULT_SHED_LEVELS);
    try {
      const full = await gauge(registry, 'apiserver_flowcontrol_current_limit_seats', 'global-default');
      expect(full).to.be.above(1);
      for (let i = 0; i < 8; i++) ctl.notePressure(150);
      expect(ctl.loopPressure).to.equal(2);
      expect(await gauge(registry, 'apiserver_flowcontrol_event_loop_pressure')).to.equal(2);
      expect(await gauge(registry, 'apiserver_flowcontrol_current_limit_seats', 'catch-all')).to.equal(0);
      expect(await gauge(registry, 'apiserver_flowcontrol_current_limit_seats', 'global-default')).to.equal(0);
      expect(await gauge(registry, 'apiserver_flowcontrol_current_limit_seats', 'workload-low')).to.be.above(1);

      let ran = 0;
      let aliceRan = false;
      const queued = ctl.handle(request(alice, get), () => undefined, async () => void (aliceRan = true));
      await sleep(5);
      expect(aliceRan, 'a request of a shed level waits').to.equal(false);
      expect(await gauge(registry, 'apiserver_flowcontrol_current_inqueue_requests', 'global-default')).to.equal(1);
      expect(ctl.classify(node, lease).level.name).to.equal('node-high');
      await ctl.handle(request(node, lease), () => undefined, async () => void ran++);
      expect(ran).to.equal(1);
      expect(aliceRan).to.equal(false);

      // Down to 1.95: global-default keeps 5% of its limit (at least one seat), and the queued request runs.
      ctl.notePressure(0);
      await queued;
      expect(aliceRan).to.equal(true);
      for (let i = 0; i < 19; i++) ctl.notePressure(0);
      expect(ctl.loopPressure).to.be.closeTo(1, 1e-9);
      expect(await gauge(registry, 'apiserver_flowcontrol_current_limit_seats', 'global-default')).to.equal(full);
      await ctl.handle(request(alice, get), () => undefined, async () => void ran++);
      expect(ran).to.equal(2);
    } finally {
      stop();
    }
  });

  it('never sheds a level left out of the list, an exempt one or an unknown name: the pressure stops at the levels it may shed', async () => {
    const { ctl, registry, stop } = await suggested(['no-such-level', 'exempt', 'global-default']);
    try {
      for (let i = 0; i < 40; i++) ctl.notePressure(1000);
      expect(ctl.loopPressure).to.equal(1);
      expect(await gauge(registry, 'apiserver_flowcontrol_current_limit_seats', 'global-default')).to.equal(0);
      expect(await gauge(registry, 'apiserver_flowcontrol_current_limit_seats', 'catch-all')).to.be.above(0);
    } finally {
      stop();
    }
  });
});
