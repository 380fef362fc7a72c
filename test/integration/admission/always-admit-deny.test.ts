/**
 * AlwaysAdmit and AlwaysDeny against a real server (spec 001 § Admission control): the deprecated
 * plugins can be enabled; AlwaysDeny refuses every write with upstream's 403 Status and leaves
 * reads alone, AlwaysAdmit changes nothing.
 */
import { expect } from 'chai';
import type { TestResponse } from '../../framework/client.js';
import { useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

const expectStatus = (res: TestResponse, status: number) => expect(res.status, res.text).to.equal(status);
const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } });
const CMS = '/api/v1/namespaces/default/configmaps';

describe('AlwaysDeny admission against a real server (spec 001 § Admission control)', () => {
  const server = useTestServer({ admission: { plugins: ['AlwaysDeny'] } });

  it(`refuses a create with 403 Forbidden and upstream Status${covers('001 § Admission control › AlwaysDeny')}`, async () => {
    const res = await server().admin.post(CMS, configMap('c1'));
    expectStatus(res, 403);
    expect(res.body).to.deep.equal({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'configmaps "c1" is forbidden: admission control is denying all modifications',
      reason: 'Forbidden',
      details: { name: 'c1', kind: 'configmaps' },
      code: 403,
    });
  });

  it(`refuses updates, patches and deletes of existing objects; reads still work${covers('001 § Admission control › AlwaysDeny')}`, async () => {
    const ns = await server().admin.get('/api/v1/namespaces/default');
    expectStatus(ns, 200);
    const put = await server().admin.put('/api/v1/namespaces/default', { ...ns.body, metadata: { ...ns.body.metadata, labels: { a: 'b' } } });
    expectStatus(put, 403);
    expect(put.body.message).to.equal('namespaces "default" is forbidden: admission control is denying all modifications');
    expectStatus(await server().admin.patch('/api/v1/namespaces/default', { metadata: { labels: { a: 'b' } } }, 'application/merge-patch+json'), 403);
    const del = await server().admin.delete('/api/v1/namespaces/default');
    expectStatus(del, 403);
    expect(del.body.message).to.equal('namespaces "default" is forbidden: admission control is denying all modifications');
    expectStatus(await server().admin.get(CMS), 200);
  });
});

describe('AlwaysAdmit admission against a real server (spec 001 § Admission control)', () => {
  const server = useTestServer({ admission: { plugins: ['NamespaceLifecycle', 'AlwaysAdmit'] } });

  it(`admits writes unchanged${covers('001 § Admission control › AlwaysAdmit')}`, async () => {
    const res = await server().admin.post(CMS, configMap('c1'));
    expectStatus(res, 201);
    expect(res.body.data).to.deep.equal({ k: 'v' });
    expectStatus(await server().admin.delete(`${CMS}/c1`), 200);
  });
});
