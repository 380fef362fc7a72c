/**
 * The garbage collector follows custom resources (issue #14): a ConfigMap owned by a custom
 * object goes when its owner is deleted, a custom object owned by a ConfigMap goes with it, and
 * a custom resource created after the collector started is followed too.
 */
import { expect } from 'chai';
import { vendorGroup } from '../../../lib/apis/vendor.js';
import type { TestClient } from '../../framework/client.js';
import { createCRD } from '../../framework/crd.js';
import { useTestServer } from '../../framework/test-server.js';

const GROUP = 'gc.example.com';
const APPS = `/apis/${GROUP}/v1/namespaces/default/apps`;
const CMS = '/api/v1/namespaces/default/configmaps';

const crd = {
  apiVersion: `${vendorGroup('apiextensions')}/v1`,
  kind: 'CustomResourceDefinition',
  metadata: { name: `apps.${GROUP}` },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { plural: 'apps', kind: 'App' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-orch-preserve-unknown-fields': true } } }],
  },
};

/** Polls until GET `path` answers 404. */
async function gone(client: TestClient, path: string): Promise<boolean> {
  for (let i = 0; i < 300; i++) {
    if ((await client.get(path)).status === 404) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

const ownerRef = (o: { apiVersion: string; kind: string; metadata: { name: string; uid: string } }) => ({ apiVersion: o.apiVersion, kind: o.kind, name: o.metadata.name, uid: o.metadata.uid });

describe('garbage collection of and by custom resources (issue #14)', function () {
  this.timeout(60_000);
  const server = useTestServer({ controllers: ['garbagecollector'] });
  const admin = () => server().admin;

  before(async () => {
    // Created after the collector started: followed from the moment it is served.
    await createCRD(admin(), crd);
  });

  it('deletes a ConfigMap whose custom owner was deleted', async () => {
    const owner = (await admin().post(APPS, { apiVersion: `${GROUP}/v1`, kind: 'App', metadata: { name: 'owner' } })).body;
    const cm = await admin().post(CMS, { metadata: { name: 'owned-by-app', ownerReferences: [ownerRef(owner)] }, data: { a: '1' } });
    expect(cm.status, cm.text).to.equal(201);
    expect((await admin().delete(`${APPS}/owner`)).status).to.equal(200);
    expect(await gone(admin(), `${CMS}/owned-by-app`)).to.equal(true);
  });

  it('deletes a custom object whose ConfigMap owner was deleted', async () => {
    const owner = (await admin().post(CMS, { metadata: { name: 'cm-owner' } })).body;
    const app = await admin().post(APPS, { apiVersion: `${GROUP}/v1`, kind: 'App', metadata: { name: 'owned', ownerReferences: [ownerRef(owner)] } });
    expect(app.status, app.text).to.equal(201);
    expect((await admin().delete(`${CMS}/cm-owner`)).status).to.equal(200);
    expect(await gone(admin(), `${APPS}/owned`)).to.equal(true);
  });
});
