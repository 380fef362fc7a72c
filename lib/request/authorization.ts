/**
 * The authorization contract (spec 001 § Authorization, § Access-review resources): request
 * attributes, decisions, authorizers and rule resolvers. It lives with the request types so that
 * both the authorizers (lib/authorization, which re-exports it) and the access-review registry
 * (lib/registry/authorization, which may not import lib/authorization) use one definition.
 */
import type { UserInfo } from './user.js';

/** An authorizer's verdict: the first Allow or Deny of the chain decides; all NoOpinion → 403. */
export type Decision = 'Allow' | 'Deny' | 'NoOpinion';

/**
 * Request attributes examined by authorizers (spec 001 § Authorization: request attributes).
 *
 * `apiGroup` is always the CANONICAL spelling of the group: with the upstream aliases on, a
 * request to `/apis/rbac.authorization.<upstream domain>/v1/...` and one to the vendor spelling
 * carry the same `apiGroup` (the vendor one, as `canonicalGroup` of lib/apis/vendor.ts gives
 * it), and so do access reviews naming either spelling. Authorizers therefore compare against
 * one spelling; a mode whose policy objects may name groups in the alias spelling (RBAC rules
 * written from upstream manifests, ABAC lines) canonicalizes those with the GroupCanonicalizer
 * handed to it by lib/controlplane. 403 messages keep the spelling the client used
 * (forbiddenMessage's `requestGroup`).
 */
export interface AuthorizationAttributes {
  user: UserInfo;
  /** API verb (get, list, watch, create, update, patch, delete, deletecollection, proxy, impersonate…) or the lower-case HTTP method of a non-resource request. */
  verb: string;
  isResourceRequest: boolean;
  /** URL path of a non-resource request (as received). */
  path: string;
  /** '' for the core group; otherwise the canonical group name (see above). */
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
}

/**
 * A decision with its reason (appended to 403 messages, SubjectAccessReview `status.reason`) and,
 * when the mode could not evaluate the request (a webhook unreachable, a role missing…), the
 * evaluation error (SubjectAccessReview `status.evaluationError`; a request that is not allowed
 * and carries one is answered 500, as upstream's authorization filter does).
 */
export interface AuthorizationResult {
  decision: Decision;
  reason: string;
  evaluationError?: string;
}

/** One authorization mode. */
export interface Authorizer {
  authorize(attrs: AuthorizationAttributes): Promise<AuthorizationResult>;
}

/** A resource rule a user holds (SelfSubjectRulesReview `status.resourceRules[]`). */
export interface ResourceRule {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames: string[];
}

/** A non-resource rule a user holds (SelfSubjectRulesReview `status.nonResourceRules[]`). */
export interface NonResourceRule {
  verbs: string[];
  nonResourceURLs: string[];
}

/** The rules a user holds in a namespace, as far as the modes can list them. */
export interface RulesResult {
  resourceRules: ResourceRule[];
  nonResourceRules: NonResourceRule[];
  /** True when some mode cannot list its rules (Webhook, Node, ABAC…) or listing failed. */
  incomplete: boolean;
  /** Why listing failed, when it did. */
  evaluationError?: string;
}

/** Lists the rules a user holds (spec 001 § Access-review resources: SelfSubjectRulesReview). */
export interface RuleResolver {
  /** The rules `user` holds in `namespace` ('' for cluster-wide rules only). */
  rulesFor(user: UserInfo, namespace: string): Promise<RulesResult>;
}
