/**
 * Authorization filter: anything not allowed is 403 Forbidden with the upstream message
 * (spec 001 § Authorization, § Errors).
 */
import type { Context, Next } from 'koa';
import { newForbidden, newForbiddenPath } from '../../apimachinery/errors.js';
import { type Authorizer, attributesFrom } from '../../authorization/interface.js';
import { forbiddenMessage } from '../../authorization/union.js';
import { requestContextOf } from './request-info.js';

/** Koa middleware authorizing every request. */
export function withAuthorization(authorizer: Authorizer) {
  return async (koa: Context, next: Next): Promise<void> => {
    const ctx = requestContextOf(koa);
    const attrs = attributesFrom(ctx.requestInfo, ctx.user!);
    const res = await authorizer.authorize(attrs);
    if (res.decision !== 'Allow') {
      const msg = forbiddenMessage(attrs, res.reason);
      if (!attrs.isResourceRequest) throw newForbiddenPath(msg);
      throw newForbidden({ group: attrs.apiGroup, resource: attrs.resource }, attrs.name, msg);
    }
    await next();
  };
}
