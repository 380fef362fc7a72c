/**
 * The deadline of non-long-running requests (issue #19 item 3; upstream `WithRequestDeadline` and
 * `WithTimeoutForNonLongRunningRequests`): `--request-timeout` (default 1m0s), shortened by the
 * request's `timeout` query parameter when that is positive and smaller. At the deadline the
 * request context's signal aborts (storage calls and webhooks stop) and the client gets
 * `504 Timeout` with upstream's message; a response already started is cut (the socket is
 * destroyed), as upstream's timeout writer does.
 */
import type { Context, Next } from 'koa';
import { parseDuration } from '../../apimachinery/duration.js';
import { newBadRequest, newTimeout } from '../../apimachinery/errors.js';
import { requestContextOf } from '../../endpoints/filters/request-info.js';

/** Upstream's message prefix of a malformed `timeout` query parameter. */
const INVALID_TIMEOUT_IN_URL = 'invalid timeout specified in the request URL';
/** Upstream's message of a request cut at its deadline (the finisher's, with Go's `context deadline exceeded`). */
export const REQUEST_TIMEOUT_MESSAGE = 'request did not complete within requested timeout - context deadline exceeded';

/**
 * The deadline of one request in milliseconds: `maxMs`, or the `timeout` query parameter (a Go
 * duration) when it is positive and below `maxMs`.
 * @throws StatusError 400 BadRequest `invalid timeout specified in the request URL - time: invalid duration "x"`.
 */
export function requestDeadlineMs(timeoutParam: string | null, maxMs: number): number {
  if (timeoutParam === null || timeoutParam === '') return maxMs;
  let user: number;
  try {
    user = parseDuration(timeoutParam);
  } catch (err) {
    throw newBadRequest(`${INVALID_TIMEOUT_IN_URL} - ${(err as Error).message}`);
  }
  return user > 0 && user < maxMs ? user : maxMs;
}

/**
 * Koa middleware bounding non-long-running requests by `timeoutMs` (0: no deadline). Installed
 * after the request-info filter: it replaces the request context's signal by one that also aborts
 * at the deadline.
 * @throws StatusError 504 Timeout at the deadline; 400 for a malformed `timeout` parameter.
 */
export function withTimeout(timeoutMs: number, isLongRunning: (koa: Context) => boolean) {
  return async (koa: Context, next: Next): Promise<void> => {
    if (timeoutMs <= 0 || isLongRunning(koa)) return next();
    const deadlineMs = requestDeadlineMs(koa.querystring.includes('timeout=') ? new URLSearchParams(koa.querystring).get('timeout') : null, timeoutMs);
    const req = requestContextOf(koa);
    const expiry = new AbortController();
    req.signal = AbortSignal.any([req.signal, expiry.signal]);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        expiry.abort(newTimeout(REQUEST_TIMEOUT_MESSAGE, 0));
        if (koa.res.headersSent) koa.res.destroy();
        reject(newTimeout(REQUEST_TIMEOUT_MESSAGE, 0));
      }, deadlineMs);
    });
    const handled = next();
    // The handler's own rejection after the deadline is of no interest to anyone.
    handled.catch(() => undefined);
    try {
      await Promise.race([handled, deadline]);
    } finally {
      clearTimeout(timer);
    }
  };
}
