/**
 * The max-in-flight filter (upstream v1.30 `server/filters/maxinflight.go`), used when
 * `--enable-priority-and-fairness=false`: at most `--max-requests-inflight` non-mutating and
 * `--max-mutating-requests-inflight` mutating requests run at once (0: unlimited); long-running
 * requests are not counted; beyond the limit a request is answered 429 `Too many requests,
 * please try again later.` with `Retry-After: 1`, except for members of `system:masters`; such a
 * rejection counts in `apiserver_request_terminations_total` with code 429.
 */
import type { Context, Next } from 'koa';
import { newTooManyRequests } from '../../apimachinery/errors.js';
import { MASTERS_GROUP } from '../../request/user.js';
import type { RequestTerminationRecorder } from '../endpoint-metrics.js';
import { requestContextOf } from './request-info.js';

/** Upstream's non-mutating verbs. */
const READ_ONLY_VERBS = new Set(['get', 'list', 'watch']);

/**
 * Koa middleware limiting requests in flight; `isLongRunning(koa)` requests pass uncounted;
 * `recorder` receives the rejected ones.
 */
export function withMaxInFlightLimit(nonMutatingLimit: number, mutatingLimit: number, isLongRunning: (koa: Context) => boolean, recorder?: RequestTerminationRecorder) {
  const inFlight = { readOnly: 0, mutating: 0 };
  return async (koa: Context, next: Next): Promise<void> => {
    if (isLongRunning(koa)) return next();
    const req = requestContextOf(koa);
    const kind = READ_ONLY_VERBS.has(req.requestInfo.verb) ? 'readOnly' : 'mutating';
    const limit = kind === 'readOnly' ? nonMutatingLimit : mutatingLimit;
    if (limit === 0) return next();
    if (inFlight[kind] >= limit) {
      if (req.user?.groups.includes(MASTERS_GROUP)) return next();
      recorder?.terminated(koa, 429);
      throw newTooManyRequests('Too many requests, please try again later.', 1);
    }
    inFlight[kind]++;
    try {
      await next();
    } finally {
      inFlight[kind]--;
    }
  };
}
