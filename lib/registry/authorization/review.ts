/**
 * What the access-review Creaters share (spec 001 § Access-review resources; issue #11 item 9):
 * the authorizer chain and rule resolver they ask — structural interfaces implemented by
 * lib/authorization (its Authorizer and RuleResolver; the registry layer does not import it) —,
 * the attributes a review's spec describes, and the status it answers with, as upstream's
 * pkg/registry/authorization does.
 */
import { newInvalid } from '../../apimachinery/errors.js';
import type { FieldError } from '../../apimachinery/field-errors.js';
import { AUTHORIZATION_GROUP } from '../../apis/authorization/v1/index.js';
import type { Obj } from '../../apis/define.js';
import { canonicalGroup } from '../../apis/vendor.js';
import type { AuthorizationAttributes, Authorizer } from '../../request/authorization.js';
import type { UserInfo } from '../../request/user.js';

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

/**
 * The attributes of a spec's question for `user` (upstream ResourceAttributesFrom /
 * NonResourceAttributesFrom): `resourceAttributes` as a resource request — an empty version
 * meaning every version (`*`), the group canonicalized —, otherwise `nonResourceAttributes` as a
 * non-resource request. The spec must have passed validation (one of the two is set).
 */
export function reviewAttributes(user: UserInfo, spec: Obj): AuthorizationAttributes {
  const ra = spec.resourceAttributes;
  if (isObj(ra)) {
    return {
      user,
      verb: str(ra.verb),
      isResourceRequest: true,
      path: '',
      apiGroup: canonicalGroup(str(ra.group)),
      apiVersion: str(ra.version) || '*',
      namespace: str(ra.namespace),
      resource: str(ra.resource),
      subresource: str(ra.subresource),
      name: str(ra.name),
    };
  }
  const nra = isObj(spec.nonResourceAttributes) ? spec.nonResourceAttributes : {};
  return { user, verb: str(nra.verb), isResourceRequest: false, path: str(nra.path), apiGroup: '', apiVersion: '', namespace: '', resource: '', subresource: '', name: '' };
}

/** The user a SubjectAccessReviewSpec asks about (upstream AuthorizationAttributesFrom): as given, no groups added. */
export function specUser(spec: Obj): UserInfo {
  const user: UserInfo = { name: str(spec.user), groups: strings(spec.groups) };
  if (str(spec.uid)) user.uid = str(spec.uid);
  if (isObj(spec.extra)) user.extra = Object.fromEntries(Object.entries(spec.extra).map(([k, v]) => [k, strings(v)]));
  return user;
}

/**
 * Asks `reviewer` and fills upstream's SubjectAccessReviewStatus: `allowed` always, `denied`
 * when a mode denied, `reason` and `evaluationError` when given.
 */
export async function decide(reviewer: Authorizer, attrs: AuthorizationAttributes): Promise<Obj> {
  const res = await reviewer.authorize(attrs);
  const status: Obj = { allowed: res.decision === 'Allow' };
  if (res.decision === 'Deny') status.denied = true;
  if (res.reason) status.reason = res.reason;
  if (res.evaluationError) status.evaluationError = res.evaluationError;
  return status;
}

/**
 * 422 of an access review's validation, as upstream raises it: the kind of the decoded internal
 * object is empty, so the message reads `.authorization.<vendor> "" is invalid: …`.
 * @throws StatusError always, when `errs` is not empty.
 */
export function throwIfInvalid(errs: FieldError[]): void {
  if (errs.length > 0) throw newInvalid({ group: AUTHORIZATION_GROUP, kind: '' }, '', errs);
}
