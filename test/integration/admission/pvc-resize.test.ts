import { expect } from 'chai';
import { STORAGE_GROUP } from '../../../lib/apis/storage/v1/group.js';
import { useTestServer } from '../../framework/test-server.js';

const CLAIMS = '/api/v1/namespaces/default/persistentvolumeclaims';
const CLASSES = `/apis/${STORAGE_GROUP}/v1/storageclasses`;
const MERGE = 'application/merge-patch+json';

const storageClass = (name: string, allowVolumeExpansion?: boolean) => ({
  apiVersion: `${STORAGE_GROUP}/v1`,
  kind: 'StorageClass',
  metadata: { name },
  provisioner: 'example.com/disk',
  ...(allowVolumeExpansion === undefined ? {} : { allowVolumeExpansion }),
});

describe('PersistentVolumeClaimResize admission against a real server (spec 001 § Admission control)', () => {
  const server = useTestServer({ admission: { plugins: ['NamespaceLifecycle', 'PersistentVolumeClaimResize'] } });

  before(async () => {
    for (const sc of [storageClass('grow', true), storageClass('fixed', false), storageClass('unset')]) {
      const res = await server().admin.post(CLASSES, sc);
      expect(res.status, res.text).to.equal(201);
    }
  });

  /** A claim of `storageClassName` requesting 1Gi, made Bound with that capacity. */
  async function boundClaim(name: string, storageClassName: string): Promise<void> {
    const spec = { accessModes: ['ReadWriteOnce'], storageClassName, resources: { requests: { storage: '1Gi' } } };
    const created = await server().admin.post(CLAIMS, { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name }, spec });
    expect(created.status, created.text).to.equal(201);
    const bound = await server().admin.put(`${CLAIMS}/${name}/status`, { ...created.body, status: { phase: 'Bound', capacity: { storage: '1Gi' } } });
    expect(bound.status, bound.text).to.equal(200);
  }

  const resize = (name: string, storage: string) => server().admin.patch(`${CLAIMS}/${name}`, { spec: { resources: { requests: { storage } } } }, MERGE);

  it('lets a bound claim grow when its StorageClass allows volume expansion', async () => {
    await boundClaim('grows', 'grow');
    const res = await resize('grows', '2Gi');
    expect(res.status, res.text).to.equal(200);
    expect(res.body.spec.resources.requests.storage).to.equal('2Gi');
  });

  it('refuses growing a claim whose StorageClass does not allow expansion, or says nothing', async () => {
    for (const [name, cls] of [['fixed-claim', 'fixed'], ['unset-claim', 'unset'], ['missing-claim', 'no-such-class']] as const) {
      await boundClaim(name, cls);
      const res = await resize(name, '2Gi');
      expect(res.status, res.text).to.equal(403);
      expect(res.body).to.deep.include({ kind: 'Status', status: 'Failure', reason: 'Forbidden', code: 403 });
      expect(res.body.message).to.equal(
        `persistentvolumeclaims "${name}" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize`,
      );
      expect(res.body.details).to.deep.equal({ name, kind: 'persistentvolumeclaims' });
    }
  });

  it('does not object to updates that do not grow the request', async () => {
    const same = await resize('fixed-claim', '1024Mi');
    expect(same.status, same.text).to.equal(200);
    const labelled = await server().admin.patch(`${CLAIMS}/fixed-claim`, { metadata: { labels: { a: 'b' } } }, MERGE);
    expect(labelled.status, labelled.text).to.equal(200);
  });
});
