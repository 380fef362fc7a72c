import { expect } from 'chai';
import { TOKEN_VOLUME_PREFIX, generateTokenVolumeName, mountServiceAccountToken, tokenVolumeSource } from '../../../../lib/admission/plugins/service-account/token-volume.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { ROOT_CA_CONFIGMAP_NAME, SERVICE_ACCOUNT_TOKEN_MOUNT_PATH, VENDOR_DOMAIN } from '../../../../lib/apis/vendor.js';

const MOUNT = { name: 'kube-api-access-abcde', readOnly: true, mountPath: SERVICE_ACCOUNT_TOKEN_MOUNT_PATH };
const fixedName = () => 'kube-api-access-abcde';

describe('ServiceAccount token volume (upstream TokenVolumeSource)', () => {
  it('mounts at the vendor spelling of the upstream path', () => {
    expect(SERVICE_ACCOUNT_TOKEN_MOUNT_PATH).to.equal(`/var/run/secrets/${VENDOR_DOMAIN}/serviceaccount`);
  });

  it('names the volume kube-api-access- and 5 characters of the name generator’s alphabet', () => {
    for (let i = 0; i < 20; i++) expect(generateTokenVolumeName()).to.match(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(TOKEN_VOLUME_PREFIX).to.equal('kube-api-access-');
  });

  it('projects the bound token, the root CA bundle and the namespace, mode 420', () => {
    expect(tokenVolumeSource()).to.deep.equal({
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: ROOT_CA_CONFIGMAP_NAME, items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
    });
  });

  it('adds the volume and a read-only mount to every init and regular container, not to ephemeral ones', () => {
    const spec: Obj = {
      initContainers: [{ name: 'i' }],
      containers: [{ name: 'a', volumeMounts: [{ name: 'data', mountPath: '/data' }] }, { name: 'b' }],
      ephemeralContainers: [{ name: 'e' }],
      volumes: [{ name: 'data', emptyDir: {} }],
    };
    mountServiceAccountToken(spec, fixedName);
    expect(spec).to.deep.equal({
      initContainers: [{ name: 'i', volumeMounts: [MOUNT] }],
      containers: [
        { name: 'a', volumeMounts: [{ name: 'data', mountPath: '/data' }, MOUNT] },
        { name: 'b', volumeMounts: [MOUNT] },
      ],
      ephemeralContainers: [{ name: 'e' }],
      volumes: [{ name: 'data', emptyDir: {} }, { name: 'kube-api-access-abcde', projected: tokenVolumeSource() }],
    });
  });

  it('skips containers that already mount something at the path, and adds no volume when none needed it', () => {
    const own = { name: 'mine', mountPath: SERVICE_ACCOUNT_TOKEN_MOUNT_PATH };
    const spec: Obj = { containers: [{ name: 'a', volumeMounts: [own] }], volumes: [{ name: 'mine', secret: { secretName: 's' } }] };
    mountServiceAccountToken(spec, fixedName);
    expect(spec).to.deep.equal({ containers: [{ name: 'a', volumeMounts: [own] }], volumes: [{ name: 'mine', secret: { secretName: 's' } }] });
  });

  it('mounts an existing kube-api-access- volume instead of adding another', () => {
    const volume = { name: 'kube-api-access-zzzzz', projected: { sources: [] } };
    const spec: Obj = { containers: [{ name: 'a' }], volumes: [volume] };
    mountServiceAccountToken(spec, () => expect.fail('no new name needed'));
    expect(spec).to.deep.equal({
      containers: [{ name: 'a', volumeMounts: [{ ...MOUNT, name: 'kube-api-access-zzzzz' }] }],
      volumes: [volume],
    });
  });
});
