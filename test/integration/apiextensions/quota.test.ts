/**
 * Object count quota of custom resources (issue #14): `count/<resource>.<group>` charges custom
 * objects on create, refuses what exceeds it with upstream's message, and the resource quota
 * controller's recount lowers it when objects are deleted.
 */
import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { vendorGroup } from '../../../lib/apis/vendor.js';
import { createCRD } from '../../framework/crd.js';
import { useTestServer } from '../../framework/test-server.js';

const GROUP = 'quota.example.com';
const COUNT = `count/widgets.${GROUP}`;

describe('object count quota of custom resources (issue #14)', function () {
  this.timeout(60_000);
  const server = useTestServer({ admission: { plugins: ['NamespaceLifecycle', 'ResourceQuota'] }, controllers: ['resourcequota'], resourceQuotaSyncPeriodMs: 500 });
  const admin = () => server().admin;
  const widgets = `/apis/${GROUP}/v1/namespaces/default/widgets`;
  const used = async () => (await admin().get('/api/v1/namespaces/default/resourcequotas/q')).body.status?.used?.[COUNT];
  const widget = (name: string) => ({ apiVersion: `${GROUP}/v1`, kind: 'Widget', metadata: { name } });

  before(async () => {
    await createCRD(admin(), {
      apiVersion: `${vendorGroup('apiextensions')}/v1`,
      kind: 'CustomResourceDefinition',
      metadata: { name: `widgets.${GROUP}` },
      spec: { group: GROUP, scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }] },
    });
  });

  it('charges creates, refuses the one over the limit, and gives the count back on resync after a delete', async () => {
    expect((await admin().post('/api/v1/namespaces/default/resourcequotas', { metadata: { name: 'q' }, spec: { hard: { [COUNT]: '1' } } })).status).to.equal(201);
    for (let i = 0; i < 100 && (await used()) === undefined; i++) await sleep(20);
    expect(await used()).to.equal('0');
    expect((await admin().post(widgets, widget('w1'))).status).to.equal(201);
    const refused = await admin().post(widgets, widget('w2'));
    expect(refused.status).to.equal(403);
    expect(refused.body.message).to.equal(`widgets.${GROUP} "w2" is forbidden: exceeded quota: q, requested: ${COUNT}=1, used: ${COUNT}=1, limited: ${COUNT}=1`);
    expect((await admin().delete(`${widgets}/w1`)).status).to.equal(200);
    for (let i = 0; i < 200 && (await used()) !== '0'; i++) await sleep(25);
    expect(await used()).to.equal('0');
    expect((await admin().post(widgets, widget('w2'))).status).to.equal(201);
  });
});
