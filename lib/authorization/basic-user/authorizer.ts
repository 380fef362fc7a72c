/**
 * What upstream's `system:basic-user` cluster role grants every authenticated user (bound to
 * `system:authenticated` by default): `create` on `selfsubjectreviews` of the authentication
 * group, under its vendor spelling or its upstream alias (spec 001 § Client credential plugin,
 * last paragraph: any authenticated user may create a SelfSubjectReview). No opinion otherwise,
 * nor for anonymous requests.
 */
import { canonicalGroup, vendorGroup } from '../../apis/vendor.js';
import { AUTHENTICATED_GROUP } from '../../request/user.js';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer } from '../interface.js';

/** The resource rules of the role: group, resources and verbs. */
const BASIC_USER_RULES: readonly { group: string; resources: readonly string[]; verbs: readonly string[] }[] = [
  { group: vendorGroup('authentication'), resources: ['selfsubjectreviews'], verbs: ['create'] },
];

/** The basic-user authorizer. */
export class BasicUserAuthorizer implements Authorizer {
  async authorize(a: AuthorizationAttributes): Promise<AuthorizationResult> {
    if (!a.isResourceRequest || a.subresource !== '' || !a.user.groups.includes(AUTHENTICATED_GROUP)) return { decision: 'NoOpinion', reason: '' };
    const group = canonicalGroup(a.apiGroup);
    const allowed = BASIC_USER_RULES.some((r) => r.group === group && r.resources.includes(a.resource) && r.verbs.includes(a.verb));
    return allowed ? { decision: 'Allow', reason: '' } : { decision: 'NoOpinion', reason: '' };
  }
}
