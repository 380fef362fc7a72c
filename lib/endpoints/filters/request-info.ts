/**
 * First API filter: parses RequestInfo and creates the per-request context (signal, warnings).
 */
import type { Context, Next } from 'koa';
import type { RequestContext } from '../../request/context.js';
import { parseRequestInfo, type RequestInfo } from '../../request/request-info.js';
import type { UserInfo } from '../../request/user.js';

/** The request context stored on Koa's state. */
export function requestContextOf(koa: Context): RequestContext {
  return (koa.state as { requestContext: RequestContext }).requestContext;
}

/** The request's query, parsed once, kept on Koa's state. */
const QUERY = Symbol('request query');

/**
 * The request's query parameters, parsed once by the request-info filter and shared by every
 * later filter and handler, which only read them (parsed here when that filter did not run).
 */
export function requestQueryOf(koa: Context): URLSearchParams {
  const state = koa.state as { [QUERY]?: URLSearchParams };
  return (state[QUERY] ??= new URLSearchParams(koa.querystring));
}

/** The request's abort state, kept on Koa's state. */
const ABORT = Symbol('request abort');

/**
 * The abort state of one request: its AbortController is created only when something asks for
 * the signal (a cached get never does: ~8 µs a request saved, issue #17 item 1). An abort before
 * that is remembered, and the signal is then born aborted with the same reason.
 */
class RequestAbort {
  private controller?: AbortController;
  private aborted = false;
  private reason: unknown;

  /** The request's signal, created at the first call. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** Aborts with `reason` (absent: the DOM AbortError); no effect once aborted. */
  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.controller?.abort(reason);
  }
}

/**
 * Aborts the request context's signal with `reason` (the request's deadline passed: its storage
 * calls and webhooks stop). No effect once it is aborted.
 */
export function abortRequest(koa: Context, reason: unknown): void {
  (koa.state as { [ABORT]?: RequestAbort })[ABORT]?.abort(reason);
}

/**
 * The context of one HTTP request. A class, not an object literal with a `get signal()`: V8 makes
 * such a literal per request on its slow path and reads it slowly after, and every filter and
 * handler reads this object (its properties are all set here, so that adding the user later
 * does not change its shape).
 */
class HTTPRequestContext implements RequestContext {
  user: UserInfo | undefined = undefined;
  audiences: string[] | undefined = undefined;
  readonly warnings: string[] = [];
  readonly auditAnnotations: Record<string, string> = {};

  constructor(
    readonly requestInfo: RequestInfo,
    readonly userAgent: string,
    private readonly abort: RequestAbort,
  ) {}

  /** Made on first read (a cached GET never reads it). */
  get signal(): AbortSignal {
    return this.abort.signal;
  }
}

/**
 * Koa middleware creating `ctx.state.requestContext`; its signal aborts when the client goes
 * away, when `shutdown` aborts (graceful shutdown ends long-running requests) or by
 * {@link abortRequest}. The requests in flight are kept in a set that the shutdown walks once,
 * rather than each listening on the shutdown signal.
 */
export function withRequestInfo(shutdown: AbortSignal) {
  const inFlight = new Set<RequestAbort>();
  shutdown.addEventListener('abort', () => {
    for (const a of inFlight) a.abort();
  }, { once: true });
  return async (koa: Context, next: Next): Promise<void> => {
    const abort = new RequestAbort();
    if (shutdown.aborted) abort.abort();
    else inFlight.add(abort);
    // The client went away when the response closes unfinished (the request's own 'close' fires
    // as soon as its body has been read, so it says nothing about the client).
    koa.res.once('close', () => {
      inFlight.delete(abort);
      if (!koa.res.writableFinished) abort.abort();
    });
    const ctx = new HTTPRequestContext(parseRequestInfo(koa.method, koa.path, requestQueryOf(koa)), koa.get('User-Agent'), abort);
    (koa.state as { requestContext: RequestContext; [ABORT]: RequestAbort }).requestContext = ctx;
    (koa.state as { [ABORT]: RequestAbort })[ABORT] = abort;
    await next();
  };
}
