/**
 * The authorizer union: modes in order, the first Allow or Deny decides, all NoOpinion → denied
 * (spec 001 § Authorization).
 */
import type { AuthorizationAttributes, AuthorizationResult, Authorizer } from './interface.js';

/** Consults `authorizers` in order. */
export class UnionAuthorizer implements Authorizer {
  constructor(private readonly authorizers: readonly Authorizer[]) {}

  async authorize(attrs: AuthorizationAttributes): Promise<AuthorizationResult> {
    const reasons: string[] = [];
    for (const a of this.authorizers) {
      const r = await a.authorize(attrs);
      if (r.decision !== 'NoOpinion') return r;
      if (r.reason) reasons.push(r.reason);
    }
    return { decision: 'NoOpinion', reason: reasons.join('\n') };
  }
}

/**
 * The 403 text of upstream: `User "u" cannot list resource "pods" in API group "" in the
 * namespace "ns"` (or `at the cluster scope`), or `User "u" cannot get path "/x"`.
 */
export function forbiddenMessage(a: AuthorizationAttributes, reason: string): string {
  const user = `User ${JSON.stringify(a.user.name)}`;
  let msg: string;
  if (!a.isResourceRequest) {
    msg = `${user} cannot ${a.verb} path ${JSON.stringify(a.path)}`;
  } else {
    const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
    msg = `${user} cannot ${a.verb} resource ${JSON.stringify(resource)} in API group ${JSON.stringify(a.apiGroup)}`;
    msg += a.namespace ? ` in the namespace ${JSON.stringify(a.namespace)}` : ' at the cluster scope';
  }
  return reason ? `${msg}: ${reason}` : msg;
}
