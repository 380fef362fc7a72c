/**
 * Upstream v1.30's validation of the access reviews (pkg/apis/authorization/validation; spec 001
 * § Access-review resources), with its messages and its bad values as Go prints them (the
 * internal types with `%#v`, a missing attribute set as `"null"`).
 */
import { type FieldError, FieldPath, GoSyntax, invalid } from '../../../apimachinery/field-errors.js';
import { goQuote } from '../../../apimachinery/go-quote.js';
import type { Obj } from '../../define.js';

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Go's `%#v` of the internal NonResourceAttributes a spec holds (`null` when absent). */
function nonResourceValue(v: unknown): GoSyntax | null {
  if (!isObj(v)) return null;
  return new GoSyntax(`authorization.NonResourceAttributes{Path:${goQuote(str(v.path))}, Verb:${goQuote(str(v.verb))}}`);
}

/** Go's `%#v` of a `map[string]string` (keys sorted, as fmt prints maps). */
function goStringMap(m: unknown): string {
  if (!isObj(m) || Object.keys(m).length === 0) return 'map[string]string(nil)';
  const keys = Object.keys(m).sort();
  return `map[string]string{${keys.map((k) => `${goQuote(k)}:${goQuote(str(m[k]))}`).join(', ')}}`;
}

/** Go's `%#v` of a `[]string`. */
function goStrings(v: unknown): string {
  return Array.isArray(v) && v.length > 0 ? `[]string{${v.map((s) => goQuote(str(s))).join(', ')}}` : '[]string(nil)';
}

/** Go's `%#v` of a metav1.Time decoded from JSON (`time.Date(…, time.Local)`; the zero time in UTC). */
function goTime(v: unknown): string {
  const d = typeof v === 'string' ? new Date(v) : undefined;
  if (!d || Number.isNaN(d.getTime())) return 'time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC)';
  const month = d.toLocaleString('en-US', { month: 'long', timeZone: 'UTC' });
  return `time.Date(${d.getUTCFullYear()}, time.${month}, ${d.getUTCDate()}, ${d.getUTCHours()}, ${d.getUTCMinutes()}, ${d.getUTCSeconds()}, 0, time.Local)`;
}

/**
 * Go's `%#v` of the request's ObjectMeta, as upstream prints it in `metadata: Invalid value:
 * …: must be empty`. Owner references and managed fields, which Go prints with pointer
 * addresses, are shown by their element count only.
 */
function objectMetaValue(meta: Obj): GoSyntax {
  const count = (v: unknown, type: string) => (Array.isArray(v) && v.length > 0 ? `${type}{/* ${v.length} */}` : `${type}(nil)`);
  const parts = [
    `Name:${goQuote(str(meta.name))}`,
    `GenerateName:${goQuote(str(meta.generateName))}`,
    `Namespace:${goQuote(str(meta.namespace))}`,
    `SelfLink:${goQuote(str(meta.selfLink))}`,
    `UID:${goQuote(str(meta.uid))}`,
    `ResourceVersion:${goQuote(str(meta.resourceVersion))}`,
    `Generation:${typeof meta.generation === 'number' ? meta.generation : 0}`,
    `CreationTimestamp:${goTime(meta.creationTimestamp)}`,
    `DeletionTimestamp:${meta.deletionTimestamp ? `time.Date(…)` : '<nil>'}`,
    `DeletionGracePeriodSeconds:${typeof meta.deletionGracePeriodSeconds === 'number' ? '(*int64)(…)' : '(*int64)(nil)'}`,
    `Labels:${goStringMap(meta.labels)}`,
    `Annotations:${goStringMap(meta.annotations)}`,
    `OwnerReferences:${count(meta.ownerReferences, '[]v1.OwnerReference')}`,
    `Finalizers:${goStrings(meta.finalizers)}`,
    `ManagedFields:${count(meta.managedFields, '[]v1.ManagedFieldsEntry')}`,
  ];
  return new GoSyntax(`v1.ObjectMeta{${parts.join(', ')}}`);
}

