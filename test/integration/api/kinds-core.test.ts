import { expect } from 'chai';
import { META_GROUP, OPENAPI_DEFINITION_PREFIX } from '../../../lib/apis/vendor.js';
import { useTestServer } from '../../framework/test-server.js';

const NS = '/api/v1/namespaces/default';
const PVS = '/api/v1/persistentvolumes';
const MERGE = 'application/merge-patch+json';
const TABLE = `application/json;as=Table;g=${META_GROUP};v=v1`;
const DEF = `${OPENAPI_DEFINITION_PREFIX}api.core.v1.`;

type Obj = Record<string, unknown>;
const limitRange = (name: string): Obj => ({
  apiVersion: 'v1',
  kind: 'LimitRange',
  metadata: { name },
  spec: { limits: [{ type: 'Container', max: { cpu: '2' }, min: { cpu: '100m' }, default: { cpu: '500m' }, defaultRequest: { cpu: '250m' } }] },
});
const claim = (name: string): Obj => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
});
const volume = (name: string): Obj => ({
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: { name },
  spec: { capacity: { storage: '10Gi' }, accessModes: ['ReadWriteOnce'], nfs: { server: 'nfs.example.com', path: '/exports' } },
});
const podTemplate = (name: string): Obj => ({
  apiVersion: 'v1',
  kind: 'PodTemplate',
  metadata: { name },
  template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] } },
});
const quota = (name: string): Obj => ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name }, spec: { hard: { pods: '10', 'requests.cpu': '4' } } });

/** One kind of the suite: its collection, a valid object factory, whether a delete returns the object, its status. */
interface Case {
  kind: string;
  collection: string;
  make: (name: string) => Obj;
  returnsDeleted: boolean;
  status?: Obj;
}

