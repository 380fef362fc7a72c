/**
 * First API filter: parses RequestInfo and creates the per-request context (signal, warnings).
 */
import type { Context, Next } from 'koa';
import type { RequestContext } from '../../request/context.js';
import { parseRequestInfo } from '../../request/request-info.js';

/** The request context stored on Koa's state. */
export function requestContextOf(koa: Context): RequestContext {
  return (koa.state as { requestContext: RequestContext }).requestContext;
}

/**
 * Koa middleware creating `ctx.state.requestContext`; its signal aborts when the client goes
 * away or `shutdown` aborts (graceful shutdown ends long-running requests).
 */
export function withRequestInfo(shutdown: AbortSignal) {
  return async (koa: Context, next: Next): Promise<void> => {
    const controller = new AbortController();
    const abort = () => controller.abort();
    koa.req.once('close', abort);
    if (shutdown.aborted) controller.abort();
    else shutdown.addEventListener('abort', abort, { once: true });
    koa.res.once('close', () => shutdown.removeEventListener('abort', abort));
    const ctx: RequestContext = {
      requestInfo: parseRequestInfo(koa.method, koa.path, new URLSearchParams(koa.querystring)),
      signal: controller.signal,
      warnings: [],
      userAgent: koa.get('User-Agent'),
      auditAnnotations: {},
    };
    (koa.state as { requestContext: RequestContext }).requestContext = ctx;
    await next();
  };
}
