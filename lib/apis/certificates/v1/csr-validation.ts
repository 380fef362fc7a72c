/**
 * CertificateSigningRequest validation with the upstream paths and messages (upstream
 * certificates validation of v1.30: `validateCertificateSigningRequest`, the update checks and
 * the compatibility options derived from the stored object). ObjectMeta and the required fields
 * (`spec.request`, `spec.signerName`, a condition's `type` and `status`) are checked by the caller
 * (declarative walk), which reports an absent one as `Required value`.
 */
import { duplicate, type FieldError, FieldPath, forbidden, GoSyntax, invalid, notSupported, required, tooLong } from '../../../apimachinery/field-errors.js';
import { DNS1123_LABEL_MAX, DNS1123_SUBDOMAIN_MAX, isDNS1123Label, isDNS1123Subdomain } from '../../../apimachinery/validation/names.js';
import { list, num, obj, objs, str, type Obj } from '../../core/v1/obj-access.js';
import { diffLines, semanticEqual } from '../../core/v1/semantic-equal.js';
import { signerName as vendorSigner, UPSTREAM_LABEL_DOMAIN } from '../../vendor.js';
import { certificateRequestError, issuedCertificateError } from './x509.js';

/** The key usages a request may list (upstream `KeyUsage` values), sorted as upstream prints them. */
export const KEY_USAGES = [
  'any', 'cert sign', 'client auth', 'code signing', 'content commitment', 'crl sign', 'data encipherment', 'decipher only',
  'digital signature', 'email protection', 'encipher only', 'ipsec end system', 'ipsec tunnel', 'ipsec user', 'key agreement',
  'key encipherment', 'microsoft sgc', 'netscape sgc', 'ocsp signing', 's/mime', 'server auth', 'signing', 'timestamping',
];
/** The signer names v1 rejects: the legacy-unknown signer, in our spelling and upstream's. */
export const LEGACY_SIGNERS = [vendorSigner('legacy-unknown'), `${UPSTREAM_LABEL_DOMAIN}/legacy-unknown`];
/** Shortest requested validity, in seconds. */
export const MIN_EXPIRATION_SECONDS = 600;
/** Longest signer name: a domain, `/`, and a path of a DNS label, `.` and a DNS subdomain. */
export const MAX_SIGNER_NAME = DNS1123_SUBDOMAIN_MAX + 1 + (DNS1123_SUBDOMAIN_MAX + DNS1123_LABEL_MAX + 1);

const APPROVED = 'Approved';
const DENIED = 'Denied';
const FAILED = 'Failed';
const TRUE_ONLY = [APPROVED, DENIED, FAILED];
const spec = FieldPath.of('spec');
const conditionsPath = FieldPath.of('status', 'conditions');
const certificatePath = FieldPath.of('status', 'certificate');

/** What a write may do, and what bad data it tolerates because the stored object already has it. */
export interface CSRValidationOptions {
  allowSettingApprovalConditions?: boolean;
  allowSettingCertificate?: boolean;
  allowBothApprovedAndDenied?: boolean;
  allowLegacySignerName?: boolean;
  allowDuplicateConditionTypes?: boolean;
  allowArbitraryCertificate?: boolean;
  allowUnknownUsages?: boolean;
  allowDuplicateUsages?: boolean;
}

const bytesOf = (v: unknown): Buffer => Buffer.from(str(v), 'base64');

/** Go's `%#v` of a `[]byte`, as upstream prints a bad request: `[]byte{0x2d, 0x2d}`. */
export function goBytes(value: Buffer): GoSyntax {
  return new GoSyntax(`[]byte{${[...value].map((b) => `0x${b.toString(16)}`).join(', ')}}`);
}

