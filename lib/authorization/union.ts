/**
 * The authorizer union: modes in order, the first Allow or Deny decides, all NoOpinion → denied
 * (spec 001 § Authorization).
 */
import { goQuote } from '../apimachinery/go-quote.js';
import type { UserInfo } from '../request/user.js';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer, RuleResolver, RulesResult } from './interface.js';

/**
 * Upstream's error aggregate text (utilerrors.NewAggregate): one message as it is, several
 * (duplicates dropped) as `[a, b]`; undefined for none.
 */
export function aggregateErrors(messages: readonly string[]): string | undefined {
  const unique = [...new Set(messages)];
  if (unique.length === 0) return undefined;
  return unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
}

/** Consults `authorizers` in order. */
export class UnionAuthorizer implements Authorizer {
  constructor(private readonly authorizers: readonly Authorizer[]) {}

  /**
   * The first Allow or Deny with its own reason and evaluation error; otherwise NoOpinion with
   * every reason joined by newlines and every evaluation error aggregated, as upstream's union.
   */
  async authorize(attrs: AuthorizationAttributes): Promise<AuthorizationResult> {
    const reasons: string[] = [];
    const errors: string[] = [];
    for (const a of this.authorizers) {
      const r = await a.authorize(attrs);
      if (r.decision !== 'NoOpinion') return r;
      if (r.reason) reasons.push(r.reason);
      if (r.evaluationError) errors.push(r.evaluationError);
    }
    const evaluationError = aggregateErrors(errors);
    return evaluationError === undefined ? { decision: 'NoOpinion', reason: reasons.join('\n') } : { decision: 'NoOpinion', reason: reasons.join('\n'), evaluationError };
  }
}

/**
 * The rule resolvers of several modes as one (upstream's union RulesFor): every mode's rules
 * concatenated, `incomplete` when any mode's is, the evaluation errors aggregated.
 */
export class UnionRuleResolver implements RuleResolver {
  constructor(private readonly resolvers: readonly RuleResolver[]) {}

  async rulesFor(user: UserInfo, namespace: string): Promise<RulesResult> {
    const out: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: false };
    const errors: string[] = [];
    for (const r of this.resolvers) {
      const got = await r.rulesFor(user, namespace);
      out.resourceRules.push(...got.resourceRules);
      out.nonResourceRules.push(...got.nonResourceRules);
      if (got.incomplete) out.incomplete = true;
      if (got.evaluationError) errors.push(got.evaluationError);
    }
    const evaluationError = aggregateErrors(errors);
    if (evaluationError !== undefined) out.evaluationError = evaluationError;
    return out;
  }
}

/** Upstream's responsewriters sanitizer: `&`, `<` and `>` of the message (not of the reason) as HTML entities. */
function sanitize(s: string): string {
  return s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

/**
 * The 403 text of upstream (responsewriters.Forbidden, spec 001 § Errors): `User "u" cannot list
 * resource "pods" in API group "" in the namespace "ns"` (or `at the cluster scope`; a
 * subresource as `"pods/log"`), or `User "u" cannot get path "/x"`; values quoted as Go's `%q`,
 * `&`, `<`, `>` escaped as HTML entities, then `: <reason>` when the deciding mode gave one.
 * `requestGroup` is the group as the client spelled it (default: the attributes' canonical one).
 */
export function forbiddenMessage(a: AuthorizationAttributes, reason: string, requestGroup: string = a.apiGroup): string {
  const user = `User ${goQuote(a.user.name)}`;
  let msg: string;
  if (!a.isResourceRequest) {
    msg = `${user} cannot ${a.verb} path ${goQuote(a.path)}`;
  } else {
    const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
    msg = `${user} cannot ${a.verb} resource ${goQuote(resource)} in API group ${goQuote(requestGroup)}`;
    msg += a.namespace ? ` in the namespace ${goQuote(a.namespace)}` : ' at the cluster scope';
  }
  msg = sanitize(msg);
  return reason ? `${msg}: ${reason}` : msg;
}
