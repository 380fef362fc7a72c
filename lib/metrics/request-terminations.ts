/**
 * The metrics of requests the server ends itself (upstream apiserver/pkg/endpoints/metrics,
 * v1.30): `apiserver_request_terminations_total` (a request answered in self-defense: 504 at its
 * deadline, 429 by flow control), `apiserver_request_aborts_total` (a response already started
 * that was cut at the deadline) and `apiserver_request_post_timeout_total` (what the handler of a
 * timed-out request did afterwards). The request labels are computed by the caller
 * (lib/server/request-terminations.ts), bounded as `apiserver_request_total`'s.
 */
import type { Counter } from 'prom-client';
import type { MetricDeclaration, StabilityRegistry } from './registry.js';

const ABORT_LABELS = ['verb', 'group', 'version', 'resource', 'subresource', 'scope'] as const;
const TERMINATION_LABELS = [...ABORT_LABELS, 'component', 'code'] as const;

const TERMINATIONS = {
  name: 'apiserver_request_terminations_total',
  help: 'Number of requests which apiserver terminated in self-defense.',
  labelNames: TERMINATION_LABELS,
  stabilityLevel: 'ALPHA',
} as const satisfies MetricDeclaration<string>;
const ABORTS = {
  name: 'apiserver_request_aborts_total',
  help: 'Number of requests which apiserver aborted possibly due to a timeout, for each group, version, verb, resource, subresource and scope',
  labelNames: ABORT_LABELS,
  stabilityLevel: 'ALPHA',
} as const satisfies MetricDeclaration<string>;
const POST_TIMEOUT = {
  name: 'apiserver_request_post_timeout_total',
  help: 'Tracks the activity of the request handlers after the associated requests have been timed out by the apiserver',
  labelNames: ['source', 'status'],
  stabilityLevel: 'ALPHA',
} as const satisfies MetricDeclaration<string>;

/** The labels of a terminated or aborted request (those of `apiserver_request_total` less `dry_run` and `code`). */
export interface TerminatedRequestLabels {
  verb: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  scope: string;
  component: string;
}

/**
 * Who saw the handler finish after the timeout (upstream PostTimeoutSource*): `timeout-handler`
 * the timeout filter, `rest-handler` the REST layer's finisher.
 */
export type PostTimeoutSource = 'timeout-handler' | 'rest-handler';
/**
 * What the handler of a timed-out request did (upstream PostTimeoutHandler*): returned (`ok`),
 * failed (`error`), or was still running when the server stopped waiting (`pending`).
 */
export type PostTimeoutStatus = 'ok' | 'error' | 'pending';

/** The termination, abort and post-timeout counters of one server. */
export class RequestTerminationMetrics {
  private readonly terminations: Counter<(typeof TERMINATION_LABELS)[number]>;
  private readonly aborts: Counter<(typeof ABORT_LABELS)[number]>;
  private readonly postTimeouts: Counter<(typeof POST_TIMEOUT.labelNames)[number]>;

  constructor(r: StabilityRegistry) {
    this.terminations = r.counter(TERMINATIONS);
    this.aborts = r.counter(ABORTS);
    this.postTimeouts = r.counter(POST_TIMEOUT);
  }

  /** One request the server answered with HTTP `code` in self-defense (upstream RecordRequestTermination). */
  terminated(l: TerminatedRequestLabels, code: number): void {
    this.terminations.inc({ ...l, code: String(code) });
  }

  /** One request whose started response the server cut (upstream RecordRequestAbort; no `component` label). */
  aborted(l: TerminatedRequestLabels): void {
    this.aborts.inc({ verb: l.verb, group: l.group, version: l.version, resource: l.resource, subresource: l.subresource, scope: l.scope });
  }

  /** One timed-out request's handler outcome as `source` saw it (upstream RecordRequestPostTimeout). */
  postTimeout(source: PostTimeoutSource, status: PostTimeoutStatus): void {
    this.postTimeouts.inc({ source, status });
  }
}
