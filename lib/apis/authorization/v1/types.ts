/**
 * The types of `authorization.<vendor>/v1` the kinds share (upstream api/authorization/v1 field
 * structure, JSON names and protobuf numbers of v1.30, Go declaration order; spec 001
 * § Access-review resources): the attributes of an access question, the specs and the statuses of
 * the access reviews, and the rules of a SelfSubjectRulesReview.
 */
import { boolean, field, listOf, mapOf, string, struct } from '../../../apimachinery/schema/builder.js';
import { vendorGroup } from '../../vendor.js';

/** The API group of the access reviews (`authorization.<vendor>`). */
export const AUTHORIZATION_GROUP = vendorGroup('authorization');

const atomicStrings = () => listOf(string, { listType: 'atomic' });

/** A resource request to ask about: upstream ResourceAttributes (every field `omitempty`). */
export const resourceAttributes = struct('api.authorization.v1.ResourceAttributes', {
  namespace: field(1, string, { description: 'The namespace of the action; empty for cluster-scoped resources, or for namespaced ones across all namespaces.' }),
  verb: field(2, string, { description: 'The API verb (get, list, watch, create, update, patch, delete, deletecollection, proxy…); `*` means all.' }),
  group: field(3, string, { description: 'The API group of the resource; `*` means all.' }),
  version: field(4, string, { description: 'The API version of the resource; `*` means all.' }),
  resource: field(5, string, { description: 'The resource type; `*` means all.' }),
  subresource: field(6, string, { description: 'The subresource; empty for the resource itself.' }),
  name: field(7, string, { description: 'The name of the object; empty for every object (list, create, deletecollection…).' }),
});

/** A non-resource request to ask about: upstream NonResourceAttributes. */
export const nonResourceAttributes = struct('api.authorization.v1.NonResourceAttributes', {
  path: field(1, string, { description: 'The URL path of the request.' }),
  verb: field(2, string, { description: 'The lower-case HTTP method.' }),
});

/**
 * The question of a SubjectAccessReview or LocalSubjectAccessReview: exactly one of
 * `resourceAttributes` and `nonResourceAttributes`, and the user asked about (at least a user or
 * a group). `extra` is `map[string]ExtraValue`, in protobuf the `{items}` wrapper message.
 */
export const subjectAccessReviewSpec = struct('api.authorization.v1.SubjectAccessReviewSpec', {
  resourceAttributes: field(1, resourceAttributes, { pointer: true, description: 'The resource request to check; set this or nonResourceAttributes.' }),
  nonResourceAttributes: field(2, nonResourceAttributes, { pointer: true, description: 'The non-resource request to check; set this or resourceAttributes.' }),
  user: field(3, string, { description: 'The user to check for. Set user, groups or both.' }),
  groups: field(4, atomicStrings(), { description: 'The groups of the user to check for.' }),
  extra: field(5, mapOf(listOf(string)), { description: 'Further attributes of the user, as an authenticator would attach them.' }),
  uid: field(6, string, { description: 'The uid of the user to check for.' }),
});

/** The question of a SelfSubjectAccessReview, about the requesting user: exactly one of the two attribute sets. */
export const selfSubjectAccessReviewSpec = struct('api.authorization.v1.SelfSubjectAccessReviewSpec', {
  resourceAttributes: field(1, resourceAttributes, { pointer: true, description: 'The resource request to check; set this or nonResourceAttributes.' }),
  nonResourceAttributes: field(2, nonResourceAttributes, { pointer: true, description: 'The non-resource request to check; set this or resourceAttributes.' }),
});

/** The answer of an access review: `allowed` always written; `denied`, `reason`, `evaluationError` when set. */
export const subjectAccessReviewStatus = struct('api.authorization.v1.SubjectAccessReviewStatus', {
  allowed: field(1, boolean, { required: true, omitEmpty: false, description: 'Whether the action is allowed.' }),
  denied: field(4, boolean, { description: 'Whether the action is explicitly denied (a mode said no); false with allowed false means no mode had an opinion.' }),
  reason: field(2, string, { description: 'Why the action is allowed or denied, from the deciding mode.' }),
  evaluationError: field(3, string, { description: 'An error some mode met while checking; the decision may still hold.' }),
});

/** The namespace a SelfSubjectRulesReview lists the rules of. */
export const selfSubjectRulesReviewSpec = struct('api.authorization.v1.SelfSubjectRulesReviewSpec', {
  namespace: field(1, string, { description: 'The namespace to list the rules of.' }),
});

/** An action on resources the subject may perform: upstream ResourceRule. */
export const resourceRule = struct('api.authorization.v1.ResourceRule', {
  verbs: field(1, atomicStrings(), { required: true, omitEmpty: false, description: 'The API verbs allowed; `*` means all.' }),
  apiGroups: field(2, atomicStrings(), { description: 'The API groups of the resources; `*` means all.' }),
  resources: field(3, atomicStrings(), { description: 'The resources (`<resource>/<subresource>` for a subresource); `*` means all.' }),
  resourceNames: field(4, atomicStrings(), { description: 'The names the rule is limited to; empty means every name.' }),
});

/** An action on non-resource paths the subject may perform: upstream NonResourceRule. */
export const nonResourceRule = struct('api.authorization.v1.NonResourceRule', {
  verbs: field(1, atomicStrings(), { required: true, omitEmpty: false, description: 'The lower-case HTTP methods allowed; `*` means all.' }),
  nonResourceURLs: field(2, atomicStrings(), { description: 'The paths; a trailing `*` matches every path with that prefix.' }),
});

/** The rules a subject holds in a namespace; every field but `evaluationError` always written. */
export const subjectRulesReviewStatus = struct('api.authorization.v1.SubjectRulesReviewStatus', {
  resourceRules: field(1, listOf(resourceRule, { listType: 'atomic' }), { required: true, omitEmpty: false, description: 'The actions allowed on resources; unordered, possibly with duplicates, possibly incomplete.' }),
  nonResourceRules: field(2, listOf(nonResourceRule, { listType: 'atomic' }), {
    required: true,
    omitEmpty: false,
    description: 'The actions allowed on non-resource paths; unordered, possibly with duplicates, possibly incomplete.',
  }),
  incomplete: field(3, boolean, { required: true, omitEmpty: false, description: 'True when some authorization mode cannot list its rules (Webhook, Node…), so more actions may be allowed.' }),
  evaluationError: field(4, string, { description: 'Why the rules may be incomplete, when listing them met an error.' }),
});
