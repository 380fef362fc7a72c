/**
 * The API Priority and Fairness filter (upstream v1.30 `server/filters/priority-and-fairness.go`;
 * spec ARCHITECTURE.md order: after impersonation, before authorization): every request but the
 * long-running non-watch ones is classified, answered with the `X-<Vendor>-PF-FlowSchema-UID`
 * and `X-<Vendor>-PF-PriorityLevel-UID` headers, and queued or rejected (429 with Retry-After) by
 * its priority level. A watch holds its seats only while it is set up (until the handler
 * returns and the stream runs on its own); once admitted it is counted in the controller's watch
 * counts until its response closes (upstream `RegisterWatch`; the mutating work estimator reads
 * them). A rejected request counts in `apiserver_request_terminations_total` with code 429.
 */
import type { Context, Next } from 'koa';
import { StatusError } from '../../apimachinery/errors.js';
import { APF_FLOW_SCHEMA_UID_HEADER, APF_PRIORITY_LEVEL_UID_HEADER } from '../../apis/vendor.js';
import type { APFController, APFRequest } from '../../flowcontrol/controller.js';
import type { RequestContext } from '../../request/context.js';
import type { RequestInfo } from '../../request/request-info.js';
import type { UserInfo } from '../../request/user.js';
import { ANONYMOUS_USER, UNAUTHENTICATED_GROUP } from '../../request/user.js';
import type { RequestTerminationRecorder } from '../endpoint-metrics.js';
import { requestContextOf, requestQueryOf } from './request-info.js';

const ANONYMOUS = { name: ANONYMOUS_USER, groups: [UNAUTHENTICATED_GROUP] };

/**
 * A request as flow control sees it. A class, not an object literal with a `get signal()`: such
 * a literal is made per request on V8's slow path, and so is every read of it.
 */
class FilterAPFRequest implements APFRequest {
  readonly user: UserInfo;
  readonly info: RequestInfo;

  constructor(
    private readonly req: RequestContext,
    readonly query: URLSearchParams,
  ) {
    this.user = req.user ?? ANONYMOUS;
    this.info = req.requestInfo;
  }

  /** Read only by a request that has to queue: the request's signal is made on demand. */
  get signal(): AbortSignal {
    return this.req.signal;
  }
}

/**
 * Koa middleware dispatching through `apf`. `isLongRunning(koa)`: long-running requests other
 * than watches bypass flow control, as upstream. `recorder` receives the rejected requests
 * (a 429 thrown before the request was dispatched).
 */
export function withPriorityAndFairness(apf: APFController, isLongRunning: (koa: Context) => boolean, recorder?: RequestTerminationRecorder) {
  return async (koa: Context, next: Next): Promise<void> => {
    const req = requestContextOf(koa);
    if (req.requestInfo.verb !== 'watch' && isLongRunning(koa)) return next();
    let dispatched = false;
    try {
      await apf.handle(
        new FilterAPFRequest(req, requestQueryOf(koa)),
        (c) => {
          koa.set(APF_FLOW_SCHEMA_UID_HEADER, c.flowSchemaUID);
          koa.set(APF_PRIORITY_LEVEL_UID_HEADER, c.priorityLevelUID);
        },
        () => {
          dispatched = true;
          if (req.requestInfo.verb === 'watch' && !req.signal.aborted) {
            const forget = apf.watches.register(req.requestInfo, requestQueryOf(koa));
            if (forget) koa.res.once('close', forget);
          }
          return next();
        },
      );
    } catch (err) {
      if (!dispatched && err instanceof StatusError && err.status.code === 429) recorder?.terminated(koa, 429);
      throw err;
    }
  };
}
