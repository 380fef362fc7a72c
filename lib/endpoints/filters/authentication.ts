/**
 * Authentication filter: runs the authenticator union and attaches the user; a rejected
 * credential is 401 Unauthorized (spec 001 § Authentication, § Errors).
 */
import type { Context, Next } from 'koa';
import { newUnauthorized } from '../../apimachinery/errors.js';
import { AuthenticationError } from '../../authentication/interface.js';
import type { UnionAuthenticator } from '../../authentication/union.js';
import { requestContextOf } from './request-info.js';

/** Koa middleware authenticating every request. */
export function withAuthentication(authenticator: UnionAuthenticator) {
  return async (koa: Context, next: Next): Promise<void> => {
    try {
      const res = await authenticator.authenticate(koa.req);
      requestContextOf(koa).user = res.user;
    } catch (err) {
      if (err instanceof AuthenticationError) throw newUnauthorized();
      throw err;
    }
    await next();
  };
}
