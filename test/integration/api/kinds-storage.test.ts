import { expect } from 'chai';
import { STORAGE_GROUP } from '../../../lib/apis/storage/v1/index.js';
import { useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

const MERGE = 'application/merge-patch+json';
const STORAGE = `/apis/${STORAGE_GROUP}/v1`;
const CLASSES = `${STORAGE}/storageclasses`;
const DRIVERS = `${STORAGE}/csidrivers`;
const NODES = `${STORAGE}/csinodes`;
const ATTACHMENTS = `${STORAGE}/volumeattachments`;
const CAPACITIES = `${STORAGE}/namespaces/default/csistoragecapacities`;

const names = (res: { body: { items: { metadata: { name: string } }[] } }) => res.body.items.map((i) => i.metadata.name).sort();
const causes = (res: { body: { details: { causes: { field: string; message: string }[] } } }) => res.body.details.causes.map((c) => `${c.field}: ${c.message}`);
const attachment = (name: string, nodeName = 'node-1') => ({ metadata: { name }, spec: { attacher: 'csi.example.com', source: { persistentVolumeName: `pv-${name}` }, nodeName } });

describe('storage kinds over HTTP (issue #12)', () => {
  const server = useTestServer();

  it('discovery lists the five resources, their scopes, short names and the volumeattachments/status subresource', async () => {
    const res = await server().admin.get(STORAGE);
    expect(res.status).to.equal(200);
    const byName = Object.fromEntries(res.body.resources.map((r: { name: string }) => [r.name, r]));
    expect(res.body.resources.map((r: { name: string }) => r.name)).to.deep.equal([
      'csidrivers', 'csinodes', 'csistoragecapacities', 'storageclasses', 'volumeattachments', 'volumeattachments/status',
    ]);
    expect(byName.storageclasses).to.deep.include({ kind: 'StorageClass', namespaced: false, shortNames: ['sc'] });
    expect(byName.csistoragecapacities).to.deep.include({ kind: 'CSIStorageCapacity', namespaced: true });
    expect(byName['volumeattachments/status']).to.deep.include({ kind: 'VolumeAttachment', verbs: ['get', 'patch', 'update'] });
  });

  describe('StorageClass', () => {
    it('create (defaults visible), get, list, update, merge patch and delete', async () => {
      const created = await server().admin.post(CLASSES, { metadata: { name: 'fast' }, provisioner: 'csi.example.com', parameters: { type: 'ssd' } });
      expect(created.status, created.text).to.equal(201);
      expect(created.body).to.deep.include({ apiVersion: `${STORAGE_GROUP}/v1`, kind: 'StorageClass', reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' });
      expect(created.body.metadata.generation).to.equal(undefined);
      expect((await server().admin.get(`${CLASSES}/fast`)).body.provisioner).to.equal('csi.example.com');
      expect(names(await server().admin.get(CLASSES))).to.deep.equal(['fast']);
      const updated = await server().admin.put(`${CLASSES}/fast`, { ...created.body, mountOptions: ['noatime'] });
      expect(updated.status, updated.text).to.equal(200);
      expect(updated.body.mountOptions).to.deep.equal(['noatime']);
      const patched = await server().admin.patch(`${CLASSES}/fast`, { allowVolumeExpansion: true }, MERGE);
      expect(patched.status, patched.text).to.equal(200);
      expect(patched.body.allowVolumeExpansion).to.equal(true);
      expect((await server().admin.delete(`${CLASSES}/fast`)).status).to.equal(200);
      expect((await server().admin.get(`${CLASSES}/fast`)).status).to.equal(404);
    });

    it('a missing provisioner is 422; provisioner, parameters and reclaim policy may not change', async () => {
      const bad = await server().admin.post(CLASSES, { metadata: { name: 'bad' } });
      expect(bad.status).to.equal(422);
      expect(bad.body).to.include({ kind: 'Status', reason: 'Invalid' });
      expect(causes(bad)).to.deep.equal(['provisioner: Required value']);
      await server().admin.post(CLASSES, { metadata: { name: 'fixed' }, provisioner: 'a.example.com' });
      const res = await server().admin.patch(`${CLASSES}/fixed`, { provisioner: 'b.example.com', parameters: { x: 'y' }, reclaimPolicy: 'Retain' }, MERGE);
      expect(res.status).to.equal(422);
      expect(causes(res)).to.deep.equal([
        'parameters: Forbidden: updates to parameters are forbidden.',
        'provisioner: Forbidden: updates to provisioner are forbidden.',
        'reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden.',
      ]);
    });

    it('prints a table with the default class marked', async () => {
      await server().admin.post(CLASSES, { metadata: { name: 'std', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }, provisioner: 'p.example.com' });
      const res = await server().admin.get(`${CLASSES}/std`, { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.rows[0].cells.slice(0, 5)).to.deep.equal(['std (default)', 'p.example.com', 'Delete', 'Immediate', false]);
    });
  });

  describe('CSIDriver', () => {
    it('create with the upstream defaults, update, patch; attachRequired is immutable; a spec change bumps the generation', async () => {
      const created = await server().admin.post(DRIVERS, { metadata: { name: 'csi.example.com' }, spec: {} });
      expect(created.status, created.text).to.equal(201);
      expect(created.body.spec).to.deep.equal({
        attachRequired: true, podInfoOnMount: false, volumeLifecycleModes: ['Persistent'], storageCapacity: false,
        fsGroupPolicy: 'ReadWriteOnceWithFSType', requiresRepublish: false, seLinuxMount: false,
      });
      expect(created.body.metadata.generation).to.equal(undefined);
      const patched = await server().admin.patch(`${DRIVERS}/csi.example.com`, { spec: { podInfoOnMount: true } }, MERGE);
      expect(patched.status, patched.text).to.equal(200);
      expect(patched.body.metadata.generation).to.equal(1);
      const updated = await server().admin.put(`${DRIVERS}/csi.example.com`, { ...patched.body, spec: { ...patched.body.spec, attachRequired: false } });
      expect(updated.status).to.equal(422);
      expect(causes(updated)).to.deep.equal(['spec.attachedRequired: Invalid value: false: field is immutable']);
      expect((await server().admin.get(DRIVERS)).body.items).to.have.length(1);
      expect((await server().admin.delete(`${DRIVERS}/csi.example.com`)).status).to.equal(200);
    });

    it('an update without resourceVersion is refused', async () => {
      await server().admin.post(DRIVERS, { metadata: { name: 'cond.example.com' }, spec: {} });
      const res = await server().admin.put(`${DRIVERS}/cond.example.com`, { metadata: { name: 'cond.example.com' }, spec: { podInfoOnMount: true } });
      expect(res.status).to.equal(422);
      expect(res.body.message).to.include('metadata.resourceVersion');
    });
  });

  describe('CSINode', () => {
    it(`create, get, list, patch (drivers merge by name), delete; a registered driver is immutable${covers('000 § Patch content types (header `Content-Type`) › application/strategic-merge-patch+json')}`, async () => {
      const node = { metadata: { name: 'node-1' }, spec: { drivers: [{ name: 'a.example.com', nodeID: 'i-1', topologyKeys: ['zone'] }] } };
      const created = await server().admin.post(NODES, node);
      expect(created.status, created.text).to.equal(201);
      expect(names(await server().admin.get(NODES))).to.deep.equal(['node-1']);
      const added = await server().admin.patch(`${NODES}/node-1`, { spec: { drivers: [{ name: 'b.example.com', nodeID: 'i-1' }] } }, 'application/strategic-merge-patch+json');
      expect(added.status, added.text).to.equal(200);
      expect(added.body.spec.drivers.map((d: { name: string }) => d.name)).to.deep.equal(['a.example.com', 'b.example.com']);
      const changed = await server().admin.patch(`${NODES}/node-1`, { spec: { drivers: [{ name: 'a.example.com', nodeID: 'i-2' }] } }, 'application/strategic-merge-patch+json');
      expect(changed.status).to.equal(422);
      expect(causes(changed)[0]).to.match(/^spec\.drivers: Invalid value: .*"nodeID":"i-2".*: field is immutable$/);
      expect((await server().admin.delete(`${NODES}/node-1`)).status).to.equal(200);
    });
  });

  describe('VolumeAttachment', () => {
    it('create (status reset), get, list, patch metadata, delete; the spec is immutable', async () => {
      const created = await server().admin.post(ATTACHMENTS, { ...attachment('va-1'), status: { attached: true } });
      expect(created.status, created.text).to.equal(201);
      expect(created.body.status).to.deep.equal({ attached: false });
      expect((await server().admin.get(`${ATTACHMENTS}/va-1`)).body.spec.nodeName).to.equal('node-1');
      expect(names(await server().admin.get(ATTACHMENTS))).to.deep.equal(['va-1']);
      const labelled = await server().admin.patch(`${ATTACHMENTS}/va-1`, { metadata: { labels: { a: 'b' } } }, MERGE);
      expect(labelled.status, labelled.text).to.equal(200);
      const moved = await server().admin.patch(`${ATTACHMENTS}/va-1`, { spec: { nodeName: 'node-2' } }, MERGE);
      expect(moved.status).to.equal(422);
      expect(causes(moved)[0]).to.match(/^spec: Invalid value: .*: field is immutable$/);
      expect((await server().admin.delete(`${ATTACHMENTS}/va-1`)).status).to.equal(200);
    });

    it('the status subresource writes only the status; main writes keep it', async () => {
      await server().admin.post(ATTACHMENTS, attachment('va-2'));
      const res = await server().admin.patch(`${ATTACHMENTS}/va-2/status`, { status: { attached: true, attachmentMetadata: { dev: '/dev/xvdf' } }, spec: { nodeName: 'ignored' } }, MERGE);
      expect(res.status, res.text).to.equal(200);
      expect(res.body.status).to.deep.equal({ attached: true, attachmentMetadata: { dev: '/dev/xvdf' } });
      expect(res.body.spec.nodeName).to.equal('node-1');
      expect((await server().admin.get(`${ATTACHMENTS}/va-2/status`)).body.status.attached).to.equal(true);
      const main = await server().admin.patch(`${ATTACHMENTS}/va-2`, { status: { attached: false } }, MERGE);
      expect(main.status, main.text).to.equal(200);
      expect(main.body.status.attached).to.equal(true);
      const bad = await server().admin.patch(`${ATTACHMENTS}/va-2/status`, { status: { attachError: { message: 'e'.repeat(1025) } } }, MERGE);
      expect(bad.status).to.equal(422);
      expect(causes(bad)).to.deep.equal(['status.attachError.message: Too long: may not be more than 262144 bytes']);
    });

    it('a status PUT without resourceVersion is refused as a main PUT is (no unconditional update); with it, only the status changes', async () => {
      const created = (await server().admin.post(ATTACHMENTS, attachment('va-4'))).body;
      const { resourceVersion: _rv, ...metadata } = created.metadata;
      const unconditional = await server().admin.put(`${ATTACHMENTS}/va-4/status`, { ...created, metadata, status: { attached: true } });
      expect(unconditional.status).to.equal(422);
      expect(unconditional.body.message).to.equal(`volumeattachments.${STORAGE_GROUP} "va-4" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update`);
      expect(unconditional.body.details).to.deep.include({ name: 'va-4', group: STORAGE_GROUP, kind: 'volumeattachments' });
      expect(causes(unconditional)).to.deep.equal(['metadata.resourceVersion: Invalid value: 0x0: must be specified for an update']);
      const main = await server().admin.put(`${ATTACHMENTS}/va-4`, { ...created, metadata });
      expect(main.status).to.equal(422);
      expect(main.body.message).to.equal(unconditional.body.message);
      const conditional = await server().admin.put(`${ATTACHMENTS}/va-4/status`, { ...created, spec: {}, status: { attached: true } });
      expect(conditional.status, conditional.text).to.equal(200);
      expect(conditional.body.status).to.deep.equal({ attached: true });
      expect(conditional.body.spec).to.deep.equal(created.spec);
    });

    it('a source naming no volume is 422 with the upstream cause', async () => {
      const res = await server().admin.post(ATTACHMENTS, { metadata: { name: 'va-3' }, spec: { attacher: 'csi.example.com', source: {}, nodeName: 'node-1' } });
      expect(res.status).to.equal(422);
      expect(causes(res)).to.deep.equal(['spec.source: Required value: must specify exactly one of inlineVolumeSpec and persistentVolumeName']);
    });
  });

  describe('CSIStorageCapacity', () => {
    it('create, get, list, update, patch, delete; the storage class name is required and immutable', async () => {
      const missing = await server().admin.post(CAPACITIES, { metadata: { name: 'c0' } });
      expect(missing.status).to.equal(422);
      expect(causes(missing)).to.deep.equal(['storageClassName: Required value']);
      const created = await server().admin.post(CAPACITIES, { metadata: { name: 'c1' }, storageClassName: 'fast', capacity: '10Gi' });
      expect(created.status, created.text).to.equal(201);
      expect(created.body.capacity).to.equal('10Gi');
      expect(names(await server().admin.get(CAPACITIES))).to.deep.equal(['c1']);
      expect(names(await server().admin.get(`${STORAGE}/csistoragecapacities`))).to.deep.equal(['c1']);
      const updated = await server().admin.put(`${CAPACITIES}/c1`, { ...created.body, maximumVolumeSize: '1Gi' });
      expect(updated.status, updated.text).to.equal(200);
      const renamed = await server().admin.patch(`${CAPACITIES}/c1`, { storageClassName: 'slow' }, MERGE);
      expect(renamed.status).to.equal(422);
      expect(causes(renamed)).to.deep.equal(['storageClassName: Invalid value: "slow": field is immutable']);
      expect((await server().admin.delete(`${CAPACITIES}/c1`)).status).to.equal(200);
    });
  });
});