/** Whether metadata is empty as Go's semantic equality sees it (nil and empty maps and lists alike), ignoring `ignore`. */
function metaIsEmpty(meta: Obj, ignore: readonly string[]): boolean {
  return Object.entries(meta).every(([k, v]) => ignore.includes(k) || v === null || v === undefined || v === '' || v === 0 || (Array.isArray(v) ? v.length === 0 : isObj(v) && Object.keys(v).length === 0));
}

/** The attribute-set checks both specs share (upstream ValidateSelfSubjectAccessReviewSpec). */
function validateAttributeSets(spec: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const hasResource = isObj(spec.resourceAttributes);
  const hasNonResource = isObj(spec.nonResourceAttributes);
  if (hasResource && hasNonResource) errs.push(invalid(path.child('nonResourceAttributes'), nonResourceValue(spec.nonResourceAttributes), 'cannot be specified in combination with resourceAttributes'));
  if (!hasResource && !hasNonResource) errs.push(invalid(path.child('resourceAttributes'), null, 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  return errs;
}

/** Upstream ValidateSubjectAccessReviewSpec: one attribute set, and a user or a group. */
function validateSubjectAccessReviewSpec(spec: Obj, path: FieldPath): FieldError[] {
  const errs = validateAttributeSets(spec, path);
  const groups = Array.isArray(spec.groups) ? spec.groups : [];
  if (str(spec.user) === '' && groups.length === 0) errs.push(invalid(path.child('user'), str(spec.user), 'at least one of user or group must be specified'));
  return errs;
}

const specOf = (o: Obj): Obj => (isObj(o.spec) ? o.spec : {});
const metaOf = (o: Obj): Obj => (isObj(o.metadata) ? o.metadata : {});
const SPEC = FieldPath.of('spec');
const METADATA = FieldPath.of('metadata');

/** Upstream ValidateSubjectAccessReview: the spec, and metadata empty (managed fields aside). */
export function validateSubjectAccessReview(sar: Obj): FieldError[] {
  const errs = validateSubjectAccessReviewSpec(specOf(sar), SPEC);
  if (!metaIsEmpty(metaOf(sar), ['managedFields'])) errs.push(invalid(METADATA, objectMetaValue(metaOf(sar)), 'must be empty'));
  return errs;
}

/** Upstream ValidateSelfSubjectAccessReview: one attribute set, and metadata empty (managed fields aside). */
export function validateSelfSubjectAccessReview(ssar: Obj): FieldError[] {
  const errs = validateAttributeSets(specOf(ssar), SPEC);
  if (!metaIsEmpty(metaOf(ssar), ['managedFields'])) errs.push(invalid(METADATA, objectMetaValue(metaOf(ssar)), 'must be empty'));
  return errs;
}

/**
 * Upstream ValidateLocalSubjectAccessReview: the spec; metadata empty but for the namespace;
 * `spec.resourceAttributes.namespace` equal to `metadata.namespace`; no non-resource attributes.
 */
export function validateLocalSubjectAccessReview(lsar: Obj): FieldError[] {
  const spec = specOf(lsar);
  const meta = metaOf(lsar);
  const errs = validateSubjectAccessReviewSpec(spec, SPEC);
  if (!metaIsEmpty(meta, ['managedFields', 'namespace'])) errs.push(invalid(METADATA, objectMetaValue(meta), 'must be empty except for namespace'));
  const ra = spec.resourceAttributes;
  if (isObj(ra) && str(ra.namespace) !== str(meta.namespace)) errs.push(invalid('spec.resourceAttributes.namespace', str(ra.namespace), 'must match metadata.namespace'));
  if (isObj(spec.nonResourceAttributes)) errs.push(invalid('spec.nonResourceAttributes', nonResourceValue(spec.nonResourceAttributes), 'disallowed on this kind of request'));
  return errs;
}
