/**
 * CertificateSigning (spec 001 § Admission control; upstream v1.30's plugin of the same name): an
 * UPDATE of `certificatesigningrequests/status` that changes `status.certificate` needs the verb
 * `sign` on the CSR's signer (`signers` of the certificates group, by name or by the `<domain>/*`
 * wildcard), the signer being the STORED object's. Other status updates pass. Rejection: 403
 * `user not permitted to sign requests with signerName "<signer>"`.
 */
import { goQuote } from '../../../apimachinery/managedfields/path.js';
import { canonicalGroup } from '../../../apis/vendor.js';
import { CERTIFICATES_GROUP } from '../../../apis/certificates/v1/certificate-signing-request.js';
import { obj, str } from '../../../apis/core/v1/obj-access.js';
import type { Obj } from '../../../apis/define.js';
import type { Authorizer } from '../../../request/authorization.js';
import type { RequestContext } from '../../../request/context.js';
import { admissionForbidden } from '../../forbidden.js';
import type { AdmissionAttributes, AdmissionOperation, ValidatingAdmissionPlugin } from '../../interface.js';
import type { AdmissionLog, AdmissionPluginFactory } from '../../plugin-deps.js';
import { CSR_RESOURCE, isAuthorizedForSigner } from './signer-authorization.js';

/** `status.certificate` (base64 text) or undefined when absent: absent and empty differ, as upstream's nil and empty byte slices. */
function certificateOf(o: Obj | null): unknown {
  return obj(o?.status)?.certificate;
}

/** The CertificateSigning admission plugin (validating). */
export class CertificateSigning implements ValidatingAdmissionPlugin {
  readonly name = 'CertificateSigning';

  constructor(
    private readonly authorizer: Authorizer,
    private readonly log: AdmissionLog,
  ) {}

  handles(op: AdmissionOperation): boolean {
    return op === 'UPDATE';
  }

  /** @throws StatusError 403 when the certificate changes and the user may not sign for the signer. */
  async validate(_ctx: RequestContext, a: AdmissionAttributes): Promise<void> {
    if (a.operation !== 'UPDATE' || a.subresource !== 'status' || a.resource !== CSR_RESOURCE || canonicalGroup(a.group) !== CERTIFICATES_GROUP) return;
    if (certificateOf(a.object) === certificateOf(a.oldObject)) return;
    const signer = str(obj(a.oldObject?.spec)?.signerName);
    if (!(await isAuthorizedForSigner(this.authorizer, this.log, a.user, 'sign', signer))) {
      throw admissionForbidden(a, `user not permitted to sign requests with signerName ${goQuote(signer)}`);
    }
  }
}

/** Factory of {@link CertificateSigning} (on by default). */
export const certificateSigningPlugin: AdmissionPluginFactory = {
  name: 'CertificateSigning',
  create: (deps) => new CertificateSigning(deps.authorizer, deps.log),
};
