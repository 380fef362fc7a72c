/**
 * Whether a user may act for a certificate signer (upstream `IsAuthorizedForSignerName`, shared by
 * CertificateApproval and CertificateSigning; spec 001 § Admission control): the authorizer is
 * asked for `<verb>` on the `signers` resource of the certificates group with the signer's name,
 * then, failing that, with the wildcard `<domain>/*` of the signer's domain.
 */
import { CERTIFICATES_GROUP } from '../../../apis/certificates/v1/certificate-signing-request.js';
import type { Authorizer, AuthorizationAttributes } from '../../../request/authorization.js';
import type { UserInfo } from '../../../request/user.js';
import type { AdmissionLog } from '../../plugin-deps.js';

/** The resource of CertificateSigningRequests. */
export const CSR_RESOURCE = 'certificatesigningrequests';

/** The attributes of `verb` on the signer `name` (upstream `buildAttributes`: any API version). */
export function signerAttributes(user: UserInfo, verb: string, name: string): AuthorizationAttributes {
  return {
    user,
    verb,
    isResourceRequest: true,
    path: '',
    apiGroup: CERTIFICATES_GROUP,
    apiVersion: '*',
    namespace: '',
    resource: 'signers',
    subresource: '',
    name,
  };
}

/** The wildcard name of a signer's domain: `example.com/foo` → `example.com/*`. */
export function signerWildcard(signerName: string): string {
  return `${signerName.split('/')[0]}/*`;
}

/**
 * True when `authorizer` allows `user` the verb (`approve`, `sign`) on `signerName` or on its
 * domain's wildcard. An authorizer that fails or decides other than Allow counts as not allowed
 * (an evaluation error or a throw is logged); never throws.
 */
export async function isAuthorizedForSigner(authorizer: Authorizer, log: AdmissionLog, user: UserInfo, verb: string, signerName: string): Promise<boolean> {
  for (const name of [signerName, signerWildcard(signerName)]) {
    try {
      const { decision, reason, evaluationError } = await authorizer.authorize(signerAttributes(user, verb, name));
      if (decision === 'Allow') return true;
      if (evaluationError) log.warn({ err: evaluationError, reason, verb, signer: name }, 'cannot authorize signer access');
    } catch (err) {
      log.warn({ err, verb, signer: name }, 'cannot authorize signer access');
    }
  }
  return false;
}
