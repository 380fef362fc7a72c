/**
 * An authorizer of the chain that reports its terminal decisions (upstream 1.30's instrumented
 * authorizer of the authorization configuration): every Allow and Deny it makes is recorded
 * with its type and name; NoOpinion is not a decision and is not recorded.
 */
import type { AuthorizationAttributes, AuthorizationResult, Authorizer } from './interface.js';

/** Records one terminal decision: the authorizer's configured type and name, `allowed` or `denied`. */
export type AuthorizationDecisionRecorder = (type: string, name: string, decision: 'allowed' | 'denied') => void;

/** `authorizer`, reporting each Allow and Deny to `record` as `type`/`name`. */
export function instrumentedAuthorizer(type: string, name: string, authorizer: Authorizer, record: AuthorizationDecisionRecorder): Authorizer {
  return {
    async authorize(attrs: AuthorizationAttributes): Promise<AuthorizationResult> {
      const result = await authorizer.authorize(attrs);
      if (result.decision === 'Allow') record(type, name, 'allowed');
      else if (result.decision === 'Deny') record(type, name, 'denied');
      return result;
    },
  };
}
