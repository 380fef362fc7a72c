/**
 * Authorization: decide whether a user may perform a request's verb on its resource or path
 * (spec 001 § Authorization). Attributes come from RequestInfo and the authenticated user.
 */
import type { RequestInfo } from '../request/request-info.js';
import type { UserInfo } from '../request/user.js';

export type Decision = 'Allow' | 'Deny' | 'NoOpinion';

/** Request attributes examined by authorizers. */
export interface AuthorizationAttributes {
  user: UserInfo;
  verb: string;
  isResourceRequest: boolean;
  path: string;
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
}

/** A decision with its reason (shown in 403 messages and SubjectAccessReview status). */
export interface AuthorizationResult {
  decision: Decision;
  reason: string;
}

/** One authorization mode. */
export interface Authorizer {
  authorize(attrs: AuthorizationAttributes): Promise<AuthorizationResult>;
}

/** Attributes of a request. */
export function attributesFrom(info: RequestInfo, user: UserInfo): AuthorizationAttributes {
  return {
    user,
    verb: info.verb,
    isResourceRequest: info.isResourceRequest,
    path: info.path,
    apiGroup: info.apiGroup,
    apiVersion: info.apiVersion,
    namespace: info.namespace,
    resource: info.resource,
    subresource: info.subresource,
    name: info.name,
  };
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
