/**
 * certificates/v1 CertificateSigningRequest: a PKCS#10 request for an X.509 certificate from a
 * named signer, approved or denied through the `approval` subresource and issued through
 * `status` (upstream v1.30 field structure and protobuf numbers; no defaults in v1).
 * Cluster-scoped, any path-segment name, short name `csr`, field selector `spec.signerName`.
 */
import { bytes, field, int32, listOf, mapOf, string, struct, time } from '../../../apimachinery/schema/builder.js';
import { str } from '../../core/v1/obj-access.js';
import { defineKind, type Obj } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { certificateSigningRequestPrinter } from '../../printers/certificates.js';
import { vendorGroup } from '../../vendor.js';
import { validateCSRCreate, validateCSRStatusUpdate } from './csr-validation.js';

/** The API group of CertificateSigningRequest. */
export const CERTIFICATES_GROUP = vendorGroup('certificates');

const CERTS = 'api.certificates.v1';
const atomicStrings = listOf(string, { listType: 'atomic' });

/** The request: the PEM CSR, the signer, the wanted duration and usages, and who asked (set by the server). */
export const certificateSigningRequestSpec = struct(`${CERTS}.CertificateSigningRequestSpec`, {
  request: field(1, bytes, { required: true, omitEmpty: false, description: 'A PEM "CERTIFICATE REQUEST" block (base64 in JSON).' }),
  signerName: field(7, string, { required: true, omitEmpty: false, description: 'The requested signer, a qualified name.' }),
  expirationSeconds: field(8, int32, { description: 'Requested validity of the certificate; at least 600.' }),
  usages: field(5, atomicStrings, { description: 'Requested key usages and extended key usages.' }),
  username: field(2, string, { description: 'The user who created the request; set by the server.' }),
  uid: field(3, string, { description: 'The uid of that user; set by the server.' }),
  groups: field(4, atomicStrings, { description: 'The groups of that user; set by the server.' }),
  extra: field(6, mapOf(listOf(string)), { description: 'Extra attributes of that user; set by the server.' }),
});

/** A condition of the request: Approved, Denied or Failed (True only), or any other type. */
export const certificateSigningRequestCondition = struct(`${CERTS}.CertificateSigningRequestCondition`, {
  type: field(1, string, { required: true, omitEmpty: false }),
  status: field(6, string, { required: true, omitEmpty: false }),
  reason: field(2, string),
  message: field(3, string),
  lastUpdateTime: field(4, time, { omitEmpty: false }),
  lastTransitionTime: field(5, time, { omitEmpty: false }),
});

/** The approval conditions and the issued certificate. */
export const certificateSigningRequestStatus = struct(`${CERTS}.CertificateSigningRequestStatus`, {
  conditions: field(1, listOf(certificateSigningRequestCondition, { listType: 'map', listMapKeys: ['type'] })),
  certificate: field(2, bytes, { description: 'The issued certificate (PEM, base64 in JSON); set through the status subresource.' }),
});

/** The CertificateSigningRequest kind (`csr`; status and approval subresources). */
export const certificateSigningRequest = defineKind({
  group: CERTIFICATES_GROUP,
  version: 'v1',
  kind: 'CertificateSigningRequest',
  resource: 'certificatesigningrequests',
  singular: 'certificatesigningrequest',
  namespaced: false,
  shortNames: ['csr'],
  nameRule: 'pathSegment',
  statusSubresource: true,
  description: 'A request for an X.509 certificate from a signer, approved and issued asynchronously.',
  printerColumns: certificateSigningRequestPrinter,
  fieldSelectors: { 'spec.signerName': (o: Obj) => str((o.spec as Obj | undefined)?.signerName) },
  // Upstream GetResetFields: main writes own neither spec nor status, each subresource only its part.
  resetFields: {
    '': [['spec'], ['status']],
    status: [['spec'], ['status', 'conditions']],
    approval: [['spec'], ['status', 'certificate']],
  },
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, certificateSigningRequestSpec, { required: true, omitEmpty: false }),
    status: field(3, certificateSigningRequestStatus, { omitEmpty: false }),
  },
  validate: validateCSRCreate,
  validateStatusUpdate: validateCSRStatusUpdate,
});
