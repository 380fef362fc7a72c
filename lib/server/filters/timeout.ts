/**
 * The deadline of non-long-running requests (issue #19 item 3; upstream `WithRequestDeadline` and
 * `WithTimeoutForNonLongRunningRequests`): `--request-timeout` (default 1m0s), shortened by the
 * request's `timeout` query parameter when that is positive and smaller. At the deadline the
 * request context's signal aborts (storage calls and webhooks stop) and the client gets
 * `504 Timeout` with upstream's message; a response already started is cut (the socket is
 * destroyed), as upstream's timeout writer does. Each timed-out request counts in
 * `apiserver_request_terminations_total` (code 504), a cut one also in
 * `apiserver_request_aborts_total`; the handler left running is watched as upstream's REST
 * finisher watches it: `apiserver_request_post_timeout_total{source="rest-handler"}` with `ok`
 * or `error` when it settles, `pending` when it has not within five minutes.
 */
import type { Context, Next } from 'koa';
import { parseDuration } from '../../apimachinery/duration.js';
import { newBadRequest, newTimeout } from '../../apimachinery/errors.js';
import type { RequestTerminationRecorder } from '../../endpoints/endpoint-metrics.js';
import { abortRequest, requestQueryOf } from '../../endpoints/filters/request-info.js';

/** Upstream's message prefix of a malformed `timeout` query parameter. */
const INVALID_TIMEOUT_IN_URL = 'invalid timeout specified in the request URL';
/** Upstream's message of a request cut at its deadline (the finisher's, with Go's `context deadline exceeded`). */
export const REQUEST_TIMEOUT_MESSAGE = 'request did not complete within requested timeout - context deadline exceeded';
/** How long the handler of a timed-out request is waited for (upstream postTimeoutLoggerWait, 5 minutes), milliseconds. */
export const POST_TIMEOUT_WAIT_MS = 5 * 60 * 1000;

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
 * after the request-info filter: the request context's signal also aborts at the deadline.
 * `recorder` receives the timed-out and cut requests and what their handlers did afterwards,
 * waited for `postTimeoutWaitMs` at most.
 * @throws StatusError 504 Timeout at the deadline; 400 for a malformed `timeout` parameter.
 */
export function withTimeout(timeoutMs: number, isLongRunning: (koa: Context) => boolean, recorder?: RequestTerminationRecorder, postTimeoutWaitMs = POST_TIMEOUT_WAIT_MS) {
  return async (koa: Context, next: Next): Promise<void> => {
    if (timeoutMs <= 0 || isLongRunning(koa)) return next();
    const deadlineMs = requestDeadlineMs(requestQueryOf(koa).get('timeout'), timeoutMs);
    let timer: NodeJS.Timeout | undefined;
    let timedOut = false;
    const handled = next();
    try {
      // Settled by the handler or by the deadline, whichever comes first: one promise and one
      // timer a request (a Promise.race of the handler and a deadline promise cost two more).
      // A handler's rejection after the deadline reaches nobody.
      await new Promise<void>((resolve, reject) => {
        timer = setTimeout(() => {
          timedOut = true;
          abortRequest(koa, newTimeout(REQUEST_TIMEOUT_MESSAGE, 0));
          recorder?.terminated(koa, 504);
          if (koa.res.headersSent) {
            koa.res.destroy();
            recorder?.aborted(koa);
          }
          reject(newTimeout(REQUEST_TIMEOUT_MESSAGE, 0));
        }, deadlineMs);
        handled.then(resolve, reject);
      });
    } finally {
      clearTimeout(timer);
      if (timedOut && recorder) watchPostTimeout(handled, recorder, postTimeoutWaitMs);
    }
  };
}

/**
 * Records how the handler of a timed-out request ends (upstream finisher's logPostTimeoutResult):
 * `ok` when `handled` fulfils, `error` when it rejects, `pending` when neither happened within
 * `waitMs` (its later end is not recorded).
 */
function watchPostTimeout(handled: Promise<void>, recorder: RequestTerminationRecorder, waitMs: number): void {
  let done = false;
  const giveUp = setTimeout(() => {
    done = true;
    recorder.postTimeout('rest-handler', 'pending');
  }, waitMs);
  giveUp.unref();
  const settle = (status: 'ok' | 'error') => {
    if (done) return;
    done = true;
    clearTimeout(giveUp);
    recorder.postTimeout('rest-handler', status);
  };
  handled.then(
    () => settle('ok'),
    () => settle('error'),
  );
}
