/**
 * The truncating wrapper (upstream plugin/pkg/audit/truncate, `--audit-*-truncate-*`): an event
 * larger than `maxEventSize` bytes (as JSON) loses its request and response objects and gains
 * the annotation `audit.<vendor>/truncated: "true"`; one still too large is dropped and counted
 * (plugin `truncate`). Batches are split so that none exceeds `maxBatchSize` bytes.
 */
import { AUDIT_TRUNCATED_ANNOTATION } from '../apis/vendor.js';
import type { AuditMetrics } from './metrics.js';
import type { AuditBackend, AuditEvent } from './types.js';

/** Sizes in bytes (upstream defaults: 10 MB batches, 100 KB events). */
export interface TruncateConfig {
  maxBatchSize: number;
  maxEventSize: number;
}

const sizeOf = (e: AuditEvent) => Buffer.byteLength(JSON.stringify(e));

/** An event without its objects, marked truncated. */
export function truncateEvent(e: AuditEvent): AuditEvent {
  const { requestObject: _req, responseObject: _res, ...rest } = e;
  return { ...rest, annotations: { ...e.annotations, [AUDIT_TRUNCATED_ANNOTATION]: 'true' } };
}

/** Truncates and splits for a delegate; see the module comment. */
export class TruncateBackend implements AuditBackend {
  readonly name = 'truncate';

  constructor(
    private readonly delegate: AuditBackend,
    private readonly cfg: TruncateConfig,
    private readonly metrics: AuditMetrics,
  ) {}

  processEvents(events: AuditEvent[]): boolean {
    let ok = true;
    let batch: AuditEvent[] = [];
    let batchSize = 0;
    for (const ev of events) {
      let e = ev;
      let size = sizeOf(e);
      if (size > this.cfg.maxEventSize) {
        e = truncateEvent(e);
        size = sizeOf(e);
        if (size > this.cfg.maxEventSize) {
          this.metrics.pluginError(this.name, new Error('event is too large even after truncating'), [ev]);
          continue;
        }
      }
      if (batch.length > 0 && batchSize + size > this.cfg.maxBatchSize) {
        ok = this.delegate.processEvents(batch) && ok;
        batch = [];
        batchSize = 0;
      }
      batch.push(e);
      batchSize += size;
    }
    if (batch.length > 0) ok = this.delegate.processEvents(batch) && ok;
    return ok;
  }

  shutdown(): Promise<void> {
    return this.delegate.shutdown();
  }
}
