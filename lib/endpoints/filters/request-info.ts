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

/** The controller of the request context's signal, kept on Koa's state. */
const ABORT = Symbol('request abort controller');

/**
 * Aborts the request context's signal with `reason` (the request's deadline passed: its storage
 * calls and webhooks stop). No effect once it is aborted.
 */
export function abortRequest(koa: Context, reason: unknown): void {
  (koa.state as { [ABORT]?: AbortController })[ABORT]?.abort(reason);
}

/**
 * Koa middleware creating `ctx.state.requestContext`; its signal aborts when the client goes
 * away, when `shutdown` aborts (graceful shutdown ends long-running requests) or by
 * {@link abortRequest}. One controller per request; the requests in flight are kept in a set that
 * the shutdown walks once, rather than each listening on the shutdown signal.
 */
export function withRequestInfo(shutdown: AbortSignal) {
  const inFlight = new Set<AbortController>();
  shutdown.addEventListener('abort', () => {
    for (const c of inFlight) c.abort();
  }, { once: true });
  return async (koa: Context, next: Next): Promise<void> => {
    const controller = new AbortController();
    if (shutdown.aborted) controller.abort();
    else inFlight.add(controller);
    // The client went away when the response closes unfinished (the request's own 'close' fires
    // as soon as its body has been read, so it says nothing about the client).
    koa.res.once('close', () => {
      inFlight.delete(controller);
      if (!koa.res.writableFinished) controller.abort();
    });
    const ctx: RequestContext = {
      requestInfo: parseRequestInfo(koa.method, koa.path, new URLSearchParams(koa.querystring)),
      signal: controller.signal,
      warnings: [],
      userAgent: koa.get('User-Agent'),
      auditAnnotations: {},
    };
    (koa.state as { requestContext: RequestContext; [ABORT]: AbortController }).requestContext = ctx;
    (koa.state as { [ABORT]: AbortController })[ABORT] = controller;
    await next();
  };
}
