/**
 * The API approval of a CustomResourceDefinition in a protected group (upstream
 * `validateAPIApproval` and `GetAPIApprovalState`; issue #14): a definition whose group is the
 * vendor's domain or an upstream one (`k8s.io`, `kubernetes.io`, or below them) must carry the
 * approval annotation — a URL, or a reason starting with `unapproved`. An update that does not
 * change the approval state is never refused, so definitions stored before keep updating. This
 * also keeps users' definitions off the groups of the built-in resources, whose objects a deleted
 * definition would otherwise take along.
 */
import { type FieldError, FieldPath, invalid, required } from '../../apimachinery/field-errors.js';
import { API_APPROVED_ANNOTATION, PROTECTED_GROUP_DOMAINS, UPSTREAM_API_APPROVED_ANNOTATION } from '../../apis/vendor.js';
import type { CustomResourceDefinition } from '../types.js';

type ApprovalState = 'approved' | 'bypassed' | 'invalid' | 'missing';

/** True for the vendor's and upstream's domains and every group below them. */
export function isProtectedGroup(group: string): boolean {
  return PROTECTED_GROUP_DOMAINS.some((d) => group === d || group.endsWith(`.${d}`));
}

/** The annotation's value: the vendor spelling, else the upstream one. */
function annotationOf(crd: CustomResourceDefinition): string {
  const a = (crd.metadata.annotations ?? {}) as Record<string, unknown>;
  const v = a[API_APPROVED_ANNOTATION] ?? a[UPSTREAM_API_APPROVED_ANNOTATION];
  return typeof v === 'string' ? v : '';
}

/** A URL with a scheme and a host, as Go's `url.ParseRequestURI` accepts them. */
function isURL(text: string): boolean {
  try {
    const u = new URL(text);
    return u.protocol.length > 1 && u.host !== '';
  } catch {
    return false;
  }
}

function stateOf(value: string): { state: ApprovalState; reason: string } {
  if (value === '') return { state: 'missing', reason: `protected groups must have approval annotation "${API_APPROVED_ANNOTATION}", see https://github.com/kubernetes/enhancements/pull/1111` };
  if (value.startsWith('unapproved')) return { state: 'bypassed', reason: `not approved: "${value}"` };
  if (isURL(value)) return { state: 'approved', reason: `approved in ${value}` };
  return {
    state: 'invalid',
    reason: `protected groups must have approval annotation "${API_APPROVED_ANNOTATION}" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`,
  };
}

/** The approval errors of `crd` (an update when `old` is given), at `metadata.annotations[<annotation>]`. */
export function validateAPIApproval(crd: CustomResourceDefinition, old?: CustomResourceDefinition): FieldError[] {
  if (!isProtectedGroup(typeof crd.spec?.group === 'string' ? crd.spec.group : '')) return [];
  const value = annotationOf(crd);
  const next = stateOf(value);
  if (old && stateOf(annotationOf(old)).state === next.state) return [];
  const path = FieldPath.of('metadata', 'annotations').key(API_APPROVED_ANNOTATION);
  if (next.state === 'invalid') return [invalid(path, value, next.reason)];
  if (next.state === 'missing') return [required(path, next.reason)];
  return [];
}
