/**
 * The SubjectAccessReview the webhook mode POSTs (spec 001 § Webhook authorization mode), in the
 * wire shape of upstream's `authorization.<vendor>` `v1beta1` and `v1`: `spec.resourceAttributes`
 * (`namespace`, `verb`, `group`, `version`, `resource`, `subresource`, `name`) or
 * `spec.nonResourceAttributes` (`path`, `verb`), plus `user`, the groups (`group` in v1beta1,
 * `groups` in v1), `extra` and `uid`; empty values are left out, as Go's `omitempty` does. The
 * remote answers `status.allowed`, `status.denied`, `status.reason`, `status.evaluationError`.
 */
import { canonicalGroup, vendorGroup } from '../../apis/vendor.js';
import type { AuthorizationAttributes } from '../interface.js';

/** The API group of SubjectAccessReview. */
export const AUTHORIZATION_GROUP = vendorGroup('authorization');
/** The versions a webhook may speak. */
export const SUBJECT_ACCESS_REVIEW_VERSIONS = ['v1', 'v1beta1'] as const;
/** One SubjectAccessReview version. */
export type SubjectAccessReviewVersion = (typeof SUBJECT_ACCESS_REVIEW_VERSIONS)[number];

/** `spec.resourceAttributes` (absent members were empty). */
export interface ResourceAttributes {
  namespace?: string;
  verb?: string;
  group?: string;
  version?: string;
  resource?: string;
  subresource?: string;
  name?: string;
}

/** `spec.nonResourceAttributes`. */
export interface NonResourceAttributes {
  path?: string;
  verb?: string;
}

/** The v1 `spec` (match conditions see this shape, whatever version the webhook speaks). */
export interface SubjectAccessReviewSpecV1 {
  resourceAttributes?: ResourceAttributes;
  nonResourceAttributes?: NonResourceAttributes;
  user?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
  uid?: string;
}

/** The `status` the remote fills. */
export interface SubjectAccessReviewStatus {
  allowed: boolean;
  denied: boolean;
  reason: string;
  evaluationError: string;
}

/** Leaves out empty strings, as Go's omitempty. */
function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== '' && v !== undefined)) as T;
}

/** The v1 spec of request `a` (upstream's conversion of authorizer attributes). */
export function specFor(a: AuthorizationAttributes): SubjectAccessReviewSpecV1 {
  const spec: SubjectAccessReviewSpecV1 = {};
  if (a.isResourceRequest) {
    spec.resourceAttributes = compact({
      namespace: a.namespace,
      verb: a.verb,
      group: a.apiGroup,
      version: a.apiVersion,
      resource: a.resource,
      subresource: a.subresource,
      name: a.name,
    });
  } else {
    spec.nonResourceAttributes = compact({ path: a.path, verb: a.verb });
  }
  if (a.user.name) spec.user = a.user.name;
  if (a.user.groups.length > 0) spec.groups = [...a.user.groups];
  if (a.user.extra && Object.keys(a.user.extra).length > 0) spec.extra = a.user.extra;
  if (a.user.uid) spec.uid = a.user.uid;
  return spec;
}

/**
 * The request document for `version`: `{"kind":"SubjectAccessReview","apiVersion":…,
 * "metadata":{"creationTimestamp":null},"spec":{…},"status":{"allowed":false}}`; v1beta1 names the
 * groups `group`.
 */
export function reviewFor(spec: SubjectAccessReviewSpecV1, version: SubjectAccessReviewVersion): object {
  const { groups, extra, uid, ...rest } = spec;
  const wireSpec = version === 'v1' ? spec : { ...rest, ...(groups && { group: groups }), ...(extra && { extra }), ...(uid && { uid }) };
  return {
    kind: 'SubjectAccessReview',
    apiVersion: `${AUTHORIZATION_GROUP}/${version}`,
    metadata: { creationTimestamp: null },
    spec: wireSpec,
    status: { allowed: false },
  };
}

/**
 * The status of a remote's answer, checked as upstream's decoder would: a JSON object whose
 * apiVersion and kind, when present, are SubjectAccessReview of `version` (the upstream spelling of
 * the group is accepted), with well-typed status fields.
 * @throws Error naming what is wrong.
 */
export function statusOf(answer: unknown, version: SubjectAccessReviewVersion): SubjectAccessReviewStatus {
  const bad = (why: string) => new Error(`webhook answered with an invalid SubjectAccessReview: ${why}`);
  if (!isObject(answer)) throw bad('not a JSON object');
  if (answer.apiVersion !== undefined && answer.apiVersion !== '') {
    const text = typeof answer.apiVersion === 'string' ? answer.apiVersion : '';
    const slash = text.lastIndexOf('/');
    if (`${canonicalGroup(text.slice(0, Math.max(0, slash)))}/${text.slice(slash + 1)}` !== `${AUTHORIZATION_GROUP}/${version}`) {
      throw bad(`apiVersion ${JSON.stringify(answer.apiVersion)}, expected ${AUTHORIZATION_GROUP}/${version}`);
    }
  }
  if (answer.kind !== undefined && answer.kind !== '' && answer.kind !== 'SubjectAccessReview') throw bad(`kind ${JSON.stringify(answer.kind)}, expected SubjectAccessReview`);
  const status = answer.status ?? {};
  if (!isObject(status)) throw bad('status is not an object');
  const field = <T>(key: string, type: 'boolean' | 'string', zero: T): T => {
    const v = status[key];
    if (v === undefined || v === null) return zero;
    if (typeof v !== type) throw bad(`status.${key} is not a ${type}`);
    return v as T;
  };
  return {
    allowed: field('allowed', 'boolean', false),
    denied: field('denied', 'boolean', false),
    reason: field('reason', 'string', ''),
    evaluationError: field('evaluationError', 'string', ''),
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
