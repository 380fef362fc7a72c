/**
 * certificates/v1alpha1 ClusterTrustBundle: a cluster-scoped set of X.509 trust anchors,
 * optionally tied to a signer (upstream v1.30 k8s.io/api/certificates/v1alpha1 field structure
 * and protobuf numbers; off by default). Validation as upstream `ValidateClusterTrustBundle` /
 * `ValidateClusterTrustBundleUpdate`: a bundle with a signer is named `<signer with : for />:…`,
 * one without has no `:` in its name; `spec.signerName` as a CSR's and immutable; `trustBundle`
 * at most 1 MiB of PEM `CERTIFICATE` blocks without headers, each one X.509 certificate, at least
 * one, no duplicates.
 */
import { X509Certificate } from 'node:crypto';
import { type FieldError, FieldPath, invalid, tooLong } from '../../../apimachinery/field-errors.js';
import { field, string, struct } from '../../../apimachinery/schema/builder.js';
import { checkName, type NameRule } from '../../../apimachinery/validation/names.js';
import { obj, str, type Obj } from '../../core/v1/obj-access.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { clusterTrustBundlePrinter } from '../../printers/alpha.js';
import { vendorGroup } from '../../vendor.js';
import { validateSignerName } from '../v1/csr-validation.js';
import { decodePem } from '../v1/pem.js';

/** Largest `spec.trustBundle`, in bytes (upstream `MaxTrustBundleSize`). */
export const MAX_TRUST_BUNDLE_SIZE = 1024 * 1024;

const SIGNER = FieldPath.of('spec', 'signerName');
const BUNDLE = FieldPath.of('spec', 'trustBundle');
const OMITTED = '<value omitted>';
const NAME = FieldPath.of('metadata', 'name');

const specOf = (ctb: Obj): Obj => obj(ctb.spec) ?? {};

/** The name rule of a bundle of `signerName` (upstream `ValidateClusterTrustBundleName`). */
export function clusterTrustBundleNameRule(signerName: string): NameRule {
  if (signerName === '') {
    return (name, prefix) => (name.includes(':') ? ['ClusterTrustBundle without signer name must not have ":" in its name'] : checkName('dns1123Subdomain', name, prefix));
  }
  const required = `${signerName.replaceAll('/', ':')}:`;
  return (name, prefix) =>
    name.startsWith(required)
      ? checkName('dns1123Subdomain', name.slice(required.length), prefix)
      : [`ClusterTrustBundle for signerName ${signerName} must be named with prefix ${required}`];
}

/** Whether `der` is exactly one X.509 certificate (Go `x509.ParseCertificate`: no trailing data). */
function isOneCertificate(der: Buffer): boolean {
  if (der.length < 2 || der[0] !== 0x30) return false;
  const first = der[1]!;
  let total: number;
  if (first < 0x80) total = 2 + first;
  else {
    const n = first & 0x7f;
    if (n === 0 || n > 4 || der.length < 2 + n) return false;
    total = 2 + n + der.subarray(2, 2 + n).reduce((acc, b) => acc * 256 + b, 0);
  }
  if (total !== der.length) return false;
  try {
    new X509Certificate(der);
    return true;
  } catch {
    return false;
  }
}

/** `spec.trustBundle` (upstream `validateTrustBundle`). */
function validateTrustBundle(bundle: string): FieldError[] {
  if (Buffer.byteLength(bundle) > MAX_TRUST_BUNDLE_SIZE) return [tooLong(BUNDLE, `<value omitted, len ${Buffer.byteLength(bundle)}>`, MAX_TRUST_BUNDLE_SIZE)];
  const errs: FieldError[] = [];
  const seen = new Map<string, number[]>();
  let rest = Buffer.from(bundle, 'utf8').toString('binary');
  let i = -1;
  for (let next = decodePem(rest); next !== undefined; next = decodePem(rest)) {
    rest = next.rest;
    i++;
    const { block } = next;
    if (block.type !== 'CERTIFICATE') errs.push(invalid(BUNDLE, OMITTED, `entry ${i} has bad block type: ${block.type}`));
    else if (Object.keys(block.headers).length > 0) errs.push(invalid(BUNDLE, OMITTED, `entry ${i} has PEM block headers`));
    else if (!isOneCertificate(block.bytes)) errs.push(invalid(BUNDLE, OMITTED, `entry ${i} does not parse as X.509`));
    else {
      const key = block.bytes.toString('base64');
      seen.set(key, [...(seen.get(key) ?? []), i]);
    }
  }
  if (i === -1) errs.push(invalid(BUNDLE, OMITTED, 'at least one trust anchor must be provided'));
  for (const indices of seen.values()) {
    if (indices.length > 1) errs.push(invalid(BUNDLE, OMITTED, `duplicate trust anchor (indices [${indices.join(' ')}])`));
  }
  return errs;
}

/** Create and update: signer name, trust bundle (the name is checked with ObjectMeta). */
export function validateClusterTrustBundle(ctb: Obj): FieldError[] {
  const spec = specOf(ctb);
  return [...validateSignerName(str(spec.signerName), SIGNER), ...validateTrustBundle(str(spec.trustBundle))];
}

/**
 * Update: the (unchanged) name still fits the signer name, as upstream re-validates ObjectMeta on
 * update; `spec.signerName` is immutable.
 */
export function validateClusterTrustBundleUpdate(ctb: Obj, old: Obj): FieldError[] {
  const signer = str(specOf(ctb).signerName);
  const name = str(obj(ctb.metadata)?.name);
  const errs = checkName(clusterTrustBundleNameRule(signer), name).map((m) => invalid(NAME, name, m));
  if (signer !== str(specOf(old).signerName)) errs.push(invalid(SIGNER, signer, 'field is immutable'));
  return errs;
}

/** The ClusterTrustBundle kind. */
export const clusterTrustBundle = defineKind({
  group: vendorGroup('certificates'),
  version: 'v1alpha1',
  kind: 'ClusterTrustBundle',
  resource: 'clustertrustbundles',
  singular: 'clustertrustbundle',
  namespaced: false,
  description: 'A cluster-scoped set of X.509 trust anchors, optionally associated with a signer.',
  printerColumns: clusterTrustBundlePrinter,
  nameRuleOf: (ctb) => clusterTrustBundleNameRule(str(specOf(ctb).signerName)),
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(
      2,
      struct('api.certificates.v1alpha1.ClusterTrustBundleSpec', {
        signerName: field(1, string, { description: 'The signer the trust anchors are associated with; immutable.' }),
        trustBundle: field(2, string, { omitEmpty: false, description: 'PEM CERTIFICATE blocks of the trust anchors.' }),
      }),
      { omitEmpty: false, default: {} },
    ),
  },
  validate: validateClusterTrustBundle,
  validateUpdate: validateClusterTrustBundleUpdate,
});
