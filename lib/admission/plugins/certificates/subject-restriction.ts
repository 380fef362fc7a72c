/**
 * CertificateSubjectRestriction (spec 001 § Admission control; upstream v1.30's plugin of the same
 * name): a CertificateSigningRequest created for the API server client signer
 * (`signerName('apiserver-client')`, upstream `kubernetes.io/kube-apiserver-client`) may not ask
 * for the organization (group) `system:masters`. Rejections are 403 Forbidden:
 * `use of <signer> signer with system:masters group is not allowed`, or
 * `failed to parse CSR: <error>` when the request is not a PEM certificate request.
 */
import { CERTIFICATES_GROUP } from '../../../apis/certificates/v1/certificate-signing-request.js';
import { obj, str } from '../../../apis/core/v1/obj-access.js';
import { canonicalGroup, signerName } from '../../../apis/vendor.js';
import type { RequestContext } from '../../../request/context.js';
import { MASTERS_GROUP } from '../../../request/user.js';
import { admissionForbidden } from '../../forbidden.js';
import type { AdmissionAttributes, AdmissionOperation, ValidatingAdmissionPlugin } from '../../interface.js';
import type { AdmissionPluginFactory } from '../../plugin-deps.js';
import { requestOrganizations } from './csr-subject.js';
import { CSR_RESOURCE } from './signer-authorization.js';

/** The signer whose certificates authenticate clients of the API server. */
export const APISERVER_CLIENT_SIGNER = signerName('apiserver-client');

/** The CertificateSubjectRestriction admission plugin (validating). */
export class CertificateSubjectRestriction implements ValidatingAdmissionPlugin {
  readonly name = 'CertificateSubjectRestriction';

  handles(op: AdmissionOperation): boolean {
    return op === 'CREATE';
  }

  /** @throws StatusError 403 for a `system:masters` request to the API server client signer, or a request that does not parse. */
  async validate(_ctx: RequestContext, a: AdmissionAttributes): Promise<void> {
    if (a.operation !== 'CREATE' || a.subresource !== '' || a.resource !== CSR_RESOURCE || canonicalGroup(a.group) !== CERTIFICATES_GROUP) return;
    const spec = obj(a.object?.spec) ?? {};
    const signer = str(spec.signerName);
    if (signer !== APISERVER_CLIENT_SIGNER) return;
    let organizations: string[];
    try {
      organizations = requestOrganizations(Buffer.from(str(spec.request), 'base64'));
    } catch (err) {
      throw admissionForbidden(a, `failed to parse CSR: ${(err as Error).message}`);
    }
    if (organizations.includes(MASTERS_GROUP)) throw admissionForbidden(a, `use of ${signer} signer with ${MASTERS_GROUP} group is not allowed`);
  }
}

/** Factory of {@link CertificateSubjectRestriction} (on by default). */
export const certificateSubjectRestrictionPlugin: AdmissionPluginFactory = {
  name: 'CertificateSubjectRestriction',
  create: () => new CertificateSubjectRestriction(),
};
