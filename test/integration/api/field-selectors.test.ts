import { expect } from 'chai';
import { useTestServer } from '../../framework/test-server.js';

const NS = '/api/v1/namespaces/default';
const names = (res: { body: { items: { metadata: { name: string } }[] } }) => res.body.items.map((i) => i.metadata.name).sort();
const pod = (name: string, spec: Record<string, unknown> = {}) => ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec } });

describe('field selectors per kind (issue #4 item 6)', () => {
  const server = useTestServer();

  before(async () => {
    await server().admin.post(`${NS}/pods`, pod('on-n1', { nodeName: 'n1' }));
    await server().admin.post(`${NS}/pods`, pod('on-n2', { nodeName: 'n2', hostNetwork: true }));
    await server().admin.post(`${NS}/pods`, pod('unscheduled'));
    await server().admin.post(`${NS}/secrets`, { metadata: { name: 'opaque' } });
    await server().admin.post(`${NS}/secrets`, { metadata: { name: 'custom' }, type: 'example.com/custom' });
    await server().admin.post(`${NS}/events`, { metadata: { name: 'ev1' }, involvedObject: { kind: 'Pod', name: 'on-n1', namespace: 'default' }, reason: 'Started', type: 'Normal', source: { component: 'kubelet' } });
    await server().admin.post(`${NS}/events`, { metadata: { name: 'ev2' }, involvedObject: { kind: 'Pod', name: 'on-n2', namespace: 'default' }, reason: 'Failed', type: 'Warning' });
  });

  it('selects Pods by spec.nodeName, including the empty value', async () => {
    expect(names(await server().admin.get(`${NS}/pods?fieldSelector=spec.nodeName%3Dn1`))).to.deep.equal(['on-n1']);
    expect(names(await server().admin.get(`${NS}/pods?fieldSelector=spec.nodeName%3D`))).to.deep.equal(['unscheduled']);
    expect(names(await server().admin.get(`${NS}/pods?fieldSelector=spec.nodeName!%3Dn1`))).to.deep.equal(['on-n2', 'unscheduled']);
  });

  it('selects Pods by status.phase and spec.hostNetwork (booleans as "true"/"false")', async () => {
    expect(names(await server().admin.get(`${NS}/pods?fieldSelector=status.phase%3DPending`))).to.deep.equal(['on-n1', 'on-n2', 'unscheduled']);
    expect(names(await server().admin.get(`${NS}/pods?fieldSelector=spec.hostNetwork%3Dtrue`))).to.deep.equal(['on-n2']);
    expect(names(await server().admin.get(`${NS}/pods?fieldSelector=spec.hostNetwork%3Dfalse`))).to.deep.equal(['on-n1', 'unscheduled']);
  });

  it('selects Secrets by type and Events by involvedObject, reason, type and source', async () => {
    expect(names(await server().admin.get(`${NS}/secrets?fieldSelector=type%3DOpaque`))).to.deep.equal(['opaque']);
    expect(names(await server().admin.get(`${NS}/events?fieldSelector=involvedObject.name%3Don-n2`))).to.deep.equal(['ev2']);
    expect(names(await server().admin.get(`${NS}/events?fieldSelector=involvedObject.kind%3DPod,type%3DNormal`))).to.deep.equal(['ev1']);
    expect(names(await server().admin.get(`${NS}/events?fieldSelector=source%3Dkubelet`))).to.deep.equal(['ev1']);
    expect(names(await server().admin.get(`${NS}/events?fieldSelector=reason%3DFailed`))).to.deep.equal(['ev2']);
  });

  it('answers 400 for a field a kind does not support', async () => {
    const res = await server().admin.get(`${NS}/configmaps?fieldSelector=spec.nodeName%3Dn1`);
    expect(res.status).to.equal(400);
    expect(res.body.message).to.equal('field label not supported: spec.nodeName');
  });

  it('applies field selectors to watches', async () => {
    const w = await server().admin.watch(`${NS}/pods?watch=1&fieldSelector=spec.nodeName%3Dn3`);
    await server().admin.post(`${NS}/pods`, pod('on-n3', { nodeName: 'n3' }));
    await server().admin.post(`${NS}/pods`, pod('on-n4', { nodeName: 'n4' }));
    const ev = await w.next();
    expect(ev.type).to.equal('ADDED');
    expect(ev.object.metadata.name).to.equal('on-n3');
    w.close();
  });
});
