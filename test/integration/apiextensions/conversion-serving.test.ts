/**
 * Versions of a custom resource converted by a webhook, through the real server (issue #14 item
 * 5): objects written in one version are stored in the storage version and read, listed, patched
 * and watched in any served version; `status.storedVersions` follows the storage version; a
 * failing webhook fails the request with a 500 Status and leaves the stored objects as they were.
 */
import { expect } from 'chai';
import { vendorGroup } from '../../../lib/apis/vendor.js';
import { ConversionWebhookServer, convertWith, failWith } from '../../framework/conversion-webhook.js';
import { CRDS, createCRD } from '../../framework/crd.js';
import { useTestServer } from '../../framework/test-server.js';

type Obj = Record<string, unknown>;

const GROUP = 'conv.example.com';
const V1 = `/apis/${GROUP}/v1/namespaces/default/widgets`;
const V2 = `/apis/${GROUP}/v2/namespaces/default/widgets`;
const MERGE = 'application/merge-patch+json';

/** v1 `spec.size` ⇄ v2 `spec.replicas`. */
const convert = convertWith((o, desired) => {
  const spec = (o.spec ?? {}) as Obj;
  if (desired.endsWith('/v2')) return { ...o, apiVersion: desired, spec: { replicas: spec.size } };
  return { ...o, apiVersion: desired, spec: { size: spec.replicas } };
});

const specSchema = (field: string) => ({
  type: 'object',
  properties: { spec: { type: 'object', properties: { [field]: { type: 'integer', minimum: 0 } } } },
});

describe('custom resources converted by a webhook (issue #14 item 5)', function () {
  this.timeout(60_000);
  const server = useTestServer();
  const admin = () => server().admin;
  let hook: ConversionWebhookServer;

  before(async () => {
    hook = await ConversionWebhookServer.start();
    hook.on('/convert', convert);
    await createCRD(admin(), {
      apiVersion: `${vendorGroup('apiextensions')}/v1`,
      kind: 'CustomResourceDefinition',
      metadata: { name: `widgets.${GROUP}` },
      spec: {
        group: GROUP,
        scope: 'Namespaced',
        names: { plural: 'widgets', kind: 'Widget' },
        versions: [
          { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: specSchema('size') } },
          { name: 'v2', served: true, storage: false, schema: { openAPIV3Schema: specSchema('replicas') } },
        ],
        conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: hook.url('/convert'), caBundle: hook.caBundle } } },
      },
    });
  });

  after(async () => {
    await hook?.stop();
  });

  it('stores in the storage version and reads, lists and patches in either version', async () => {
    const created = await admin().post(V2, { apiVersion: `${GROUP}/v2`, kind: 'Widget', metadata: { name: 'a' }, spec: { replicas: 3 } });
    expect(created.status, created.text).to.equal(201);
    expect(created.body).to.deep.include({ apiVersion: `${GROUP}/v2`, spec: { replicas: 3 } });
    const v1 = await admin().get(`${V1}/a`);
    expect(v1.body).to.deep.include({ apiVersion: `${GROUP}/v1`, spec: { size: 3 } });
    const reviewsBefore = hook.reviews.length;
    await admin().post(V1, { apiVersion: `${GROUP}/v1`, kind: 'Widget', metadata: { name: 'b' }, spec: { size: 5 } });
    const list = await admin().get(V2);
    expect(list.body.items.map((o: Obj) => (o.spec as Obj).replicas)).to.deep.equal([3, 5]);
    // Creating b converted nothing (stored version); the list went to the webhook in one review.
    expect(hook.reviews.length).to.equal(reviewsBefore + 1);
    const patched = await admin().patch(`${V2}/b`, { spec: { replicas: 6 } }, MERGE);
    expect(patched.status, patched.text).to.equal(200);
    expect((await admin().get(`${V1}/b`)).body.spec).to.deep.equal({ size: 6 });
  });

  it('validates a write with the schema of the version it is written in', async () => {
    const res = await admin().post(V2, { apiVersion: `${GROUP}/v2`, kind: 'Widget', metadata: { name: 'neg' }, spec: { replicas: -1 } });
    expect(res.status).to.equal(422);
    expect(res.body.message).to.contain('spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0');
  });

  it('converts watch events to the watched version', async () => {
    const first = await admin().post(V1, { apiVersion: `${GROUP}/v1`, kind: 'Widget', metadata: { name: 'w' }, spec: { size: 1 } });
    const watch = await admin().watch(`${V2}?watch=true&resourceVersion=${first.body.metadata.resourceVersion}`);
    await admin().patch(`${V1}/w`, { spec: { size: 2 } }, MERGE);
    const ev = await watch.until((e) => e.type === 'MODIFIED' && e.object.metadata.name === 'w');
    expect(ev.object).to.deep.include({ apiVersion: `${GROUP}/v2`, spec: { replicas: 2 } });
    watch.close();
  });

  it('answers 500 when the webhook fails, and keeps the stored objects', async () => {
    hook.on('/convert', failWith('converter is down'));
    try {
      const res = await admin().get(`${V2}/a`);
      expect(res.status).to.equal(500);
      expect(res.body).to.deep.include({ kind: 'Status', status: 'Failure', code: 500 });
      expect(res.body.message).to.contain('converter is down');
      const write = await admin().patch(`${V2}/a`, { spec: { replicas: 9 } }, MERGE);
      expect(write.status).to.equal(500);
    } finally {
      hook.on('/convert', convert);
    }
    expect((await admin().get(`${V1}/a`)).body.spec).to.deep.equal({ size: 3 });
    expect((await admin().get(`${V2}/a`)).body.spec).to.deep.equal({ replicas: 3 });
  });

  it('records a new storage version in status.storedVersions', async () => {
    const crd = (await admin().get(`${CRDS}/widgets.${GROUP}`)).body;
    expect(crd.status.storedVersions).to.deep.equal(['v1']);
    crd.spec.versions[0].storage = false;
    crd.spec.versions[1].storage = true;
    const updated = await admin().put(`${CRDS}/widgets.${GROUP}`, crd);
    expect(updated.status, updated.text).to.equal(200);
    expect(updated.body.status.storedVersions).to.deep.equal(['v1', 'v2']);
    // Objects stored in v1 are still read in both versions.
    let a = await admin().get(`${V2}/a`);
    for (let i = 0; i < 50 && a.status !== 200; i++) a = await admin().get(`${V2}/a`);
    expect(a.body.spec).to.deep.equal({ replicas: 3 });
  });
});
