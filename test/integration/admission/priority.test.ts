import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { vendorGroup } from '../../../lib/apis/vendor.js';
import { useTestServer } from '../../framework/test-server.js';

const NS = 'default';
const PODS = `/api/v1/namespaces/${NS}/pods`;
const SCHEDULING = vendorGroup('scheduling');
const CLASSES = `/apis/${SCHEDULING}/v1/priorityclasses`;
const pod = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec },
});
const priorityClass = (name: string, value: number, extra: Record<string, unknown> = {}) => ({
  apiVersion: `${SCHEDULING}/v1`,
  kind: 'PriorityClass',
  metadata: { name },
  value,
  ...extra,
});

describe('Priority admission against a real server (spec 001 § Admission control)', () => {
  const server = useTestServer({ admission: { plugins: ['NamespaceLifecycle', 'Priority'] } });

  before(async () => {
    for (const pc of [priorityClass('high', 1000), priorityClass('gentle', 500, { preemptionPolicy: 'Never' })]) {
      const res = await server().admin.post(CLASSES, pc);
      expect(res.status, res.text).to.equal(201);
    }
  });

  it('gives a pod naming no class priority 0 and PreemptLowerPriority while there is no default class', async () => {
    const res = await server().admin.post(PODS, pod('p0'));
    expect(res.status, res.text).to.equal(201);
    expect(res.body.spec.priority).to.equal(0);
    expect(res.body.spec.preemptionPolicy).to.equal('PreemptLowerPriority');
    expect(res.body.spec.priorityClassName).to.equal(undefined);
  });

  it('resolves a named class, just created, to its value and preemption policy', async () => {
    const res = await server().admin.post(PODS, pod('p1', { priorityClassName: 'gentle' }));
    expect(res.status, res.text).to.equal(201);
    expect(res.body.spec).to.deep.include({ priorityClassName: 'gentle', priority: 500, preemptionPolicy: 'Never' });
  });

  it('resolves the system classes the server creates at start', async () => {
    const res = await server().admin.post(PODS, pod('p2', { priorityClassName: 'system-node-critical' }));
    expect(res.status, res.text).to.equal(201);
    expect(res.body.spec.priority).to.equal(2000001000);
  });

  it('rejects an unknown class, also on dry run', async () => {
    for (const q of ['', '?dryRun=All']) {
      const res = await server().admin.post(`${PODS}${q}`, pod('p3', { priorityClassName: 'nope' }));
      expect(res.status, res.text).to.equal(403);
      expect(res.body).to.deep.include({ reason: 'Forbidden', message: 'pods "p3" is forbidden: no PriorityClass with name nope was found' });
      expect(res.body.details).to.deep.equal({ name: 'p3', kind: 'pods' });
    }
    const generated = await server().admin.post(PODS, { ...pod(''), metadata: { generateName: 'gen-' }, spec: { ...pod('').spec, priorityClassName: 'nope' } });
    expect(generated.status, generated.text).to.equal(403);
    expect(generated.body.message).to.equal('pods "gen-" is forbidden: no PriorityClass with name nope was found');
  });

  it('rejects a priority or preemption policy that differs from the class’s', async () => {
    const priority = await server().admin.post(PODS, pod('p4', { priorityClassName: 'high', priority: 7 }));
    expect(priority.status, priority.text).to.equal(403);
    expect(priority.body.message).to.equal(
      'pods "p4" is forbidden: the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name',
    );
    const policy = await server().admin.post(PODS, pod('p4', { priorityClassName: 'gentle', preemptionPolicy: 'PreemptLowerPriority' }));
    expect(policy.status, policy.text).to.equal(403);
    expect(policy.body.message).to.equal(
      'pods "p4" is forbidden: the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided in pod spec; priority admission controller computed Never from the given PriorityClass name',
    );
    const equal = await server().admin.post(PODS, pod('p4', { priorityClassName: 'high', priority: 1000 }));
    expect(equal.status, equal.text).to.equal(201);
  });

  it('keeps the stored priority on an update that omits it', async () => {
    const created = await server().admin.post(PODS, pod('p5', { priorityClassName: 'high' }));
    expect(created.status, created.text).to.equal(201);
    const body = structuredClone(created.body);
    delete body.spec.priority;
    delete body.spec.preemptionPolicy;
    body.metadata.labels = { touched: 'yes' };
    const res = await server().admin.put(`${PODS}/p5`, body);
    expect(res.status, res.text).to.equal(200);
    expect(res.body.spec).to.deep.include({ priority: 1000, preemptionPolicy: 'PreemptLowerPriority' });
  });

  describe('with a global default class', () => {
    before(async () => {
      const res = await server().admin.post(CLASSES, priorityClass('fallback', 42, { globalDefault: true }));
      expect(res.status, res.text).to.equal(201);
    });

    it('gives it to pods naming no class', async () => {
      let spec: Record<string, unknown> = {};
      for (let i = 0; i < 100 && spec.priorityClassName !== 'fallback'; i++) {
        if (i > 0) await sleep(50);
        const res = await server().admin.post(`${PODS}?dryRun=All`, pod('p6'));
        expect(res.status, res.text).to.equal(201);
        spec = res.body.spec;
      }
      expect(spec).to.deep.include({ priorityClassName: 'fallback', priority: 42, preemptionPolicy: 'PreemptLowerPriority' });
    });

    it('rejects a second default class, and making another class the default', async () => {
      const second = await server().admin.post(CLASSES, priorityClass('another', 1, { globalDefault: true }));
      expect(second.status, second.text).to.equal(403);
      expect(second.body).to.deep.include({
        reason: 'Forbidden',
        message: `priorityclasses.${SCHEDULING} "another" is forbidden: PriorityClass fallback is already marked as default. Only one default can exist`,
      });
      const high = (await server().admin.get(`${CLASSES}/high`)).body;
      const update = await server().admin.put(`${CLASSES}/high`, { ...high, globalDefault: true });
      expect(update.status, update.text).to.equal(403);
      expect(update.body.message).to.match(/"high" is forbidden: PriorityClass fallback is already marked as default/);
    });

    it('lets the default class itself be updated', async () => {
      const current = (await server().admin.get(`${CLASSES}/fallback`)).body;
      const res = await server().admin.put(`${CLASSES}/fallback`, { ...current, description: 'the default' });
      expect(res.status, res.text).to.equal(200);
    });
  });
});
