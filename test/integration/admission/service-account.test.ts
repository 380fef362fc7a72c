import { expect } from 'chai';
import { ENFORCE_MOUNTABLE_SECRETS_ANNOTATION, MIRROR_POD_ANNOTATION, ROOT_CA_CONFIGMAP_NAME, SERVICE_ACCOUNT_TOKEN_MOUNT_PATH } from '../../../lib/apis/vendor.js';
import { useTestServer } from '../../framework/test-server.js';

const NS = 'default';
const PODS = `/api/v1/namespaces/${NS}/pods`;
const pod = (name: string, spec: Record<string, unknown> = {}, meta: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, ...meta },
  spec: { containers: [{ name: 'c', image: 'busybox' }], ...spec },
});
const serviceAccount = (name: string, extra: Record<string, unknown> = {}, annotations?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'ServiceAccount',
  metadata: { name, ...(annotations && { annotations }) },
  ...extra,
});

describe('ServiceAccount admission against a real server (spec 001 § Admission control)', () => {
  const server = useTestServer({ admission: { plugins: ['NamespaceLifecycle', 'ServiceAccount'] } });

  before(async () => {
    for (const sa of [
      serviceAccount('default'),
      serviceAccount('quiet', { automountServiceAccountToken: false, imagePullSecrets: [{ name: 'regcred' }] }),
      serviceAccount('strict', { secrets: [{ name: 'allowed' }] }, { [ENFORCE_MOUNTABLE_SECRETS_ANNOTATION]: 'true' }),
    ]) {
      const res = await server().admin.post(`/api/v1/namespaces/${NS}/serviceaccounts`, sa);
      expect(res.status, res.text).to.equal(201);
    }
  });

  it('defaults the service account and mounts the projected token volume in every container', async () => {
    const res = await server().admin.post(PODS, pod('s1', { initContainers: [{ name: 'init', image: 'busybox' }] }));
    expect(res.status, res.text).to.equal(201);
    const spec = res.body.spec;
    expect(spec.serviceAccountName).to.equal('default');
    expect(spec.volumes).to.have.length(1);
    const volume = spec.volumes[0];
    expect(volume.name).to.match(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(volume.projected).to.deep.equal({
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: ROOT_CA_CONFIGMAP_NAME, items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
      defaultMode: 420,
    });
    const mount = { name: volume.name, readOnly: true, mountPath: SERVICE_ACCOUNT_TOKEN_MOUNT_PATH };
    expect(spec.initContainers[0].volumeMounts).to.deep.equal([mount]);
    expect(spec.containers[0].volumeMounts).to.deep.equal([mount]);
    expect((await server().admin.get(`${PODS}/s1`)).body.spec.volumes).to.deep.equal(spec.volumes);
  });

  it('leaves what it adds out of the managed fields (they are recorded before admission, as upstream)', async () => {
    for (const [verb, send] of [
      ['create', () => server().admin.post(PODS, pod('mf'))],
      ['update', async () => {
        const cur = (await server().admin.get(`${PODS}/mf`)).body;
        return server().admin.put(`${PODS}/mf`, { ...cur, metadata: { ...cur.metadata, labels: { a: 'b' } } });
      }],
    ] as const) {
      const res = await send();
      expect(res.status, `${verb}: ${res.text}`).to.be.oneOf([200, 201]);
      const fields = JSON.stringify(res.body.metadata.managedFields);
      expect(fields, verb).to.include('"f:containers"');
      for (const added of ['f:volumes', 'f:serviceAccountName', 'f:volumeMounts']) expect(fields, `${verb} ${added}`).to.not.include(added);
    }
  });

  it('runs on dry-run creates', async () => {
    const res = await server().admin.post(`${PODS}?dryRun=All`, pod('s2'));
    expect(res.status, res.text).to.equal(201);
    expect(res.body.spec.serviceAccountName).to.equal('default');
    expect(res.body.spec.volumes[0].name).to.match(/^kube-api-access-/);
    expect((await server().admin.get(`${PODS}/s2`)).status).to.equal(404);
  });

  it('mounts nothing when the service account opts out, and copies its image pull secrets', async () => {
    const res = await server().admin.post(PODS, pod('s3', { serviceAccountName: 'quiet' }));
    expect(res.status, res.text).to.equal(201);
    expect(res.body.spec.volumes).to.equal(undefined);
    expect(res.body.spec.containers[0].volumeMounts).to.equal(undefined);
    expect(res.body.spec.imagePullSecrets).to.deep.equal([{ name: 'regcred' }]);
  });

  it('mounts nothing when the pod opts out', async () => {
    const res = await server().admin.post(PODS, pod('s4', { automountServiceAccountToken: false }));
    expect(res.status, res.text).to.equal(201);
    expect(res.body.spec.volumes).to.equal(undefined);
  });

  it('rejects a pod naming a service account that does not exist', async () => {
    const res = await server().admin.post(PODS, pod('s5', { serviceAccountName: 'ghost' }));
    expect(res.status, res.text).to.equal(403);
    expect(res.body).to.deep.include({
      reason: 'Forbidden',
      message: `pods "s5" is forbidden: error looking up service account ${NS}/ghost: serviceaccount "ghost" not found`,
      details: { name: 's5', kind: 'pods' },
    });
  });

  it('rejects pods of a namespace without a default service account (after retrying the read)', async () => {
    expect((await server().admin.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bare' } })).status).to.equal(201);
    const res = await server().admin.post('/api/v1/namespaces/bare/pods', pod('s6'));
    expect(res.status, res.text).to.equal(403);
    expect(res.body.message).to.equal('pods "s6" is forbidden: error looking up service account bare/default: serviceaccount "default" not found');
  });

  it('bounds the secrets a pod of an enforcing service account references', async () => {
    const bad = await server().admin.post(PODS, pod('s7', { serviceAccountName: 'strict', volumes: [{ name: 'v', secret: { secretName: 'other' } }] }));
    expect(bad.status, bad.text).to.equal(403);
    expect(bad.body.message).to.equal(
      'pods "s7" is forbidden: volume with secret.secretName="other" is not allowed because service account strict does not reference that secret',
    );
    const good = await server().admin.post(PODS, pod('s7', { serviceAccountName: 'strict', volumes: [{ name: 'v', secret: { secretName: 'allowed' } }] }));
    expect(good.status, good.text).to.equal(201);
  });

  it('bounds the secrets of ephemeral containers added to such a pod', async () => {
    const current = (await server().admin.get(`${PODS}/s7`)).body;
    const debug = (secret: string) => ({
      ...current,
      spec: {
        ...current.spec,
        ephemeralContainers: [{ name: 'dbg', image: 'busybox', env: [{ name: 'T', valueFrom: { secretKeyRef: { name: secret, key: 'k' } } }] }],
      },
    });
    const bad = await server().admin.put(`${PODS}/s7/ephemeralcontainers`, debug('other'));
    expect(bad.status, bad.text).to.equal(403);
    expect(bad.body.message).to.equal(
      'pods "s7" is forbidden: ephemeral container dbg with envVar T referencing secret.secretName="other" is not allowed because service account strict does not reference that secret',
    );
    const good = await server().admin.put(`${PODS}/s7/ephemeralcontainers`, debug('allowed'));
    expect(good.status, good.text).to.equal(200);
  });

  it('leaves mirror pods unchanged and keeps them from referencing a service account', async () => {
    const mirror = { annotations: { [MIRROR_POD_ANNOTATION]: 'hash' } };
    const plain = await server().admin.post(PODS, pod('m1', {}, mirror));
    expect(plain.status, plain.text).to.equal(201);
    expect(plain.body.spec.serviceAccountName).to.equal(undefined);
    expect(plain.body.spec.volumes).to.equal(undefined);
    const named = await server().admin.post(PODS, pod('m2', { serviceAccountName: 'default' }, mirror));
    expect(named.status, named.text).to.equal(403);
    expect(named.body.message).to.equal('pods "m2" is forbidden: a mirror pod may not reference service accounts');
  });

  it('does not look at updates: a pod whose service account is gone can still be updated', async () => {
    const sas = `/api/v1/namespaces/${NS}/serviceaccounts`;
    expect((await server().admin.post(sas, serviceAccount('temp'))).status).to.equal(201);
    const created = await server().admin.post(PODS, pod('s8', { serviceAccountName: 'temp' }));
    expect(created.status, created.text).to.equal(201);
    expect((await server().admin.request('DELETE', `${sas}/temp`)).status).to.equal(200);
    const res = await server().admin.put(`${PODS}/s8`, { ...created.body, metadata: { ...created.body.metadata, labels: { a: 'b' } } });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.spec.volumes).to.deep.equal(created.body.spec.volumes);
  });
});
