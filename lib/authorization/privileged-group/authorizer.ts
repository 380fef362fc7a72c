/**
 * Allows everything to members of the privileged group (`system:masters`); no opinion otherwise.
 * Upstream grants this through the cluster-admin binding and a short-circuit for the group.
 */
import { MASTERS_GROUP } from '../../request/user.js';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer } from '../interface.js';

/** The privileged-group authorizer. */
export class PrivilegedGroupAuthorizer implements Authorizer {
  constructor(private readonly group: string = MASTERS_GROUP) {}

  async authorize(a: AuthorizationAttributes): Promise<AuthorizationResult> {
    return a.user.groups.includes(this.group) ? { decision: 'Allow', reason: '' } : { decision: 'NoOpinion', reason: '' };
  }
}
