/**
 * Authentication filter (spec 001 § Authentication, § Errors): runs the authenticator union
 * for the API audiences and attaches the user and the audiences its credential was found valid
 * for; a rejected credential, a credential valid only for other audiences, or no credential with
 * anonymous requests off is 401 with upstream's Status (`message: Unauthorized`). After a
 * success — anonymous included — the `Authorization` header leaves the request, as upstream.
 */
import type { Context, Next } from 'koa';
import { newUnauthorized } from '../../apimachinery/errors.js';
import { audiencesAreAcceptable } from '../../authentication/audiences.js';
import { type AuthResult, AuthenticationError } from '../../authentication/interface.js';
import type { UnionAuthenticator } from '../../authentication/union.js';
import type { AuthMetrics } from '../../metrics/auth.js';
import { addWarning } from '../../request/context.js';
import { removeRequestHeaders } from './remove-headers.js';
import { requestContextOf } from './request-info.js';

const isAuthorization = (name: string) => name === 'authorization';

/**
 * Koa middleware authenticating every request; `metrics` records each attempt
 * (`authentication_attempts`, `authentication_duration_seconds`, `authenticated_user_requests`):
 * `failure` for a rejected credential, `error` for a failure or unacceptable audiences.
 */
export function withAuthentication(authenticator: UnionAuthenticator, metrics?: AuthMetrics) {
  return async (koa: Context, next: Next): Promise<void> => {
    const ctx = requestContextOf(koa);
    const start = process.hrtime.bigint();
    let res: AuthResult;
    try {
      res = await authenticator.authenticate(koa.req, { warn: (text) => addWarning(ctx, text) });
    } catch (err) {
      if (err instanceof AuthenticationError) {
        metrics?.authentication('failure', start);
        throw newUnauthorized();
      }
      metrics?.authentication('error', start);
      throw err;
    }
    if (!audiencesAreAcceptable(authenticator.apiAudiences, res.audiences)) {
      metrics?.authentication('error', start);
      throw newUnauthorized();
    }
    metrics?.authentication('success', start, res.user.name);
    if (koa.req.headers.authorization !== undefined) removeRequestHeaders(koa.req, isAuthorization);
    ctx.user = res.user;
    if (res.audiences) ctx.audiences = res.audiences;
    await next();
  };
}
