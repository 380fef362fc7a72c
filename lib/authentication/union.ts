/**
 * The authenticator union: the first method that succeeds decides; when none succeeds and one
 * rejected a credential, the request is unauthorized (401); with no credential at all the request
 * is anonymous when allowed. Every authenticated user also gets `system:authenticated`
 * (spec 001 § Authentication, § Anonymous requests).
 */
import type { IncomingMessage } from 'node:http';
import { ANONYMOUS_USER, AUTHENTICATED_GROUP, UNAUTHENTICATED_GROUP } from '../request/user.js';
import { type AuthResult, AuthenticationError, type RequestAuthenticator } from './interface.js';

/** Options of the union. */
export interface UnionOptions {
  /** `--anonymous-auth` (default true). */
  anonymous: boolean;
}

/** Authenticates a request through `methods` in order. */
export class UnionAuthenticator {
  constructor(
    private readonly methods: readonly RequestAuthenticator[],
    private readonly opts: UnionOptions,
  ) {}

  /** Returns the user, or throws AuthenticationError (→ 401). */
  async authenticate(req: IncomingMessage): Promise<AuthResult> {
    const errors: string[] = [];
    for (const m of this.methods) {
      try {
        const res = await m.authenticateRequest(req);
        if (res) return withAuthenticatedGroup(res);
      } catch (err) {
        if (!(err instanceof AuthenticationError)) throw err;
        errors.push(err.message);
      }
    }
    if (errors.length > 0) throw new AuthenticationError(errors.join(', '));
    if (!this.opts.anonymous) throw new AuthenticationError('anonymous requests are not allowed');
    return { user: { name: ANONYMOUS_USER, groups: [UNAUTHENTICATED_GROUP] } };
  }
}

/** Adds `system:authenticated` unless the user is anonymous or already in it or in `system:unauthenticated` (upstream AuthenticatedGroupAdder). */
function withAuthenticatedGroup(res: AuthResult): AuthResult {
  const g = res.user.groups;
  if (g.includes(AUTHENTICATED_GROUP) || g.includes(UNAUTHENTICATED_GROUP) || res.user.name === ANONYMOUS_USER) return res;
  return { ...res, user: { ...res.user, groups: [...res.user.groups, AUTHENTICATED_GROUP] } };
}
