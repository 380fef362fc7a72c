/**
 * Two replicas over one etcd both serve a CRD created through either (issue #14 quality bar):
 * each learns of the CRD through its own informer, serves the objects the other wrote, watches
 * them, and both stop serving when it is deleted.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { vendorGroup } from '../../../lib/apis/vendor.js';
import type { TestClient } from '../../framework/client.js';
import { CRDS, createCRD, deleteCRD, waitEstablished } from '../../framework/crd.js';
import { startTestServer, type TestServer } from '../../framework/test-server.js';

const crd = (group: string) => ({
  apiVersion: `${vendorGroup('apiextensions')}/v1`,
  kind: 'CustomResourceDefinition',
  metadata: { name: `gadgets.${group}` },
  spec: {
    group,
    scope: 'Namespaced',
    names: { plural: 'gadgets', kind: 'Gadget' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer', default: 1 } } } } } } }],
  },
});

/** Polls `path` on `client` until it answers `status`. */
async function until(client: TestClient, path: string, status: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((await client.get(path)).status === status) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${path} did not answer ${status}`);
}

describe('custom resources on two replicas over one etcd (issue #14)', function () {
  this.timeout(60_000);
  let a: TestServer;
  let b: TestServer;
  before(async () => {
    const prefix = `/${randomUUID()}/registry`;
    a = await startTestServer({ prefix });
    b = await startTestServer({ prefix });
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
  });

  for (const [through, other] of [
    ['a', 'b'],
    ['b', 'a'],
  ] as const) {
    it(`a CRD created through replica ${through} is served by both`, async () => {
      const servers = { a, b };
      const group = `${through}.replicas.example.com`;
      const objects = `/apis/${group}/v1/namespaces/default/gadgets`;
      await createCRD(servers[through].admin, crd(group));
      await waitEstablished(servers[other].admin, `gadgets.${group}`);
      const w = await servers[through].admin.watch(`${objects}?watch=1&resourceVersion=0`);
      const created = await servers[other].admin.post(objects, { apiVersion: `${group}/v1`, kind: 'Gadget', metadata: { name: 'g' }, spec: {} });
      expect(created.status, created.text).to.equal(201);
      expect(created.body.spec).to.deep.equal({ size: 1 });
      const ev = await w.until((e) => e.object?.metadata?.name === 'g');
      expect(ev.type).to.equal('ADDED');
      w.close();
      expect((await servers[through].admin.get(`${objects}/g`)).body.metadata.uid).to.equal(created.body.metadata.uid);
      await deleteCRD(servers[other].admin, `gadgets.${group}`);
      await until(servers[through].admin, `/apis/${group}/v1`, 404);
      await until(servers[other].admin, `/apis/${group}/v1`, 404);
      expect((await servers[through].admin.get(`${CRDS}/gadgets.${group}`)).status).to.equal(404);
    });
  }
});
