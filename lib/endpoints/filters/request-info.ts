/**
 * First API filter: parses RequestInfo and creates the per-request context (signal, warnings).
 */
import { setMaxListeners } from 'node:events';
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
  // Every request in flight listens to it: no listener limit.
  setMaxListeners(0, shutdown);
  return async (koa: Context, next: Next): Promise<void> => {
    const controller = new AbortController();
    const abort = () => controller.abort();
    if (shutdown.aborted) controller.abort();
    else shutdown.addEventListener('abort', abort, { once: true });
    // The client went away when the response closes unfinished (the request's own 'close' fires
    // as soon as its body has been read, so it says nothing about the client).
    koa.res.once('close', () => {
      shutdown.removeEventListener('abort', abort);
      if (!koa.res.writableFinished) abort();
    });
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
