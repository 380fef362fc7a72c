/**
 * Optional strings whose empty value means something (upstream `*string` fields with omitempty,
 * issue #12): an explicit `""` is stored and read back, in JSON and protobuf; an absent one stays
 * absent. A claim's `storageClassName: ""` asks for no class (not the default one).
 */
import { expect } from 'chai';
import { COORDINATION_GROUP } from '../../../lib/apis/coordination/v1/index.js';
import { persistentVolumeClaim } from '../../../lib/apis/core/v1/persistent-volume-claim.js';
import { decodeProtobuf, encodeProtobuf } from '../../../lib/apimachinery/serializers/protobuf/index.js';
import { useTestServer } from '../../framework/test-server.js';

const CLAIMS = '/api/v1/namespaces/default/persistentvolumeclaims';
const SETS = '/apis/apps/v1/namespaces/default/statefulsets';
const LEASES = `/apis/${COORDINATION_GROUP}/v1/namespaces/default/leases`;
const PB = 'application/vnd.orch.protobuf';
const MERGE = 'application/merge-patch+json';

const claimSpec = (extra: Record<string, unknown> = {}) => ({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...extra });
const resolveClaim = (_apiVersion: string, kind: string) => (kind === 'PersistentVolumeClaim' ? persistentVolumeClaim.schema : undefined);

describe('optional strings that keep "" (pointer fields, issue #12)', () => {
  const server = useTestServer();

  it('a claim with storageClassName "" reads back with it, in JSON and protobuf; without one it has none', async () => {
    const created = await server().admin.post(CLAIMS, { metadata: { name: 'no-class' }, spec: claimSpec({ storageClassName: '' }) });
    expect(created.status, created.text).to.equal(201);
    expect(created.body.spec).to.have.property('storageClassName', '');
    expect(created.body.metadata.managedFields[0].fieldsV1['f:spec']).to.have.property('f:storageClassName');
    const got = await server().admin.get(`${CLAIMS}/no-class`);
    expect(got.body.spec).to.have.property('storageClassName', '');
    expect(got.text).to.include('"storageClassName":"","volumeMode":"Filesystem"');
    const pb = await server().admin.get(`${CLAIMS}/no-class`, { headers: { Accept: PB } });
    expect(pb.status).to.equal(200);
    expect((decodeProtobuf(pb.bytes, resolveClaim).object.spec as Record<string, unknown>).storageClassName).to.equal('');
    const listed = (await server().admin.get(CLAIMS)).body.items.find((c: { metadata: { name: string } }) => c.metadata.name === 'no-class');
    expect(listed.spec.storageClassName).to.equal('');

    const labelled = await server().admin.patch(`${CLAIMS}/no-class`, { metadata: { labels: { a: 'b' } } }, MERGE);
    expect(labelled.status, labelled.text).to.equal(200);
    expect(labelled.body.spec.storageClassName).to.equal('');

    const unset = await server().admin.post(CLAIMS, { metadata: { name: 'unset-class' }, spec: claimSpec() });
    expect(unset.status, unset.text).to.equal(201);
    expect(unset.body.spec).to.not.have.property('storageClassName');
    expect((await server().admin.get(`${CLAIMS}/unset-class`)).body.spec).to.not.have.property('storageClassName');
  });

  it('a server-side apply of storageClassName "" sets and owns it', async () => {
    const applied = await server().admin.patch(
      `${CLAIMS}/applied?fieldManager=tool`,
      { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'applied' }, spec: claimSpec({ storageClassName: '' }) },
      'application/apply-patch+yaml',
    );
    expect(applied.status, applied.text).to.equal(201);
    expect(applied.body.spec.storageClassName).to.equal('');
    expect(applied.body.metadata.managedFields[0]).to.deep.include({ manager: 'tool', operation: 'Apply' });
    expect(applied.body.metadata.managedFields[0].fieldsV1['f:spec']).to.have.property('f:storageClassName');
  });

  it('a claim created from a protobuf body with storageClassName "" keeps it', async () => {
    const body = encodeProtobuf({ metadata: { name: 'pb-no-class' }, spec: claimSpec({ storageClassName: '' }) }, { apiVersion: 'v1', kind: 'PersistentVolumeClaim', schema: persistentVolumeClaim.schema });
    const res = await server().admin.request('POST', CLAIMS, { raw: body, contentType: PB });
    expect(res.status, res.text).to.equal(201);
    expect(res.body.spec.storageClassName).to.equal('');
  });

  it('a StatefulSet claim template keeps storageClassName ""', async () => {
    const labels = { app: 'db' };
    const set = {
      metadata: { name: 'db' },
      spec: {
        selector: { matchLabels: labels },
        serviceName: 'db',
        template: { metadata: { labels }, spec: { containers: [{ name: 'db', image: 'db:1' }] } },
        volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: claimSpec({ storageClassName: '' }) }],
      },
    };
    const created = await server().admin.post(SETS, set);
    expect(created.status, created.text).to.equal(201);
    expect(created.body.spec.volumeClaimTemplates[0].spec.storageClassName).to.equal('');
    expect((await server().admin.get(`${SETS}/db`)).body.spec.volumeClaimTemplates[0].spec.storageClassName).to.equal('');
  });

  it('a released Lease keeps holderIdentity "" (what leader election writes on release)', async () => {
    const created = await server().admin.post(LEASES, { metadata: { name: 'leader' }, spec: { holderIdentity: '', leaseDurationSeconds: 1 } });
    expect(created.status, created.text).to.equal(201);
    expect(created.body.spec).to.deep.equal({ holderIdentity: '', leaseDurationSeconds: 1 });
    expect((await server().admin.get(`${LEASES}/leader`)).body.spec.holderIdentity).to.equal('');
  });
});
