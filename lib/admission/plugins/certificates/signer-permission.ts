/**
 * The shape CertificateApproval and CertificateSigning share (spec 001 § Admission control;
 * upstream v1.30): a validating check of UPDATEs of one CertificateSigningRequest subresource that
 * needs a verb on the CSR's signer (signer-authorization.ts). Rejection: 403 `user not permitted
 * to <verb> requests with signerName "<signer>"`.
 */
import { goQuote } from '../../../apimachinery/go-quote.js';
import { CERTIFICATES_GROUP } from '../../../apis/certificates/v1/certificate-signing-request.js';
import { canonicalGroup } from '../../../apis/vendor.js';
import type { Authorizer } from '../../../request/authorization.js';
import type { RequestContext } from '../../../request/context.js';
import { admissionForbidden } from '../../forbidden.js';
import type { AdmissionAttributes, AdmissionOperation, ValidatingAdmissionPlugin } from '../../interface.js';
import type { AdmissionLog } from '../../plugin-deps.js';
import { CSR_RESOURCE, isAuthorizedForSigner } from './signer-authorization.js';

/** What one signer-permission plugin checks. */
export interface SignerPermission {
  /** The plugin's name. */
  name: string;
  /** The CSR subresource whose updates it checks. */
  subresource: 'approval' | 'status';
  verb: 'approve' | 'sign';
  /** The signer whose permission the update needs, or undefined when it needs none. */
  signerToCheck(a: AdmissionAttributes): string | undefined;
}

/** A validating plugin enforcing one {@link SignerPermission}. */
export class SignerPermissionPlugin implements ValidatingAdmissionPlugin {
  readonly name: string;

  constructor(
    private readonly permission: SignerPermission,
    private readonly authorizer: Authorizer,
    private readonly log: AdmissionLog,
  ) {
    this.name = permission.name;
  }

  handles(op: AdmissionOperation): boolean {
    return op === 'UPDATE';
  }

  /** @throws StatusError 403 when the user may not act for the signer. */
  async validate(_ctx: RequestContext, a: AdmissionAttributes): Promise<void> {
    const p = this.permission;
    if (a.operation !== 'UPDATE' || a.subresource !== p.subresource || a.resource !== CSR_RESOURCE || canonicalGroup(a.group) !== CERTIFICATES_GROUP) return;
    const signer = p.signerToCheck(a);
    if (signer === undefined) return;
    if (!(await isAuthorizedForSigner(this.authorizer, this.log, a.user, p.verb, signer))) {
      throw admissionForbidden(a, `user not permitted to ${p.verb} requests with signerName ${goQuote(signer)}`);
    }
  }
}
