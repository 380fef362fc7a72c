/**
 * Authorization: decide whether a user may perform a request's verb on its resource or path
 * (spec 001 § Authorization). Attributes come from RequestInfo and the authenticated user.
 */
import type { RequestInfo } from '../request/request-info.js';
import type { AuthorizationAttributes } from '../request/authorization.js';
import type { UserInfo } from '../request/user.js';

export type {
  AuthorizationAttributes,
  AuthorizationResult,
  Authorizer,
  Decision,
  NonResourceRule,
  ResourceRule,
  RuleResolver,
  RulesResult,
} from '../request/authorization.js';

/**
 * Maps an API group name to its canonical spelling (lib/apis/vendor.ts `canonicalGroup`;
 * injected, as lib/authorization may not import lib/apis). Must map '' to ''.
 */
export type GroupCanonicalizer = (group: string) => string;

/**
 * Attributes of a request (spec 001 § Authorization; spec 000 § Verb mapping): the RequestInfo's
 * verb, namespace, resource, subresource and name as parsed, the group canonicalized with
 * `canonical` (see AuthorizationAttributes).
 */
export function attributesFrom(info: RequestInfo, user: UserInfo, canonical: GroupCanonicalizer): AuthorizationAttributes {
  return {
    user,
    verb: info.verb,
    isResourceRequest: info.isResourceRequest,
    path: info.path,
    apiGroup: canonical(info.apiGroup),
    apiVersion: info.apiVersion,
    namespace: info.namespace,
    resource: info.resource,
    subresource: info.subresource,
    name: info.name,
  };
}
