/**
 * Backend combinators (upstream pkg/audit/union.go and server/options/audit.go's
 * ignoreErrorsBackend): several backends as one, and the `blocking` mode that never reports a
 * failure to the filter (only `blocking-strict` rejects requests).
 */
import type { AuditBackend, AuditEvent } from './types.js';

/** Every backend receives every event; false when any of them failed. */
export class UnionBackend implements AuditBackend {
  readonly name: string;

  constructor(private readonly backends: readonly AuditBackend[]) {
    this.name = `union[${backends.map((b) => b.name).join(',')}]`;
  }

  processEvents(events: AuditEvent[]): boolean {
    let ok = true;
    for (const b of this.backends) ok = b.processEvents(events) && ok;
    return ok;
  }

  async shutdown(): Promise<void> {
    await Promise.all(this.backends.map((b) => b.shutdown()));
  }
}

/** `--audit-*-mode=blocking`: failures are counted by the delegate but never reject a request. */
export class IgnoreErrorsBackend implements AuditBackend {
  readonly name: string;

  constructor(private readonly delegate: AuditBackend) {
    this.name = delegate.name;
  }

  processEvents(events: AuditEvent[]): boolean {
    this.delegate.processEvents(events);
    return true;
  }

  shutdown(): Promise<void> {
    return this.delegate.shutdown();
  }
}

/** A backend that can also say when a batch has been delivered (the webhook; used by the buffered backend's async delegation). */
export interface AsyncDeliveryBackend extends AuditBackend {
  /** Delivers `events`; resolves when done (failures are counted and logged, never rejected). */
  deliver(events: AuditEvent[]): Promise<void>;
}

/** Whether `b` implements {@link AsyncDeliveryBackend}. */
export function deliversAsync(b: AuditBackend): b is AsyncDeliveryBackend {
  return typeof (b as Partial<AsyncDeliveryBackend>).deliver === 'function';
}
