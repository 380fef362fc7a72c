/**
 * Objects near etcd's request limit (1.5 MiB by default). An update computed from the watch
 * cache's copy used to ask etcd to compare the whole stored value in the same transaction as the
 * put, so a ConfigMap of about 1 MB could be created but never updated: every apply, patch and
 * PUT answered 500 ServerTimeout ("request is too large" taken for an unreachable etcd). A value
 * past the limit itself is a 413 that writes nothing, never a 500.
 */
import { expect } from 'chai';
import { MAX_DATA_SIZE } from '../../../lib/apis/core/v1/data-keys.js';
import { schemaExtension } from '../../../lib/apis/vendor.js';
import { MAX_COMPARED_VALUE_BYTES } from '../../../lib/storage/etcd3/store.js';
import { createCRD, singleVersionCRD } from '../../framework/crd.js';
import { useTestServer } from '../../framework/test-server.js';

const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';
const GROUP = 'large.example.com';
const BLOBS = `/apis/${GROUP}/v1/namespaces/default/blobs`;

/** `keys` data entries of equal size, `bytes` in all (keys included). */
function data(keys: number, bytes: number, fill = 'x'): Record<string, string> {
  const out: Record<string, string> = {};
  const each = Math.floor(bytes / keys) - 6;
  for (let i = 0; i < keys; i++) out[`k${String(i).padStart(5, '0')}`] = fill.repeat(each);
  return out;
}

describe('objects near the storage request limit', function () {
  this.timeout(60_000);
  const server = useTestServer();
  const admin = () => server().admin;

  it('updates a ConfigMap of about 1 MB by apply, merge patch and PUT, and an unchanged apply writes nothing', async () => {
    const big = data(1_000, MAX_DATA_SIZE - 4_096);
    const created = await admin().post(CONFIGMAPS, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' }, data: big });
    expect(created.status, created.text.slice(0, 300)).to.equal(201);
    expect(created.bytes.length).to.be.greaterThan(4 * MAX_COMPARED_VALUE_BYTES);

    const apply = (value: string) =>
      admin().request('PATCH', `${CONFIGMAPS}/big?fieldManager=big-apply`, {
        raw: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big', labels: { owner: value } } }),
        contentType: 'application/apply-patch+yaml',
      });
    const applied = await apply('a');
    expect(applied.status, applied.text.slice(0, 300)).to.equal(200);
    expect(applied.body.metadata.labels).to.deep.equal({ owner: 'a' });
    const again = await apply('a');
    expect(again.status, again.text.slice(0, 300)).to.equal(200);
    expect(again.body.metadata.resourceVersion).to.equal(applied.body.metadata.resourceVersion);

    const merged = await admin().patch(`${CONFIGMAPS}/big`, { data: { k00000: 'changed' } }, 'application/merge-patch+json');
    expect(merged.status, merged.text.slice(0, 300)).to.equal(200);
    expect(merged.body.data.k00000).to.equal('changed');
    expect(Number(merged.body.metadata.resourceVersion)).to.be.greaterThan(Number(applied.body.metadata.resourceVersion));

    const replaced = await admin().put(`${CONFIGMAPS}/big`, { ...merged.body, data: data(1_000, MAX_DATA_SIZE - 4_096, 'y') });
    expect(replaced.status, replaced.text.slice(0, 300)).to.equal(200);
    const got = await admin().get(`${CONFIGMAPS}/big`);
    expect(got.body.data.k00999).to.match(/^y+$/);
    expect(got.body.metadata.labels).to.deep.equal({ owner: 'a' });
    expect((await admin().delete(`${CONFIGMAPS}/big`)).status).to.equal(200);
  });

  // 1.7 MiB is refused by etcd itself (past 1.5 MiB), 2.5 MiB by its gRPC server (past 2 MiB).
  it('answers 413 for an object larger than etcd accepts, on create and on an update that grows it, and stores nothing', async () => {
    await createCRD(admin(), singleVersionCRD(GROUP, 'blobs', 'Blob', { type: 'object', [schemaExtension('preserve-unknown-fields')]: true }));
    const blob = (name: string, bytes: number) => ({ apiVersion: `${GROUP}/v1`, kind: 'Blob', metadata: { name }, payload: 'z'.repeat(bytes) });
    const tooLarge = await admin().post(BLOBS, blob('too-large', 1.7 * 1024 * 1024));
    expect(tooLarge.status, tooLarge.text.slice(0, 300)).to.equal(413);
    expect(tooLarge.body.reason).to.equal('RequestEntityTooLarge');
    expect(tooLarge.body.message).to.include('etcdserver: request is too large');
    expect((await admin().get(`${BLOBS}/too-large`)).status).to.equal(404);

    const grows = await admin().post(BLOBS, blob('grows', 1_000));
    expect(grows.status).to.equal(201);
    const grown = await admin().patch(`${BLOBS}/grows`, { payload: 'z'.repeat(2.5 * 1024 * 1024) }, 'application/merge-patch+json');
    expect(grown.status, grown.text.slice(0, 300)).to.equal(413);
    expect(grown.body.reason).to.equal('RequestEntityTooLarge');
    expect(grown.body.message).to.include('etcdserver: request is too large');
    const kept = await admin().get(`${BLOBS}/grows`);
    expect(kept.body.payload).to.have.length(1_000);
    expect(kept.body.metadata.resourceVersion).to.equal(grows.body.metadata.resourceVersion);
  });
});
