/**
 * The feature gates of custom resources (issue #15 item 5; upstream v1.30 apiextensions):
 * CRDValidationRatcheting (BETA, on) — an update keeps values that were valid under an older
 * schema, off: they are refused; CustomResourceFieldSelectors (ALPHA, off) — a CRD write drops
 * the `selectableFields` the stored CRD did not already use and custom resources have no
 * selectable field labels.
 */
import { expect } from 'chai';
import { vendorGroup } from '../../../lib/apis/vendor.js';
import { CRDS, createCRD, waitEstablished } from '../../framework/crd.js';
import type { TestClient } from '../../framework/client.js';
import { startTestServer, useTestServer } from '../../framework/test-server.js';

const GROUP = 'gates.example.com';
const NAME = `widgets.${GROUP}`;
const WIDGETS = `/apis/${GROUP}/v1/namespaces/default/widgets`;
const MERGE = 'application/merge-patch+json';
const UNKNOWN_MODE = '"spec.mode" is not a known field selector: only "metadata.name", "metadata.namespace"';

const widgets = (imageMaxLength?: number) => ({
  apiVersion: `${vendorGroup('apiextensions')}/v1`,
  kind: 'CustomResourceDefinition',
  metadata: { name: NAME },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        selectableFields: [{ jsonPath: '.spec.mode' }],
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: { image: { type: 'string', ...(imageMaxLength !== undefined ? { maxLength: imageMaxLength } : {}) }, mode: { type: 'string' }, replicas: { type: 'integer' } },
              },
            },
          },
        },
      },
    ],
  },
});

const widget = (name: string, spec: Record<string, unknown>) => ({ apiVersion: `${GROUP}/v1`, kind: 'Widget', metadata: { name }, spec });

/** Replaces the CRD's spec with `next`'s (the stored object otherwise kept); returns the response. */
async function replaceCRD(client: TestClient, next: ReturnType<typeof widgets>) {
  const cur = await client.get(`${CRDS}/${NAME}`);
  return client.put(`${CRDS}/${NAME}`, { ...cur.body, spec: { ...cur.body.spec, versions: next.spec.versions } });
}

/** Polls until creating a widget with `spec` is refused with 422 (the new schema is served). */
async function untilRefused(client: TestClient, spec: Record<string, unknown>): Promise<void> {
  const start = Date.now();
  for (let i = 0; ; i++) {
    const res = await client.post(`${WIDGETS}?dryRun=All`, widget(`probe-${i}`, spec));
    if (res.status === 422) return;
    if (Date.now() - start > 10_000) throw new Error(`the new schema is not served: ${res.status} ${res.text}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Creates the widgets CRD (no image limit) and a widget with a long image, then limits images to 4 characters. */
async function legacyWidget(client: TestClient): Promise<void> {
  await createCRD(client, widgets());
  const created = await client.post(WIDGETS, widget('legacy', { image: 'long-image', replicas: 1 }));
  expect(created.status, created.text).to.equal(201);
  const replaced = await replaceCRD(client, widgets(4));
  expect(replaced.status, replaced.text).to.equal(200);
  await untilRefused(client, { image: 'too-long' });
}

const RATCHET_REFUSAL = `Widget.${GROUP} "legacy" is invalid: spec.image: Too long: may not be longer than 4`;

describe('feature gates of custom resources (issue #15 item 5)', function () {
  this.timeout(60_000);

  describe('upstream defaults: CRDValidationRatcheting on, CustomResourceFieldSelectors off', () => {
    const server = useTestServer();
    const admin = () => server().admin;

    before(async () => {
      await legacyWidget(admin());
    });

    it('drops selectableFields from a new CRD', async () => {
      const crd = await admin().get(`${CRDS}/${NAME}`);
      expect(crd.body.spec.versions[0]).not.to.have.property('selectableFields');
    });

    it('refuses a field selector on the dropped field with 400', async () => {
      const res = await admin().get(`${WIDGETS}?fieldSelector=spec.mode%3Dx`);
      expect(res.status, res.text).to.equal(400);
      expect(res.body.message).to.equal(UNKNOWN_MODE);
    });

    it('ratchets: an update keeps the long image the new schema refuses, while a changed image is refused', async () => {
      const kept = await admin().patch(`${WIDGETS}/legacy`, { spec: { replicas: 2 } }, MERGE);
      expect(kept.status, kept.text).to.equal(200);
      expect(kept.body.spec).to.deep.equal({ image: 'long-image', replicas: 2 });
      const changed = await admin().patch(`${WIDGETS}/legacy`, { spec: { image: 'longer-image' } }, MERGE);
      expect(changed.status, changed.text).to.equal(422);
      expect(changed.body.message).to.equal(RATCHET_REFUSAL);
    });
  });

  describe('--feature-gates=CRDValidationRatcheting=false', () => {
    const server = useTestServer({ featureGates: { CRDValidationRatcheting: false } });

    it('refuses an update that keeps a value the new schema refuses', async () => {
      await legacyWidget(server().admin);
      const res = await server().admin.patch(`${WIDGETS}/legacy`, { spec: { replicas: 2 } }, MERGE);
      expect(res.status, res.text).to.equal(422);
      expect(res.body.message).to.equal(RATCHET_REFUSAL);
    });
  });

  describe('CustomResourceFieldSelectors turned off over a CRD that uses selectable fields', () => {
    it('keeps the stored selectableFields on update, but serves no selectable field', async () => {
      const on = await startTestServer({ featureGates: { CustomResourceFieldSelectors: true } });
      try {
        await createCRD(on.admin, widgets());
        await on.admin.post(WIDGETS, widget('fast', { mode: 'Fast' }));
        await on.admin.post(WIDGETS, widget('slow', { mode: 'Slow' }));
        const selected = await on.admin.get(`${WIDGETS}?fieldSelector=spec.mode%3DSlow`);
        expect(selected.status, selected.text).to.equal(200);
        expect(selected.body.items.map((o: { metadata: { name: string } }) => o.metadata.name)).to.deep.equal(['slow']);
      } finally {
        await on.stop();
      }
      const off = await startTestServer({ prefix: on.prefix });
      try {
        await waitEstablished(off.admin, NAME);
        const updated = await replaceCRD(off.admin, widgets(64));
        expect(updated.status, updated.text).to.equal(200);
        expect(updated.body.spec.versions[0].selectableFields).to.deep.equal([{ jsonPath: '.spec.mode' }]);
        const res = await off.admin.get(`${WIDGETS}?fieldSelector=spec.mode%3DSlow`);
        expect(res.status, res.text).to.equal(400);
        expect(res.body.message).to.equal(UNKNOWN_MODE);
      } finally {
        await off.stop();
      }
    });
  });
});
