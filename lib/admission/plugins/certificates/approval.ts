/**
 * CertificateApproval (spec 001 § Admission control; upstream v1.30's plugin of the same name): an
 * UPDATE of `certificatesigningrequests/approval` needs the verb `approve` on the CSR's signer
 * (`signers` of the certificates group, by name or by the `<domain>/*` wildcard). The signer is
 * read from the NEW object, so that changing it cannot dodge the check. Rejection: 403
 * `user not permitted to approve requests with signerName "<signer>"`.
 */
import { obj, str } from '../../../apis/core/v1/obj-access.js';
import type { Authorizer } from '../../../request/authorization.js';
import type { AdmissionLog, AdmissionPluginFactory } from '../../plugin-deps.js';
import { SignerPermissionPlugin } from './signer-permission.js';

/** The CertificateApproval admission plugin (validating). */
export class CertificateApproval extends SignerPermissionPlugin {
  constructor(authorizer: Authorizer, log: AdmissionLog) {
    super({ name: 'CertificateApproval', subresource: 'approval', verb: 'approve', signerToCheck: (a) => str(obj(a.object?.spec)?.signerName) }, authorizer, log);
  }
}

/** Factory of {@link CertificateApproval} (on by default). */
export const certificateApprovalPlugin: AdmissionPluginFactory = {
  name: 'CertificateApproval',
  create: (deps) => new CertificateApproval(deps.authorizer, deps.log),
};
