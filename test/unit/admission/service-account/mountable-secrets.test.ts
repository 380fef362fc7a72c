import { expect } from 'chai';
import { enforcesMountableSecrets, ephemeralSecretReferenceViolation, secretReferenceViolation } from '../../../../lib/admission/plugins/service-account/mountable-secrets.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { ENFORCE_MOUNTABLE_SECRETS_ANNOTATION, VENDOR_DOMAIN } from '../../../../lib/apis/vendor.js';

const SA: Obj = { metadata: { name: 'builder' }, secrets: [{ name: 'ok' }], imagePullSecrets: [{ name: 'pull' }] };
const NOT_REFERENCED = 'is not allowed because service account builder does not reference that secret';

describe('ServiceAccount mountable secrets (upstream limitSecretReferences)', () => {
  it('is enforced when the vendor annotation parses as Go true', () => {
    expect(ENFORCE_MOUNTABLE_SECRETS_ANNOTATION).to.equal(`${VENDOR_DOMAIN}/enforce-mountable-secrets`);
    const sa = (v: string) => ({ metadata: { annotations: { [ENFORCE_MOUNTABLE_SECRETS_ANNOTATION]: v } } });
    for (const v of ['true', 'True', 'TRUE', 't', '1']) expect(enforcesMountableSecrets(sa(v)), v).to.equal(true);
    for (const v of ['false', 'yes', '', 'on']) expect(enforcesMountableSecrets(sa(v)), v).to.equal(false);
    expect(enforcesMountableSecrets({ metadata: {} })).to.equal(false);
  });

  it('admits a pod using only listed secrets', () => {
    expect(
      secretReferenceViolation(SA, {
        volumes: [{ name: 'v', secret: { secretName: 'ok' } }],
        containers: [{ name: 'c', env: [{ name: 'E', valueFrom: { secretKeyRef: { name: 'ok', key: 'k' } } }], envFrom: [{ secretRef: { name: 'ok' } }] }],
        imagePullSecrets: [{ name: 'pull' }],
      }),
    ).to.equal(undefined);
  });

  it('names the first unlisted reference, in upstream’s order and words', () => {
    const cases: [Obj, string][] = [
      [{ volumes: [{ name: 'v', secret: { secretName: 'x' } }], imagePullSecrets: [{ name: 'y' }] }, `volume with secret.secretName="x" ${NOT_REFERENCED}`],
      [{ initContainers: [{ name: 'i', env: [{ name: 'E', valueFrom: { secretKeyRef: { name: 'x', key: 'k' } } }] }] }, `init container i with envVar E referencing secret.secretName="x" ${NOT_REFERENCED}`],
      [{ initContainers: [{ name: 'i', envFrom: [{ secretRef: { name: 'x' } }] }] }, `init container i with envFrom referencing secret.secretName="x" ${NOT_REFERENCED}`],
      [{ containers: [{ name: 'c', env: [{ name: 'E', valueFrom: { secretKeyRef: { name: 'x', key: 'k' } } }] }] }, `container c with envVar E referencing secret.secretName="x" ${NOT_REFERENCED}`],
      [{ containers: [{ name: 'c', envFrom: [{ secretRef: { name: 'x' } }] }] }, `container c with envFrom referencing secret.secretName="x" ${NOT_REFERENCED}`],
      [
        { imagePullSecrets: [{ name: 'pull' }, { name: 'ok' }] },
        'imagePullSecrets[1].name="ok" is not allowed because service account builder does not reference that imagePullSecret',
      ],
    ];
    for (const [spec, want] of cases) expect(secretReferenceViolation(SA, spec)).to.equal(want);
  });

  it('checks only ephemeral containers on an ephemeralcontainers update', () => {
    const spec = {
      volumes: [{ name: 'v', secret: { secretName: 'x' } }],
      ephemeralContainers: [{ name: 'dbg', envFrom: [{ secretRef: { name: 'x' } }] }],
    };
    expect(ephemeralSecretReferenceViolation(SA, spec)).to.equal(`ephemeral container dbg with envFrom referencing secret.secretName="x" ${NOT_REFERENCED}`);
    expect(ephemeralSecretReferenceViolation(SA, { volumes: spec.volumes })).to.equal(undefined);
  });
});
