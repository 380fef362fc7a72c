/** The kinds of `certificates.<vendor>/v1`: CertificateSigningRequest. */
import type { KindDefinition } from '../../define.js';
import { certificateSigningRequest } from './certificate-signing-request.js';

export { CERTIFICATES_GROUP, certificateSigningRequest } from './certificate-signing-request.js';
export { validateCSRApprovalUpdate, validateCSRCreate, validateCSRStatusUpdate, validateCSRUpdate } from './csr-validation.js';

/** Every kind of the group version, for the catalogue. */
export const certificatesV1Kinds: readonly KindDefinition[] = [certificateSigningRequest];
