import { expect } from 'chai';
import { useTestServer } from '../../framework/test-server.js';

const NS = '/api/v1/namespaces/default';
const PODS = `${NS}/pods`;
const PDBS = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';
const MERGE = 'application/merge-patch+json';
const STRATEGIC = 'application/strategic-merge-patch+json';

const podBody = (name: string, labels: Record<string, string> = { app: 'web' }) => ({
  metadata: { name, labels },
  spec: { containers: [{ name: 'c', image: 'nginx' }] },
});

describe('pod subresources (upstream pod registry; issue #12 item 1)', () => {
  const server = useTestServer();
  const admin = () => server().admin;
  const createPod = async (name: string, labels?: Record<string, string>) => {
    const res = await admin().post(PODS, podBody(name, labels));
    expect(res.status, res.text).to.equal(201);
    return res.body;
  };
  /** Marks a pod Running (and Ready when `ready`) through the status subresource. */
  const run = async (name: string, ready: boolean) => {
    const conditions = [{ type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: '2024-05-01T10:00:00Z' }];
    const res = await admin().patch(`${PODS}/${name}/status`, { status: { phase: 'Running', conditions } }, MERGE);
    expect(res.status, res.text).to.equal(200);
  };
  const createBudget = async (name: string, spec: object, status?: object) => {
    const res = await admin().post(PDBS, { metadata: { name }, spec });
    expect(res.status, res.text).to.equal(201);
    if (!status) return res.body;
    const st = await admin().put(`${PDBS}/${name}/status`, { ...res.body, status: { observedGeneration: 1, ...status } });
    expect(st.status, st.text).to.equal(200);
    return st.body;
  };
  const evict = (name: string, extra: object = {}) =>
    admin().post(`${PODS}/${name}/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name }, ...extra });

  describe('binding', () => {
    it('binds an unassigned pod: nodeName, the binding annotations and PodScheduled=True; answers 201 Success', async () => {
      await createPod('b1');
      const res = await admin().post(`${PODS}/b1/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'b1', annotations: { note: 'x' } }, target: { kind: 'Node', name: 'node-1' } });
      expect(res.status, res.text).to.equal(201);
      expect(res.body).to.deep.equal({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
      const pod = (await admin().get(`${PODS}/b1`)).body;
      expect(pod.spec.nodeName).to.equal('node-1');
      expect(pod.metadata.annotations).to.deep.equal({ note: 'x' });
      expect(pod.status.conditions.find((c: { type: string }) => c.type === 'PodScheduled')).to.include({ status: 'True' });
    });

    it('refuses to bind an assigned pod with 409 as upstream', async () => {
      await createPod('b2');
      const bind = () => admin().post(`${PODS}/b2/binding`, { metadata: { name: 'b2' }, target: { name: 'node-1' } });
      expect((await bind()).status).to.equal(201);
      const res = await bind();
      expect(res.status).to.equal(409);
      expect(res.body).to.include({ reason: 'Conflict', message: 'Operation cannot be fulfilled on pods/binding "b2": pod b2 is already assigned to node "node-1"' });
    });

    it('binds through the legacy bindings resource, named by the body', async () => {
      await createPod('b3');
      const res = await admin().post(`${NS}/bindings`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'b3' }, target: { name: 'node-2' } });
      expect(res.status, res.text).to.equal(201);
      expect((await admin().get(`${PODS}/b3`)).body.spec.nodeName).to.equal('node-2');
    });

    it('answers 400 when the body names another pod, 404 for a missing pod, 500 for a binding without target', async () => {
      await createPod('b4');
      const other = await admin().post(`${PODS}/b4/binding`, { metadata: { name: 'other' }, target: { name: 'n' } });
      expect(other.status).to.equal(400);
      expect(other.body.message).to.equal('name in URL does not match name in Binding object');
      expect((await admin().post(`${PODS}/ghost/binding`, { metadata: { name: 'ghost' }, target: { name: 'n' } })).status).to.equal(404);
      const noTarget = await admin().post(`${PODS}/b4/binding`, { metadata: { name: 'b4' }, target: {} });
      expect(noTarget.status).to.equal(500);
      expect(noTarget.body.message).to.equal('target.name: Required value');
    });

    it('honours a stale resourceVersion in the binding as a precondition (409)', async () => {
      const pod = await createPod('b5');
      await admin().patch(`${PODS}/b5`, { metadata: { labels: { x: 'y' } } }, MERGE);
      const res = await admin().post(`${PODS}/b5/binding`, { metadata: { name: 'b5', resourceVersion: pod.metadata.resourceVersion }, target: { name: 'n' } });
      expect(res.status).to.equal(409);
    });
  });

  describe('eviction', () => {
    it('deletes a pod no budget selects', async () => {
      await createPod('e1', { app: 'lonely' });
      await run('e1', true);
      const res = await evict('e1');
      expect(res.status, res.text).to.equal(201);
      expect(res.body).to.include({ kind: 'Status', status: 'Success' });
      expect((await admin().get(`${PODS}/e1`)).status).to.equal(404);
    });

    it('refuses with 429 and a DisruptionBudget cause when the budget allows no disruption', async () => {
      await createBudget('guard-1', { minAvailable: 1, selector: { matchLabels: { app: 'g1' } } }, { disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 });
      await createPod('e2', { app: 'g1' });
      await run('e2', true);
      const res = await evict('e2');
      expect(res.status).to.equal(429);
      expect(res.body).to.deep.include({
        reason: 'TooManyRequests',
        message: "Cannot evict pod as it would violate the pod's disruption budget.",
        details: { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget guard-1 needs 1 healthy pods and has 1 currently' }] },
      });
      expect((await admin().get(`${PODS}/e2`)).status).to.equal(200);
    });

    it('takes one disruption: decrements disruptionsAllowed, records the pod, marks the pod and deletes it', async () => {
      await createBudget('guard-2', { maxUnavailable: 1, selector: { matchLabels: { app: 'g2' } } }, { disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2 });
      await createPod('e3', { app: 'g2' });
      await run('e3', true);
      const res = await evict('e3');
      expect(res.status, res.text).to.equal(201);
      const budget = (await admin().get(`${PDBS}/guard-2`)).body;
      expect(budget.status.disruptionsAllowed).to.equal(0);
      expect(Object.keys(budget.status.disruptedPods)).to.deep.equal(['e3']);
      expect(budget.status.conditions).to.have.length(1);
      expect(budget.status.conditions[0]).to.include({ type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods', observedGeneration: 1 });
      expect((await admin().get(`${PODS}/e3`)).status).to.equal(404);
      await createPod('e4', { app: 'g2' });
      await run('e4', true);
      expect((await evict('e4')).status).to.equal(429);
    });

    it('an empty v1 selector selects every pod of the namespace', async () => {
      await createBudget('everything', { minAvailable: 1, selector: {} }, { disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 });
      await createPod('e5', { app: 'anything' });
      await run('e5', true);
      expect((await evict('e5')).status).to.equal(429);
      await admin().delete(`${PDBS}/everything`);
    });

    it('evicts pending pods without looking at budgets', async () => {
      await createBudget('guard-3', { minAvailable: 1, selector: { matchLabels: { app: 'g3' } } }, { disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 });
      await createPod('e6', { app: 'g3' });
      expect((await evict('e6')).status).to.equal(201);
      expect((await admin().get(`${PODS}/e6`)).status).to.equal(404);
    });

    it('evicts an unready pod when its budget says AlwaysAllow', async () => {
      await createBudget(
        'guard-4',
        { minAvailable: 1, selector: { matchLabels: { app: 'g4' } }, unhealthyPodEvictionPolicy: 'AlwaysAllow' },
        { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 1, expectedPods: 1 },
      );
      await createPod('e7', { app: 'g4' });
      await run('e7', false);
      expect((await evict('e7')).status).to.equal(201);
    });

    it('honours the deleteOptions of the body: a dry run deletes nothing and takes nothing', async () => {
      await createBudget('guard-5', { maxUnavailable: 1, selector: { matchLabels: { app: 'g5' } } }, { disruptionsAllowed: 1, currentHealthy: 1, desiredHealthy: 0, expectedPods: 1 });
      await createPod('e8', { app: 'g5' });
      await run('e8', true);
      expect((await evict('e8', { deleteOptions: { dryRun: ['All'] } })).status).to.equal(201);
      expect((await admin().get(`${PODS}/e8`)).status).to.equal(200);
      expect((await admin().get(`${PDBS}/guard-5`)).body.status.disruptionsAllowed).to.equal(1);
      const stale = await evict('e8', { deleteOptions: { preconditions: { uid: 'not-the-uid' } } });
      expect(stale.status).to.equal(409);
    });

    it('answers a 500 Failure when two budgets select the pod', async () => {
      await createBudget('two-a', { minAvailable: 1, selector: { matchLabels: { app: 'g6' } } }, { disruptionsAllowed: 1, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 });
      await createBudget('two-b', { minAvailable: 1, selector: { matchLabels: { app: 'g6' } } }, { disruptionsAllowed: 1, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 });
      await createPod('e9', { app: 'g6' });
      await run('e9', true);
      const res = await evict('e9');
      expect(res.status).to.equal(500);
      expect(res.body).to.include({ status: 'Failure', message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.' });
    });

    it('answers 400 when the Eviction names another pod', async () => {
      await createPod('e10');
      const res = await admin().post(`${PODS}/e10/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'other' } });
      expect(res.status).to.equal(400);
      expect(res.body.message).to.equal('name in URL does not match name in Eviction object');
    });
  });

  describe('ephemeralcontainers', () => {
    const debug = { name: 'debug', image: 'busybox', targetContainerName: 'c' };

    it('GET answers the Pod; a patch adds an ephemeral container and changes nothing else', async () => {
      const pod = await createPod('x1');
      expect((await admin().get(`${PODS}/x1/ephemeralcontainers`)).body).to.include({ kind: 'Pod' });
      const res = await admin().patch(`${PODS}/x1/ephemeralcontainers`, { metadata: { labels: { ignored: 'yes' } }, spec: { ephemeralContainers: [debug], activeDeadlineSeconds: 5 } }, STRATEGIC);
      expect(res.status, res.text).to.equal(200);
      expect(res.body.spec.ephemeralContainers.map((c: { name: string }) => c.name)).to.deep.equal(['debug']);
      expect(res.body.metadata.labels).to.deep.equal(pod.metadata.labels);
      expect(res.body.spec.activeDeadlineSeconds).to.equal(undefined);
      const updated = await admin().patch(`${PODS}/x1`, { metadata: { labels: { after: 'yes' } } }, MERGE);
      expect(updated.status, updated.text).to.equal(200);
    });

    it('forbids removing or changing an existing ephemeral container', async () => {
      await createPod('x2');
      const added = await admin().patch(`${PODS}/x2/ephemeralcontainers`, { spec: { ephemeralContainers: [debug] } }, STRATEGIC);
      expect(added.status).to.equal(200);
      const removed = await admin().put(`${PODS}/x2/ephemeralcontainers`, { ...added.body, spec: { ...added.body.spec, ephemeralContainers: [] } });
      expect(removed.status).to.equal(422);
      expect(removed.body.details.causes).to.deep.equal([{ reason: 'FieldValueForbidden', message: 'Forbidden: existing ephemeral containers "debug" may not be removed\n', field: 'spec.ephemeralContainers' }]);
      const changed = await admin().patch(`${PODS}/x2/ephemeralcontainers`, { spec: { ephemeralContainers: [{ ...debug, image: 'alpine' }] } }, STRATEGIC);
      expect(changed.status).to.equal(422);
      expect(changed.body.details.causes[0].field).to.equal('spec.ephemeralContainers[debug]');
      expect(changed.body.details.causes[0].message).to.match(/^Forbidden: existing ephemeral containers "debug" may not be changed\n/);
    });

    it('forbids ephemeral containers on create and through the main resource', async () => {
      const created = await admin().post(PODS, { ...podBody('x3'), spec: { ...podBody('x3').spec, ephemeralContainers: [debug] } });
      expect(created.status).to.equal(422);
      expect(created.body.details.causes[0]).to.include({ field: 'spec.ephemeralContainers', message: 'Forbidden: cannot be set on create' });
    });
  });

  it('discovery lists the pod subresources in upstream order with their kinds, and the legacy bindings', async () => {
    const res = await admin().get('/api/v1');
    const byName = new Map((res.body.resources as Array<{ name: string }>).map((r) => [r.name, r]));
    expect(byName.get('pods/binding')).to.deep.include({ kind: 'Binding', verbs: ['create'] });
    expect(byName.get('pods/eviction')).to.deep.include({ group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] });
    expect(byName.get('pods/ephemeralcontainers')).to.deep.include({ kind: 'Pod', verbs: ['get', 'patch', 'update'] });
    expect(byName.get('bindings')).to.deep.include({ kind: 'Binding', namespaced: true, verbs: ['create'] });
    const podSubs = [...byName.keys()].filter((n) => n.startsWith('pods/'));
    expect(podSubs).to.deep.equal(['pods/attach', 'pods/binding', 'pods/ephemeralcontainers', 'pods/eviction', 'pods/exec', 'pods/log', 'pods/portforward', 'pods/proxy', 'pods/status']);
  });
});