/** A signer name: `<domain with a dot>/<path of DNS subdomains>`, at most 571 characters (upstream `ValidateSignerName`). */
export function validateSignerName(name: string, path: FieldPath): FieldError[] {
  if (name === '') return [];
  const segments = name.split('/');
  if (segments.length !== 2) return [invalid(path, name, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  const [domain, rest] = segments as [string, string];
  const errs: FieldError[] = [];
  if (domain.length > DNS1123_SUBDOMAIN_MAX) errs.push(tooLong(path, '', DNS1123_SUBDOMAIN_MAX));
  const labels = domain.split('.');
  const badLabel = labels.map((l) => [l, isDNS1123Label(l)] as const).find(([, e]) => e.length > 0);
  if (badLabel) for (const m of badLabel[1]) errs.push(invalid(path, domain, `validating label ${JSON.stringify(badLabel[0])}: ${m}`));
  if (labels.length < 2) errs.push(invalid(path, domain, 'should be a domain with at least two segments separated by dots'));
  const badPath = rest.split('.').map((l) => [l, isDNS1123Subdomain(l)] as const).find(([, e]) => e.length > 0);
  if (badPath) for (const m of badPath[1]) errs.push(invalid(path, rest, `validating label ${JSON.stringify(badPath[0])}: ${m}`));
  if (name.length > MAX_SIGNER_NAME) errs.push(tooLong(path, '', MAX_SIGNER_NAME));
  return errs;
}

/** Conditions: supported status values, Approved and Denied exclusive, one condition per type. */
function validateConditions(conditions: Obj[], opts: CSRValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let approved = false;
  let denied = false;
  conditions.forEach((c, i) => {
    const path = conditionsPath.index(i);
    const type = str(c.type);
    const status = str(c.status);
    const allowed = TRUE_ONLY.includes(type) ? ['True'] : ['False', 'True', 'Unknown'];
    if (status !== '' && !allowed.includes(status)) errs.push(notSupported(path.child('status'), status, allowed));
    if (!opts.allowBothApprovedAndDenied) {
      if (type === APPROVED) approved = true;
      if (type === DENIED) denied = true;
      if ((type === APPROVED && denied) || (type === DENIED && approved)) errs.push(invalid(path.child('type'), type, 'Approved and Denied conditions are mutually exclusive'));
    }
    if (!opts.allowDuplicateConditionTypes) {
      if (seen.has(type)) errs.push(duplicate(path.child('type'), type));
      seen.add(type);
    }
  });
  return errs;
}

/** The rules of every write (upstream `validateCertificateSigningRequest`), relaxed by `opts`. */
function validateCSR(csr: Obj, opts: CSRValidationOptions): FieldError[] {
  const s = obj(csr.spec) ?? {};
  const errs: FieldError[] = [];
  if (s.request !== undefined && s.request !== null) {
    const request = bytesOf(s.request);
    const problem = certificateRequestError(request);
    if (problem) errs.push(invalid(spec.child('request'), goBytes(request), problem));
  }
  const usages = list(s.usages).map(str);
  if (usages.length === 0) errs.push(required(spec.child('usages')));
  usages.forEach((u, i) => {
    if (!opts.allowUnknownUsages && !KEY_USAGES.includes(u)) errs.push(notSupported(spec.child('usages').index(i), u, KEY_USAGES));
  });
  usages.forEach((u, i) => {
    if (!opts.allowDuplicateUsages && usages.indexOf(u) < i) errs.push(duplicate(spec.child('usages').index(i), u));
  });
  const signer = str(s.signerName);
  if (!opts.allowLegacySignerName && LEGACY_SIGNERS.includes(signer)) errs.push(invalid(spec.child('signerName'), signer, 'the legacy signerName is not allowed via this API version'));
  else errs.push(...validateSignerName(signer, spec.child('signerName')));
  const seconds = num(s.expirationSeconds);
  if (seconds !== undefined && seconds < MIN_EXPIRATION_SECONDS) errs.push(invalid(spec.child('expirationSeconds'), seconds, 'may not specify a duration less than 600 seconds (10 minutes)'));
  const status = obj(csr.status) ?? {};
  errs.push(...validateConditions(objs(status.conditions), opts));
  if (!opts.allowArbitraryCertificate) {
    const problem = issuedCertificateError(bytesOf(status.certificate));
    if (problem) errs.push(invalid(certificatePath, '<certificate data>', problem));
  }
  return errs;
}

const conditionsOf = (csr: Obj, type: string): Obj[] => objs(obj(csr.status)?.conditions).filter((c) => c.type === type);
const certificateOf = (csr: Obj): string => str(obj(csr.status)?.certificate);

/** What the stored object (absent on create) lets a write keep (upstream `getValidationOptions`). */
function compatibilityOptions(csr: Obj, old: Obj | undefined): CSRValidationOptions {
  if (!old) return {};
  const oldSpec = obj(old.spec) ?? {};
  const oldTypes = objs(obj(old.status)?.conditions).map((c) => str(c.type));
  const oldUsages = list(oldSpec.usages).map(str);
  return {
    allowBothApprovedAndDenied: oldTypes.includes(APPROVED) && oldTypes.includes(DENIED),
    allowLegacySignerName: LEGACY_SIGNERS.includes(str(oldSpec.signerName)),
    allowDuplicateConditionTypes: new Set(oldTypes).size < oldTypes.length,
    allowArbitraryCertificate: certificateOf(csr) === certificateOf(old) || issuedCertificateError(bytesOf(certificateOf(old))) !== undefined,
    allowUnknownUsages: oldUsages.some((u) => !KEY_USAGES.includes(u)),
    allowDuplicateUsages: new Set(oldUsages).size < oldUsages.length,
  };
}

/** The update rules (upstream `validateCertificateSigningRequestUpdate`). */
function validateCSRUpdateWith(csr: Obj, old: Obj, opts: CSRValidationOptions): FieldError[] {
  const errs = validateCSR(csr, opts);
  for (const type of [APPROVED, DENIED, FAILED]) {
    if (conditionsOf(csr, type).length < conditionsOf(old, type).length) errs.push(forbidden(conditionsPath, `updates may not remove a condition of type "${type}"`));
  }
  if (!opts.allowSettingApprovalConditions) {
    for (const type of [APPROVED, DENIED]) {
      const before = conditionsOf(old, type);
      const after = conditionsOf(csr, type);
      if (after.length > before.length) errs.push(forbidden(conditionsPath, `updates may not add a condition of type "${type}"`));
      else if (after.length === before.length && !semanticEqual(before, after)) {
        errs.push(forbidden(conditionsPath, `updates may not modify a condition of type "${type}"\n${diffLines(before, after, 'conditions')}`));
      }
    }
  }
  if (certificateOf(csr) !== certificateOf(old)) {
    if (!opts.allowSettingCertificate) errs.push(forbidden(certificatePath, 'updates may not set certificate content'));
    else if (certificateOf(old) !== '') errs.push(forbidden(certificatePath, 'updates may not modify existing certificate content'));
  }
  return errs;
}

/** Create: the request parses and is signed, usages and signer are valid, no bad conditions or certificate. */
export function validateCSRCreate(csr: Obj): FieldError[] {
  return validateCSR(csr, compatibilityOptions(csr, undefined));
}

/** A main-resource update: neither approval conditions nor the certificate may change. */
export function validateCSRUpdate(csr: Obj, old: Obj): FieldError[] {
  return validateCSRUpdateWith(csr, old, compatibilityOptions(csr, old));
}

/** A `status` write: may set the certificate once (and Failed or other conditions), not approve or deny. */
export function validateCSRStatusUpdate(csr: Obj, old: Obj): FieldError[] {
  return validateCSRUpdateWith(csr, old, { ...compatibilityOptions(csr, old), allowSettingCertificate: true });
}

/** An `approval` write: may add Approved or Denied conditions, not set the certificate. */
export function validateCSRApprovalUpdate(csr: Obj, old: Obj): FieldError[] {
  return validateCSRUpdateWith(csr, old, { ...compatibilityOptions(csr, old), allowSettingApprovalConditions: true });
}
