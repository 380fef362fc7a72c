/**
 * The recorder of requests the server ends itself (lib/metrics/request-terminations.ts): labels
 * from the request context through lib/server/request-labels.ts, so they are those of
 * `apiserver_request_total` (less `dry_run`), bounded whatever the URL; a request counts at most
 * once in `apiserver_request_terminations_total` (upstream: RecordRequestTermination is called
 * zero or one times per request), whichever filter ends it first.
 */
import type { Context } from 'koa';
import type { RequestTerminationRecorder } from '../endpoints/endpoint-metrics.js';
import type { RequestTerminationMetrics, TerminatedRequestLabels } from '../metrics/request-terminations.js';
import type { RequestContext } from '../request/context.js';
import { requestLabels, type ServesResource } from './request-labels.js';

function labelsOf(koa: Context, serves: ServesResource): TerminatedRequestLabels | undefined {
  const ctx = (koa.state as { requestContext?: RequestContext }).requestContext;
  if (!ctx) return undefined;
  const l = requestLabels(koa.method, ctx.requestInfo, koa.querystring, koa.get('Content-Type') || undefined, serves);
  return { verb: l.verb, group: l.group, version: l.version, resource: l.resource, subresource: l.subresource, scope: l.scope, component: l.component };
}

/**
 * The recorder writing to `m`; `serves` says whether a named resource and subresource exist
 * (else their labels stay empty), as for the request metrics. A request without a request
 * context (ended before the request-info filter) is not recorded.
 */
export function requestTerminationRecorder(m: RequestTerminationMetrics, serves: ServesResource): RequestTerminationRecorder {
  const terminated = new WeakSet<Context>();
  return {
    terminated(koa, code) {
      if (terminated.has(koa)) return;
      const l = labelsOf(koa, serves);
      if (!l) return;
      terminated.add(koa);
      m.terminated(l, code);
    },
    aborted(koa) {
      const l = labelsOf(koa, serves);
      if (l) m.aborted(l);
    },
    postTimeout(source, status) {
      m.postTimeout(source, status);
    },
  };
}
