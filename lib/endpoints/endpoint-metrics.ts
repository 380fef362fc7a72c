/**
 * What the endpoints report to the server's metrics (upstream endpoints/metrics): the requests
 * served by deprecated APIs (`apiserver_requested_deprecated_apis`, lib/endpoints/deprecated-api.ts)
 * and the events written to watch clients (`apiserver_watch_events_total`,
 * `apiserver_watch_events_sizes`).
 */
import type { DeprecatedAPIRecorder } from './deprecated-api.js';

/** Records one event of `bytes` bytes written to a watch client. */
export type WatchEventRecorder = (bytes: number) => void;

/** The server's metrics as the endpoints see them. */
export interface EndpointMetrics extends DeprecatedAPIRecorder {
  /** The recorder of the events of one watch of the served `group`/`version`/`kind` (group '' for core). */
  watchEvents(group: string, version: string, kind: string): WatchEventRecorder;
}
