import { expect } from 'chai';
import { vendorGroup } from '../../../lib/apis/vendor.js';
import { useTestServer } from '../../framework/test-server.js';

const NS = 'default';
const PODS = `/api/v1/namespaces/${NS}/pods`;
const NODE_GROUP = vendorGroup('node');
const pod = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec },
});
const SANDBOX_TOLERATION = { key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' };

describe('RuntimeClass admission against a real server (spec 001 § Admission control)', () => {
  const server = useTestServer({ admission: { plugins: ['NamespaceLifecycle', 'RuntimeClass'] } });

  before(async () => {
    const res = await server().admin.post(`/apis/${NODE_GROUP}/v1/runtimeclasses`, {
      apiVersion: `${NODE_GROUP}/v1`,
      kind: 'RuntimeClass',
      metadata: { name: 'kata' },
      handler: 'kata',
      overhead: { podFixed: { cpu: '250m', memory: '120Mi' } },
      scheduling: { nodeSelector: { sandbox: 'kata' }, tolerations: [SANDBOX_TOLERATION] },
    });
    expect(res.status, res.text).to.equal(201);
  });

  it('sets the overhead and merges the scheduling constraints of a class just created', async () => {
    const res = await server().admin.post(PODS, pod('r1', { runtimeClassName: 'kata', nodeSelector: { zone: 'a' } }));
    expect(res.status, res.text).to.equal(201);
    expect(res.body.spec).to.deep.include({
      overhead: { cpu: '250m', memory: '120Mi' },
      nodeSelector: { zone: 'a', sandbox: 'kata' },
      tolerations: [SANDBOX_TOLERATION],
    });
  });

  it('runs on dry-run creates', async () => {
    const res = await server().admin.post(`${PODS}?dryRun=All`, pod('r2', { runtimeClassName: 'kata' }));
    expect(res.status, res.text).to.equal(201);
    expect(res.body.spec.overhead).to.deep.equal({ cpu: '250m', memory: '120Mi' });
    expect((await server().admin.get(`${PODS}/r2`)).status).to.equal(404);
  });

  it('accepts a pod overhead equal to the class’s', async () => {
    const res = await server().admin.post(PODS, pod('r3', { runtimeClassName: 'kata', overhead: { cpu: '0.25', memory: '120Mi' } }));
    expect(res.status, res.text).to.equal(201);
  });

  const rejections: [string, Record<string, unknown>, string][] = [
    ['an unknown class', { runtimeClassName: 'nope' }, 'pod rejected: RuntimeClass "nope" not found'],
    ['a different overhead', { runtimeClassName: 'kata', overhead: { cpu: '1' } }, "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead"],
    ['an overhead without a class', { overhead: { cpu: '1' } }, 'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead'],
    [
      'a conflicting node selector',
      { runtimeClassName: 'kata', nodeSelector: { sandbox: 'gvisor' } },
      'conflict: runtimeClass.scheduling.nodeSelector[sandbox] = kata; pod.spec.nodeSelector[sandbox] = gvisor',
    ],
  ];
  for (const [what, spec, why] of rejections) {
    it(`rejects ${what} (403), also on dry run`, async () => {
      for (const q of ['', '?dryRun=All']) {
        const res = await server().admin.post(`${PODS}${q}`, pod('bad', spec));
        expect(res.status, res.text).to.equal(403);
        expect(res.body).to.deep.include({ reason: 'Forbidden', message: `pods "bad" is forbidden: ${why}` });
      }
    });
  }

  it('does not look at updates: a pod whose class is gone can still be updated', async () => {
    const created = await server().admin.post(PODS, pod('r4', { runtimeClassName: 'kata' }));
    expect(created.status, created.text).to.equal(201);
    expect((await server().admin.request('DELETE', `/apis/${NODE_GROUP}/v1/runtimeclasses/kata`)).status).to.equal(200);
    const current = (await server().admin.get(`${PODS}/r4`)).body;
    const res = await server().admin.put(`${PODS}/r4`, { ...current, metadata: { ...current.metadata, labels: { a: 'b' } } });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.spec.overhead).to.deep.equal({ cpu: '250m', memory: '120Mi' });
  });
});