const CASES: Case[] = [
  { kind: 'LimitRange', collection: `${NS}/limitranges`, make: limitRange, returnsDeleted: false },
  { kind: 'PersistentVolumeClaim', collection: `${NS}/persistentvolumeclaims`, make: claim, returnsDeleted: true, status: { phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' } } },
  { kind: 'PersistentVolume', collection: PVS, make: volume, returnsDeleted: true, status: { phase: 'Available' } },
  { kind: 'PodTemplate', collection: `${NS}/podtemplates`, make: podTemplate, returnsDeleted: true },
  { kind: 'ResourceQuota', collection: `${NS}/resourcequotas`, make: quota, returnsDeleted: true, status: { hard: { pods: '10' }, used: { pods: '2' } } },
];

describe('core/v1 LimitRange, PersistentVolumeClaim, PersistentVolume, PodTemplate, ResourceQuota over HTTP (issue #12 item 1)', () => {
  const server = useTestServer();

  it('discovery lists the resources with upstream scope, short names and status subresources', async () => {
    const res = await server().admin.get('/api/v1');
    expect(res.status).to.equal(200);
    const byName = new Map<string, Obj>(res.body.resources.map((r: Obj) => [r.name, r]));
    expect(byName.get('limitranges')).to.deep.include({ kind: 'LimitRange', namespaced: true, shortNames: ['limits'], singularName: 'limitrange' });
    expect(byName.get('persistentvolumeclaims')).to.deep.include({ kind: 'PersistentVolumeClaim', namespaced: true, shortNames: ['pvc'] });
    expect(byName.get('persistentvolumes')).to.deep.include({ kind: 'PersistentVolume', namespaced: false, shortNames: ['pv'] });
    expect(byName.get('resourcequotas')).to.deep.include({ kind: 'ResourceQuota', namespaced: true, shortNames: ['quota'] });
    expect(byName.get('podtemplates')).to.include({ kind: 'PodTemplate', namespaced: true });
    expect(byName.get('podtemplates')).not.to.have.property('shortNames');
    for (const r of ['limitranges', 'persistentvolumeclaims', 'persistentvolumes', 'podtemplates', 'resourcequotas']) expect(byName.get(r), r).not.to.have.property('categories');
    for (const r of ['persistentvolumeclaims', 'persistentvolumes', 'resourcequotas']) expect(byName.has(`${r}/status`), r).to.equal(true);
    for (const r of ['limitranges', 'podtemplates']) expect(byName.has(`${r}/status`), r).to.equal(false);
  });

  it('publishes the schemas in the OpenAPI v3 document of core/v1', async () => {
    const doc = (await server().admin.get('/openapi/v3/api/v1')).body;
    const schemas = doc.components.schemas as Record<string, { properties: Obj; required?: string[] }>;
    for (const kind of ['LimitRange', 'PersistentVolume', 'PersistentVolumeClaim', 'PodTemplate', 'ResourceQuota']) expect(schemas, kind).to.have.property(`${DEF}${kind}`);
    const pvSpec = schemas[`${DEF}PersistentVolumeSpec`]!;
    expect(pvSpec.properties).to.include.keys('capacity', 'nfs', 'local', 'csi', 'claimRef', 'nodeAffinity', 'volumeAttributesClassName');
    expect(schemas[`${DEF}CSIPersistentVolumeSource`]!.required).to.deep.equal(['driver', 'volumeHandle']);
    expect(doc.paths).to.have.property('/api/v1/persistentvolumes/{name}/status');
  });

  for (const c of CASES) {
    describe(`${c.kind}: create, get, list, update, patch, delete`, () => {
      it('creates (201), gets, lists, updates, patches and deletes', async () => {
        const admin = server().admin;
        const created = await admin.post(c.collection, c.make('crud'));
        expect(created.status, created.text).to.equal(201);
        expect(created.body).to.include({ kind: c.kind, apiVersion: 'v1' });
        const path = `${c.collection}/crud`;
        expect((await admin.get(path)).body.metadata.uid).to.equal(created.body.metadata.uid);
        const list = await admin.get(c.collection);
        expect(list.body.kind).to.equal(`${c.kind}List`);
        expect(list.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).to.include('crud');
        const labelled = { ...created.body, metadata: { ...created.body.metadata, labels: { put: 'yes' } } };
        const put = await admin.put(path, labelled);
        expect(put.status, put.text).to.equal(200);
        expect(put.body.metadata.labels.put).to.equal('yes');
        const patched = await admin.patch(path, { metadata: { annotations: { patched: 'yes' } } }, MERGE);
        expect(patched.status, patched.text).to.equal(200);
        expect(patched.body.metadata.annotations.patched).to.equal('yes');
        const deleted = await admin.delete(path);
        expect(deleted.status).to.equal(200);
        expect(deleted.body.kind).to.equal(c.returnsDeleted ? c.kind : 'Status');
        expect((await admin.get(path)).status).to.equal(404);
      });

      if (c.status) {
        it('writes status only through the status subresource; main writes keep it', async () => {
          const admin = server().admin;
          const created = (await admin.post(c.collection, { ...c.make('status'), status: c.status })).body;
          expect(created.status).not.to.deep.include(c.status);
          const path = `${c.collection}/status`;
          const written = await admin.put(`${path}/status`, { ...created, status: c.status });
          expect(written.status, written.text).to.equal(200);
          expect(written.body.status).to.deep.include(c.status);
          const main = await admin.put(path, { ...written.body, status: {} });
          expect(main.status, main.text).to.equal(200);
          expect(main.body.status).to.deep.include(c.status);
        });
      }
    });
  }

  describe('defaults and server-set fields', () => {
    it('a claim gets volumeMode Filesystem and phase Pending, without a generation', async () => {
      const res = await server().admin.post(`${NS}/persistentvolumeclaims`, { ...claim('defaults'), status: { phase: 'Bound' } });
      expect(res.status, res.text).to.equal(201);
      expect(res.body.spec).to.deep.include({ volumeMode: 'Filesystem' });
      expect(res.body.status).to.deep.equal({ phase: 'Pending' });
      expect(res.body.metadata).not.to.have.property('generation');
    });

    it('a volume gets Retain, Filesystem and phase Pending with its transition time', async () => {
      const res = await server().admin.post(PVS, volume('defaults'));
      expect(res.status, res.text).to.equal(201);
      expect(res.body.spec).to.deep.include({ persistentVolumeReclaimPolicy: 'Retain', volumeMode: 'Filesystem' });
      expect(res.body.status.phase).to.equal('Pending');
      expect(res.body.status.lastPhaseTransitionTime).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    });

    it('a status write that changes the phase stamps a new transition time', async () => {
      const created = (await server().admin.post(PVS, volume('phase'))).body;
      const stale = { ...created, status: { phase: 'Available', lastPhaseTransitionTime: '2020-01-01T00:00:00Z' } };
      const kept = await server().admin.put(`${PVS}/phase/status`, stale);
      expect(kept.body.status.lastPhaseTransitionTime).to.equal('2020-01-01T00:00:00Z');
      const changed = await server().admin.patch(`${PVS}/phase/status`, { status: { phase: 'Bound' } }, MERGE);
      expect(changed.status, changed.text).to.equal(200);
      expect(changed.body.status.lastPhaseTransitionTime).not.to.equal('2020-01-01T00:00:00Z');
    });

    it('a claim’s dataSource is copied to dataSourceRef; disabled-feature fields are dropped', async () => {
      const body = claim('sources');
      Object.assign(body.spec as Obj, { dataSource: { kind: 'PersistentVolumeClaim', name: 'seed' }, volumeAttributesClassName: 'gold' });
      const res = await server().admin.post(`${NS}/persistentvolumeclaims`, body);
      expect(res.status, res.text).to.equal(201);
      expect(res.body.spec.dataSourceRef).to.deep.equal({ kind: 'PersistentVolumeClaim', name: 'seed', apiGroup: null });
      expect(res.body.spec).not.to.have.property('volumeAttributesClassName');
    });

    it('a pod template starts at generation 1 and bumps it on template changes only', async () => {
      const admin = server().admin;
      expect((await admin.post(`${NS}/podtemplates`, podTemplate('gen'))).body.metadata.generation).to.equal(1);
      expect((await admin.patch(`${NS}/podtemplates/gen`, { metadata: { labels: { x: 'y' } } }, MERGE)).body.metadata.generation).to.equal(1);
      const image = await admin.patch(`${NS}/podtemplates/gen`, { template: { spec: { containers: [{ name: 'c', image: 'nginx:1.26' }] } } }, MERGE);
      expect(image.body.metadata.generation).to.equal(2);
    });

    it('a PUT may create a limit range', async () => {
      const res = await server().admin.put(`${NS}/limitranges/put-created`, limitRange('put-created'));
      expect(res.status, res.text).to.equal(201);
    });

    it('warns about the deprecated Recycle reclaim policy', async () => {
      const body = volume('recycle');
      (body.spec as Obj).persistentVolumeReclaimPolicy = 'Recycle';
      const res = await server().admin.post(PVS, body);
      expect(res.status, res.text).to.equal(201);
      expect(res.headers.warning).to.include('spec.persistentVolumeReclaimPolicy: The Recycle reclaim policy is deprecated.');
    });
  });

  describe('422 Invalid with causes', () => {
    const invalid: Array<[string, string, Obj, Array<{ field: string; reason: string; message: string }>]> = [
      ['a claim without a storage request', `${NS}/persistentvolumeclaims`, { ...claim('bad'), spec: { accessModes: ['ReadWriteOnce'] } }, [
        { field: 'spec.resources[storage]', reason: 'FieldValueRequired', message: 'Required value' },
      ]],
      ['a volume with two sources', PVS, { ...volume('bad'), spec: { ...(volume('bad').spec as Obj), hostPath: { path: '/data' } } }, [
        { field: 'spec.nfs', reason: 'FieldValueForbidden', message: 'Forbidden: may not specify more than 1 volume type' },
      ]],
      ['a limit range with min above max', `${NS}/limitranges`, { ...limitRange('bad'), spec: { limits: [{ type: 'Container', min: { cpu: '2' }, max: { cpu: '1' } }] } }, [
        { field: 'spec.limits[0].min[cpu]', reason: 'FieldValueInvalid', message: 'Invalid value: "2": min value 2 is greater than max value 1' },
        // the defaults taken from max before validation, as upstream
        { field: 'spec.limits[0].defaultRequest[cpu]', reason: 'FieldValueInvalid', message: 'Invalid value: "1": min value 2 is greater than default request value 1' },
        { field: 'spec.limits[0].default[cpu]', reason: 'FieldValueInvalid', message: 'Invalid value: "2": min value 2 is greater than default value 1' },
      ]],
      ['a quota with an unsupported scope', `${NS}/resourcequotas`, { ...quota('bad'), spec: { hard: { pods: '1' }, scopes: ['Soon'] } }, [
        { field: 'spec.scopes', reason: 'FieldValueInvalid', message: 'Invalid value: ["Soon"]: unsupported scope' },
      ]],
    ];
    for (const [name, collection, body, causes] of invalid) {
      it(name, async () => {
        const res = await server().admin.post(collection, body);
        expect(res.status, res.text).to.equal(422);
        expect(res.body).to.include({ kind: 'Status', reason: 'Invalid' });
        expect(res.body.details.causes).to.deep.equal(causes);
      });
    }

    it('a claim’s spec is immutable except the requests of a bound claim', async () => {
      const admin = server().admin;
      const created = (await admin.post(`${NS}/persistentvolumeclaims`, claim('immutable'))).body;
      const res = await admin.put(`${NS}/persistentvolumeclaims/immutable`, { ...created, spec: { ...created.spec, accessModes: ['ReadOnlyMany'] } });
      expect(res.status, res.text).to.equal(422);
      expect(res.body.details.causes[0].field).to.equal('spec');
      expect(res.body.details.causes[0].message).to.match(/^Forbidden: spec is immutable after creation except resources\.requests and volumeAttributesClassName for bound claims\n/);
    });

    it('a volume’s source is immutable', async () => {
      const admin = server().admin;
      const created = (await admin.post(PVS, volume('immutable'))).body;
      const res = await admin.patch(`${PVS}/immutable`, { spec: { nfs: { server: 'other' } } }, MERGE);
      expect(res.status, res.text).to.equal(422);
      expect(res.body.details.causes[0].field).to.equal('spec.persistentvolumesource');
      expect(created.spec.nfs.server).to.equal('nfs.example.com');
    });
  });

  describe('field selectors and tables', () => {
    it('selects volumes by metadata.name and refuses other fields', async () => {
      const admin = server().admin;
      await admin.post(PVS, volume('sel-a'));
      await admin.post(PVS, volume('sel-b'));
      const res = await admin.get(`${PVS}?fieldSelector=metadata.name%3Dsel-b`);
      expect(res.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).to.deep.equal(['sel-b']);
      const bad = await admin.get(`${NS}/persistentvolumeclaims?fieldSelector=spec.volumeName%3Dpv`);
      expect(bad.status).to.equal(400);
      expect(bad.body.message).to.equal('field label not supported: spec.volumeName');
    });

    it('prints volumes and claims with the upstream columns', async () => {
      const admin = server().admin;
      await admin.post(PVS, volume('table'));
      const pv = await admin.get(`${PVS}/table`, { headers: { Accept: TABLE } });
      expect(pv.body.columnDefinitions.map((c: { name: string }) => c.name)).to.deep.equal([
        'Name', 'Capacity', 'Access Modes', 'Reclaim Policy', 'Status', 'Claim', 'StorageClass', 'VolumeAttributesClass', 'Reason', 'Age', 'VolumeMode',
      ]);
      expect(pv.body.rows[0].cells.slice(0, 9)).to.deep.equal(['table', '10Gi', 'RWO', 'Retain', 'Pending', '', '', '<unset>', '']);
      await admin.post(`${NS}/persistentvolumeclaims`, claim('table'));
      const pvc = await admin.get(`${NS}/persistentvolumeclaims/table`, { headers: { Accept: TABLE } });
      expect(pvc.body.rows[0].cells.slice(0, 7)).to.deep.equal(['table', 'Pending', '', '', '', '', '<unset>']);
    });
  });
});
