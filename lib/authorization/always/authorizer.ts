/**
 * The `AlwaysAllow` and `AlwaysDeny` modes of `--authorization-mode` (spec 001 § Authorization),
 * as upstream's: AlwaysAllow allows every request and lists every rule; AlwaysDeny has no
 * opinion on anything ("Everything is forbidden."), so a later mode may still allow, and lists no
 * rule.
 */
import type { UserInfo } from '../../request/user.js';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer, RuleResolver, RulesResult } from '../interface.js';

/** Allows every request; its rules are `*` on every resource and non-resource URL. */
export class AlwaysAllowAuthorizer implements Authorizer, RuleResolver {
  async authorize(_a: AuthorizationAttributes): Promise<AuthorizationResult> {
    return { decision: 'Allow', reason: '' };
  }

  async rulesFor(_user: UserInfo, _namespace: string): Promise<RulesResult> {
    return {
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
    };
  }
}

/** The reason AlwaysDeny gives (upstream's wording). */
export const ALWAYS_DENY_REASON = 'Everything is forbidden.';

/** Has no opinion on any request (reason {@link ALWAYS_DENY_REASON}); lists no rule. */
export class AlwaysDenyAuthorizer implements Authorizer, RuleResolver {
  async authorize(_a: AuthorizationAttributes): Promise<AuthorizationResult> {
    return { decision: 'NoOpinion', reason: ALWAYS_DENY_REASON };
  }

  async rulesFor(_user: UserInfo, _namespace: string): Promise<RulesResult> {
    return { resourceRules: [], nonResourceRules: [], incomplete: false };
  }
}
