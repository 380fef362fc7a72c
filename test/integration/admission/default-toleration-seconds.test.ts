import { expect } from 'chai';
import { TAINT_NODE_NOT_READY, TAINT_NODE_UNREACHABLE } from '../../../lib/apis/vendor.js';
import { useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

const NS = 'default';
const PODS = `/api/v1/namespaces/${NS}/pods`;
const pod = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec },
});
const notReady = { key: TAINT_NODE_NOT_READY, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 120 };
const unreachable = { key: TAINT_NODE_UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 };

describe('DefaultTolerationSeconds admission against a real server (spec 001 § Admission control)', () => {
  const server = useTestServer({
    admission: {
      plugins: ['NamespaceLifecycle', 'DefaultTolerationSeconds'],
      options: { defaultNotReadyTolerationSeconds: 120, defaultUnreachableTolerationSeconds: 60 },
    },
  });

  it(`adds the not-ready and unreachable tolerations with the flags’ seconds${covers('001 § Admission control › DefaultTolerationSeconds')}`, async () => {
    const res = await server().admin.post(PODS, pod('t1'));
    expect(res.status, res.text).to.equal(201);
    expect(res.body.spec.tolerations).to.deep.equal([notReady, unreachable]);
  });

  it(`keeps a toleration the pod already has for a taint and adds only the other${covers('001 § Admission control › DefaultTolerationSeconds')}`, async () => {
    const own = { key: TAINT_NODE_UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 };
    const res = await server().admin.post(PODS, pod('t2', { tolerations: [own] }));
    expect(res.status, res.text).to.equal(201);
    expect(res.body.spec.tolerations).to.deep.equal([own, notReady]);
  });

  it('adds nothing to a pod tolerating everything', async () => {
    const res = await server().admin.post(PODS, pod('t3', { tolerations: [{ operator: 'Exists' }] }));
    expect(res.status, res.text).to.equal(201);
    expect(res.body.spec.tolerations).to.deep.equal([{ operator: 'Exists' }]);
  });

  it('runs on dry-run creates', async () => {
    const res = await server().admin.post(`${PODS}?dryRun=All`, pod('t4'));
    expect(res.status, res.text).to.equal(201);
    expect(res.body.spec.tolerations).to.deep.equal([notReady, unreachable]);
    expect((await server().admin.get(`${PODS}/t4`)).status).to.equal(404);
  });

  it('puts the tolerations back on an update that drops them', async () => {
    const created = await server().admin.post(PODS, pod('t5'));
    expect(created.status, created.text).to.equal(201);
    const body = structuredClone(created.body);
    delete body.spec.tolerations;
    body.metadata.labels = { touched: 'yes' };
    const res = await server().admin.put(`${PODS}/t5`, body);
    expect(res.status, res.text).to.equal(200);
    expect(res.body.metadata.labels).to.deep.equal({ touched: 'yes' });
    expect(res.body.spec.tolerations).to.deep.equal([notReady, unreachable]);
  });
});
