/**
 * What the endpoints report to the server's metrics (upstream endpoints/metrics): the requests
 * served by deprecated APIs (`apiserver_requested_deprecated_apis`, lib/endpoints/deprecated-api.ts),
 * the events written to watch clients (`apiserver_watch_events_total`,
 * `apiserver_watch_events_sizes`), and the requests the filters end themselves
 * (`apiserver_request_terminations_total`, `apiserver_request_aborts_total`,
 * `apiserver_request_post_timeout_total`).
 */
import type { Context } from 'koa';
import type { PostTimeoutSource, PostTimeoutStatus } from '../metrics/request-terminations.js';
import type { DeprecatedAPIRecorder } from './deprecated-api.js';

/** Records one event of `bytes` bytes written to a watch client. */
export type WatchEventRecorder = (bytes: number) => void;

/** The server's metrics as the endpoints see them. */
export interface EndpointMetrics extends DeprecatedAPIRecorder {
  /** The recorder of the events of one watch of the served `group`/`version`/`kind` (group '' for core). */
  watchEvents(group: string, version: string, kind: string): WatchEventRecorder;
}

/**
 * Records the requests the server ends itself (upstream RecordRequestTermination,
 * RecordRequestAbort, RecordRequestPostTimeout), labelled from the request context of `koa`
 * as `apiserver_request_total` is.
 */
export interface RequestTerminationRecorder {
  /**
   * The server answered `koa` with HTTP `code` in self-defense: 504 at the request's deadline,
   * 429 when flow control (API Priority and Fairness, max-in-flight) rejected it. Counted once per
   * request; later calls for the same request are ignored.
   */
  terminated(koa: Context, code: number): void;
  /** The response of `koa`, already started at its deadline, was cut (the connection destroyed). */
  aborted(koa: Context): void;
  /** The handler of a timed-out request, as `source` saw it, settled or was given up on (`status`). */
  postTimeout(source: PostTimeoutSource, status: PostTimeoutStatus): void;
}
