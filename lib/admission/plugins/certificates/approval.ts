/**
 * CertificateApproval (spec 001 § Admission control; upstream v1.30's plugin of the same name): an
 * UPDATE of `certificatesigningrequests/approval` needs the verb `approve` on the CSR's signer
 * (`signers` of the certificates group, by name or by the `<domain>/*` wildcard). The signer is
 * read from the NEW object, so that changing it cannot dodge the check. Rejection: 403
 * `user not permitted to approve requests with signerName "<signer>"`.
 */
import { goQuote } from '../../../apimachinery/managedfields/path.js';
import { canonicalGroup } from '../../../apis/vendor.js';
import { CERTIFICATES_GROUP } from '../../../apis/certificates/v1/certificate-signing-request.js';
import { obj, str } from '../../../apis/core/v1/obj-access.js';
import type { Authorizer } from '../../../request/authorization.js';
import type { RequestContext } from '../../../request/context.js';
import { admissionForbidden } from '../../forbidden.js';
import type { AdmissionAttributes, AdmissionOperation, ValidatingAdmissionPlugin } from '../../interface.js';
import type { AdmissionLog, AdmissionPluginFactory } from '../../plugin-deps.js';
import { CSR_RESOURCE, isAuthorizedForSigner } from './signer-authorization.js';

/** The CertificateApproval admission plugin (validating). */
export class CertificateApproval implements ValidatingAdmissionPlugin {
  readonly name = 'CertificateApproval';

  constructor(
    private readonly authorizer: Authorizer,
    private readonly log: AdmissionLog,
  ) {}

  handles(op: AdmissionOperation): boolean {
    return op === 'UPDATE';
  }

  /** @throws StatusError 403 when the user may not approve for the new object's signer. */
  async validate(_ctx: RequestContext, a: AdmissionAttributes): Promise<void> {
    if (a.operation !== 'UPDATE' || a.subresource !== 'approval' || a.resource !== CSR_RESOURCE || canonicalGroup(a.group) !== CERTIFICATES_GROUP) return;
    const signer = str(obj(a.object?.spec)?.signerName);
    if (!(await isAuthorizedForSigner(this.authorizer, this.log, a.user, 'approve', signer))) {
      throw admissionForbidden(a, `user not permitted to approve requests with signerName ${goQuote(signer)}`);
    }
  }
}

/** Factory of {@link CertificateApproval} (on by default). */
export const certificateApprovalPlugin: AdmissionPluginFactory = {
  name: 'CertificateApproval',
  create: (deps) => new CertificateApproval(deps.authorizer, deps.log),
};
