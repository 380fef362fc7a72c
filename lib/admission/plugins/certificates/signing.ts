/**
 * CertificateSigning (spec 001 § Admission control; upstream v1.30's plugin of the same name): an
 * UPDATE of `certificatesigningrequests/status` that changes `status.certificate` needs the verb
 * `sign` on the CSR's signer (`signers` of the certificates group, by name or by the `<domain>/*`
 * wildcard), the signer being the STORED object's. Other status updates pass. Rejection: 403
 * `user not permitted to sign requests with signerName "<signer>"`.
 */
import { obj, str } from '../../../apis/core/v1/obj-access.js';
import type { Obj } from '../../../apis/define.js';
import type { Authorizer } from '../../../request/authorization.js';
import type { AdmissionLog, AdmissionPluginFactory } from '../../plugin-deps.js';
import { SignerPermissionPlugin } from './signer-permission.js';

/** `status.certificate` (base64 text) or undefined when absent: absent and empty differ, as upstream's nil and empty byte slices. */
function certificateOf(o: Obj | null): unknown {
  return obj(o?.status)?.certificate;
}

/** The CertificateSigning admission plugin (validating). */
export class CertificateSigning extends SignerPermissionPlugin {
  constructor(authorizer: Authorizer, log: AdmissionLog) {
    super(
      {
        name: 'CertificateSigning',
        subresource: 'status',
        verb: 'sign',
        signerToCheck: (a) => (certificateOf(a.object) === certificateOf(a.oldObject) ? undefined : str(obj(a.oldObject?.spec)?.signerName)),
      },
      authorizer,
      log,
    );
  }
}

/** Factory of {@link CertificateSigning} (on by default). */
export const certificateSigningPlugin: AdmissionPluginFactory = {
  name: 'CertificateSigning',
  create: (deps) => new CertificateSigning(deps.authorizer, deps.log),
};
