/**
 * The webhook backend (upstream plugin/pkg/audit/webhook): POSTs an `EventList` to the URL of
 * the kubeconfig's current context (`--audit-webhook-config-file`), retrying transient failures
 * with exponential backoff from `--audit-webhook-initial-backoff` (×1.5, 20% jitter, 5 attempts,
 * as upstream's DefaultRetryBackoffWithInitialDelay). The answer's body is ignored; a failed
 * batch is counted (plugin `webhook`) and logged.
 */
import type { ClientConfig } from '../client/kubeconfig.js';
import { GenericWebhook, WebhookCallError } from '../client/webhook.js';
import { SERVER_NAME } from '../apis/vendor.js';
import type { AsyncDeliveryBackend } from './backend.js';
import type { AuditMetrics } from './metrics.js';
import { AUDIT_API_VERSION, type AuditEvent } from './types.js';

/** Upstream's default `--audit-webhook-initial-backoff`: 10 s. */
export const DEFAULT_INITIAL_BACKOFF_MS = 10_000;
/** How long shutdown waits for batches in flight before cancelling them (ms). */
export const SHUTDOWN_GRACE_MS = 5_000;

/** Sends batches to one webhook. */
export class WebhookBackend implements AsyncDeliveryBackend {
  readonly name = 'webhook';
  private readonly hook: GenericWebhook;
  private readonly stop = new AbortController();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    config: ClientConfig,
    initialBackoffMs: number,
    private readonly metrics: AuditMetrics,
    /** The apiVersion of the EventList and its items (`--audit-webhook-version`). */
    private readonly apiVersion = AUDIT_API_VERSION,
  ) {
    this.hook = new GenericWebhook(config, { retryBackoff: { initialMs: initialBackoffMs, factor: 1.5, jitter: 0.2, steps: 5 }, userAgent: SERVER_NAME });
  }

  /** Blocking mode: starts the delivery and reports success (the request is not held up). */
  processEvents(events: AuditEvent[]): boolean {
    void this.deliver(events);
    return true;
  }

  /** POSTs one EventList; never rejects. */
  deliver(events: AuditEvent[]): Promise<void> {
    const p = this.send(events);
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
    return p;
  }

  private async send(events: AuditEvent[]): Promise<void> {
    if (this.stop.signal.aborted) {
      this.metrics.pluginError(this.name, new Error('audit backend shut down'), events);
      return;
    }
    const items = events.map((e) => (e.apiVersion === this.apiVersion ? e : { ...e, apiVersion: this.apiVersion }));
    const body = JSON.stringify({ kind: 'EventList', apiVersion: this.apiVersion, metadata: {}, items });
    try {
      await this.hook.post(body, this.stop.signal);
    } catch (err) {
      // A 2xx answer whose body is not JSON is a success: the audit webhook's answer is ignored.
      if (err instanceof WebhookCallError && err.statusCode !== undefined && err.statusCode >= 200 && err.statusCode <= 206) return;
      this.metrics.pluginError(this.name, err, events);
    }
  }

  /**
   * Waits for deliveries in flight — at most {@link SHUTDOWN_GRACE_MS}, then cancels them (their
   * events counted as lost) — and releases connections.
   */
  async shutdown(): Promise<void> {
    const timer = setTimeout(() => this.stop.abort(), SHUTDOWN_GRACE_MS);
    await Promise.all([...this.inFlight]);
    clearTimeout(timer);
    this.stop.abort();
    this.hook.close();
  }
}
