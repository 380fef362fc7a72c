/**
 * Reads of the health, version and discovery paths, as the upstream default roles grant them:
 * health and version to everyone (`system:public-info-viewer`), discovery and OpenAPI to
 * authenticated users (`system:discovery`), and the service-account issuer discovery documents to
 * authenticated users (upstream grants them to `system:serviceaccounts` through
 * `system:service-account-issuer-discovery`; until RBAC, every authenticated user reads them).
 * No opinion on anything else.
 */
import { AUTHENTICATED_GROUP } from '../../request/user.js';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer } from '../interface.js';

/** Non-resource URL patterns (exact, or a trailing `*` prefix) per audience. */
export const PUBLIC_INFO_PATHS = ['/healthz', '/livez', '/readyz', '/version', '/version/'];
export const DISCOVERY_PATHS = ['/api', '/api/*', '/apis', '/apis/*', '/openapi', '/openapi/*', '/version', '/version/', '/healthz', '/livez', '/readyz'];
/** The service-account issuer discovery documents (issue #10 item 2). */
export const SERVICE_ACCOUNT_ISSUER_DISCOVERY_PATHS = ['/.well-known/openid-configuration', '/openid/v1/jwks'];

function matchesAny(path: string, patterns: readonly string[]): boolean {
  return patterns.some((p) => (p.endsWith('*') ? path.startsWith(p.slice(0, -1)) : path === p));
}

/** The public-paths authorizer. */
export class PublicPathsAuthorizer implements Authorizer {
  async authorize(a: AuthorizationAttributes): Promise<AuthorizationResult> {
    if (a.isResourceRequest || a.verb !== 'get') return { decision: 'NoOpinion', reason: '' };
    if (matchesAny(a.path, PUBLIC_INFO_PATHS)) return { decision: 'Allow', reason: '' };
    if (a.user.groups.includes(AUTHENTICATED_GROUP) && matchesAny(a.path, DISCOVERY_PATHS)) return { decision: 'Allow', reason: '' };
    if (a.user.groups.includes(AUTHENTICATED_GROUP) && matchesAny(a.path, SERVICE_ACCOUNT_ISSUER_DISCOVERY_PATHS)) return { decision: 'Allow', reason: '' };
    return { decision: 'NoOpinion', reason: '' };
  }
}
