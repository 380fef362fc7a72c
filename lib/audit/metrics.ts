/**
 * The audit metrics (upstream pkg/audit/metrics.go, all ALPHA): events sent, events lost per
 * plugin, policy levels, requests rejected because an event could not be stored.
 */
import type { Counter } from 'prom-client';
import { type MetricDeclaration, StabilityRegistry } from '../metrics/registry.js';
import type { AuditEvent, AuditLogger, Level } from './types.js';

const EVENTS = { name: 'apiserver_audit_event_total', help: 'Counter of audit events generated and sent to the audit backend.', labelNames: [], stabilityLevel: 'ALPHA' } as const satisfies MetricDeclaration<never>;
const ERRORS = {
  name: 'apiserver_audit_error_total',
  help: 'Counter of audit events that failed to be audited properly. Plugin identifies the plugin affected by the error.',
  labelNames: ['plugin'],
  stabilityLevel: 'ALPHA',
} as const satisfies MetricDeclaration<'plugin'>;
const LEVEL = { name: 'apiserver_audit_level_total', help: 'Counter of policy levels for audit events (1 per request).', labelNames: ['level'], stabilityLevel: 'ALPHA' } as const satisfies MetricDeclaration<'level'>;
const REJECTED = {
  name: 'apiserver_audit_requests_rejected_total',
  help: 'Counter of apiserver requests rejected due to an error in audit logging backend.',
  labelNames: [],
  stabilityLevel: 'ALPHA',
} as const satisfies MetricDeclaration<never>;

/** The audit instruments, declared in the server's registry (or a private one in unit tests). */
export class AuditMetrics {
  private readonly events: Counter;
  private readonly errors: Counter<'plugin'>;
  private readonly levels: Counter<'level'>;
  private readonly rejected: Counter;

  constructor(
    registry: StabilityRegistry = new StabilityRegistry(),
    private readonly log?: AuditLogger,
  ) {
    this.events = registry.counter(EVENTS);
    this.errors = registry.counter(ERRORS);
    this.levels = registry.counter(LEVEL);
    this.rejected = registry.counter(REJECTED);
  }

  /** One event handed to the backends. */
  observeEvent(): void {
    this.events.inc();
  }

  /** One request's policy level. */
  observeLevel(level: Level): void {
    this.levels.inc({ level });
  }

  /** One request rejected because its RequestReceived event could not be stored (blocking-strict). */
  observeRejected(): void {
    this.rejected.inc();
  }

  /**
   * Upstream HandlePluginError: `events` were lost by `plugin` (`log`, `webhook`, `buffered`,
   * `truncate`): counted and logged, never thrown.
   */
  pluginError(plugin: string, err: unknown, events: readonly AuditEvent[]): void {
    if (events.length > 0) this.errors.inc({ plugin }, events.length);
    this.log?.error({ err: err instanceof Error ? err.message : String(err), plugin, events: events.length }, `Error in audit plugin '${plugin}' affecting ${events.length} audit events`);
  }
}
