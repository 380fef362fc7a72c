import { expect } from 'chai';
import { TAINT_NODE_NOT_READY } from '../../../lib/apis/vendor.js';
import { useTestServer } from '../../framework/test-server.js';

const NOT_READY = { key: TAINT_NODE_NOT_READY, effect: 'NoSchedule' };
const node = (name: string, spec: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name }, spec });

describe('TaintNodesByCondition admission against a real server (spec 001 § Admission control)', () => {
  const server = useTestServer({ admission: { plugins: ['NamespaceLifecycle', 'TaintNodesByCondition'] } });

  it('creates Nodes with the not-ready NoSchedule taint, after their own', async () => {
    const res = await server().admin.post('/api/v1/nodes', node('tn1', { taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] }));
    expect(res.status, res.text).to.equal(201);
    expect(res.body.spec.taints).to.deep.equal([{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }, NOT_READY]);
    expect((await server().admin.get('/api/v1/nodes/tn1')).body.spec.taints).to.deep.equal(res.body.spec.taints);
  });

  it('does not add the taint twice', async () => {
    const res = await server().admin.post('/api/v1/nodes', node('tn2', { taints: [NOT_READY] }));
    expect(res.status, res.text).to.equal(201);
    expect(res.body.spec.taints).to.deep.equal([NOT_READY]);
  });

  it('taints the Node a dry-run create returns, and stores nothing', async () => {
    const res = await server().admin.post('/api/v1/nodes?dryRun=All', node('tn3'));
    expect(res.status, res.text).to.equal(201);
    expect(res.body.spec.taints).to.deep.equal([NOT_READY]);
    expect((await server().admin.get('/api/v1/nodes/tn3')).status).to.equal(404);
  });

  it('leaves updates alone: the taint can be removed', async () => {
    const created = await server().admin.post('/api/v1/nodes', node('tn4'));
    expect(created.status, created.text).to.equal(201);
    const res = await server().admin.put('/api/v1/nodes/tn4', { ...created.body, spec: {} });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.spec.taints).to.equal(undefined);
  });
});
