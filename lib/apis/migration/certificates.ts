/**
 * CertificateSigningRequest `certificates.<vendor>/v1beta1` → `v1` (spec 001 § Removed API
 * versions, 1.22 row; upstream `pkg/apis/certificates/v1beta1/defaults.go` and the v1
 * validation). v1beta1's defaults are written where v1 requires the field: `usages`
 * (`digital signature`, `key encipherment`) and each condition's `status` (`True`); duplicate
 * usages are dropped (v1 rejects them). `signerName` has no usable default: v1beta1 derived the
 * kubelet signers from the request's content, else the legacy-unknown signer, which v1 does not
 * allow; a request without one (or with legacy-unknown) throws MigrationError.
 */
import { CERTIFICATES_GROUP } from '../certificates/v1/certificate-signing-request.js';
import type { Obj } from '../define.js';
import { signerName } from '../vendor.js';
import { type MigrationRow, MigrationError, isObj, objects, setDefault } from './types.js';

const LEGACY_UNKNOWN = signerName('legacy-unknown');

/** Rewrites a v1beta1 CertificateSigningRequest into v1 (see the file comment). */
export function certificateSigningRequestToV1(obj: Obj): Obj {
  const spec = isObj(obj.spec) ? obj.spec : {};
  const name = isObj(obj.metadata) && typeof obj.metadata.name === 'string' ? obj.metadata.name : '';
  if (typeof spec.signerName !== 'string' || spec.signerName === '' || spec.signerName === LEGACY_UNKNOWN) {
    throw new MigrationError(
      `${CERTIFICATES_GROUP}/v1beta1 CertificateSigningRequest "${name}": ${CERTIFICATES_GROUP}/v1 requires spec.signerName other than "${LEGACY_UNKNOWN}"; set the signer the request is for`,
    );
  }
  spec.usages = Array.isArray(spec.usages) && spec.usages.length > 0 ? [...new Set(spec.usages)] : ['digital signature', 'key encipherment'];
  const status = obj.status;
  if (isObj(status)) for (const c of objects(status.conditions)) setDefault(c, 'status', 'True');
  return obj;
}

/** The CertificateSigningRequest row. */
export const certificatesRows: readonly MigrationRow[] = [
  {
    from: { group: CERTIFICATES_GROUP, version: 'v1beta1', kind: 'CertificateSigningRequest' },
    to: { group: CERTIFICATES_GROUP, version: 'v1', kind: 'CertificateSigningRequest' },
    removedIn: '1.22',
    convert: certificateSigningRequestToV1,
  },
];
