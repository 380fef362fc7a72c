import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { PVC_PROTECTION_FINALIZER, PV_PROTECTION_FINALIZER } from '../../../lib/apis/vendor.js';
import { useTestServer } from '../../framework/test-server.js';

const NS = 'default';
const CLAIMS = `/api/v1/namespaces/${NS}/persistentvolumeclaims`;
const PODS = `/api/v1/namespaces/${NS}/pods`;
const VOLUMES = '/api/v1/persistentvolumes';

const claim = (name: string) => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
});
const volume = (name: string) => ({
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: { name },
  spec: { accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' }, hostPath: { path: `/data/${name}` } },
});
const podUsing = (name: string, claimName: string, nodeName?: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'c', image: 'busybox' }], volumes: [{ name: 'data', persistentVolumeClaim: { claimName } }] },
});

describe('StorageObjectInUseProtection with the PVC and PV protection controllers against a real server (spec 001 § Admission control)', () => {
  const server = useTestServer({
    admission: { plugins: ['NamespaceLifecycle', 'StorageObjectInUseProtection'] },
    controllers: ['pvc-protection', 'pv-protection'],
  });

  /** Polls until GET `path` answers 404 (10 s at most). */
  async function untilGone(path: string): Promise<void> {
    for (let i = 0; i < 200; i++) {
      if ((await server().admin.get(path)).status === 404) return;
      await sleep(50);
    }
    throw new Error(`${path} still exists after 10s`);
  }

  async function create(path: string, body: unknown) {
    const res = await server().admin.post(path, body);
    expect(res.status, res.text).to.equal(201);
    return res.body;
  }

  it('puts the protection finalizer on every new claim and volume, once', async () => {
    expect((await create(CLAIMS, claim('fin'))).metadata.finalizers).to.deep.equal([PVC_PROTECTION_FINALIZER]);
    const own = { ...claim('fin2'), metadata: { name: 'fin2', finalizers: ['example.com/keep', PVC_PROTECTION_FINALIZER] } };
    expect((await create(CLAIMS, own)).metadata.finalizers).to.deep.equal(['example.com/keep', PVC_PROTECTION_FINALIZER]);
    expect((await create(VOLUMES, volume('fin-pv'))).metadata.finalizers).to.deep.equal([PV_PROTECTION_FINALIZER]);
  });

  it('deletes a claim no pod uses right after the delete', async () => {
    await create(CLAIMS, claim('unused'));
    const del = await server().admin.delete(`${CLAIMS}/unused`);
    expect(del.status, del.text).to.equal(200);
    await untilGone(`${CLAIMS}/unused`);
  });

  it('keeps a deleted claim that a scheduled pod uses until the pod is gone', async () => {
    await create(CLAIMS, claim('in-use'));
    await create(PODS, podUsing('user', 'in-use', 'node-1'));
    const del = await server().admin.delete(`${CLAIMS}/in-use`);
    expect(del.status, del.text).to.equal(200);
    expect(del.body.metadata.deletionTimestamp).to.be.a('string');
    await sleep(500);
    const kept = await server().admin.get(`${CLAIMS}/in-use`);
    expect(kept.status, kept.text).to.equal(200);
    expect(kept.body.metadata.finalizers).to.deep.equal([PVC_PROTECTION_FINALIZER]);
    expect(kept.body.metadata.deletionTimestamp).to.be.a('string');

    const podGone = await server().admin.delete(`${PODS}/user?gracePeriodSeconds=0`);
    expect(podGone.status, podGone.text).to.equal(200);
    await untilGone(`${CLAIMS}/in-use`);
  });

  it('lets a claim go when the pod that names it is not scheduled (upstream: only scheduled pods count)', async () => {
    await create(CLAIMS, claim('pending-user'));
    await create(PODS, podUsing('unscheduled', 'pending-user'));
    expect((await server().admin.delete(`${CLAIMS}/pending-user`)).status).to.equal(200);
    await untilGone(`${CLAIMS}/pending-user`);
  });

  it('keeps a deleted volume while it is Bound and removes it once it is released', async () => {
    const pv = await create(VOLUMES, volume('bound-pv'));
    const bound = await server().admin.put(`${VOLUMES}/bound-pv/status`, { ...pv, status: { phase: 'Bound' } });
    expect(bound.status, bound.text).to.equal(200);
    expect((await server().admin.delete(`${VOLUMES}/bound-pv`)).status).to.equal(200);
    await sleep(500);
    const kept = await server().admin.get(`${VOLUMES}/bound-pv`);
    expect(kept.status, kept.text).to.equal(200);
    expect(kept.body.metadata.finalizers).to.deep.equal([PV_PROTECTION_FINALIZER]);

    const released = await server().admin.put(`${VOLUMES}/bound-pv/status`, { ...kept.body, status: { phase: 'Released' } });
    expect(released.status, released.text).to.equal(200);
    await untilGone(`${VOLUMES}/bound-pv`);
  });

  it('deletes a volume that is not Bound right after the delete', async () => {
    await create(VOLUMES, volume('free-pv'));
    expect((await server().admin.delete(`${VOLUMES}/free-pv`)).status).to.equal(200);
    await untilGone(`${VOLUMES}/free-pv`);
  });
});
