/**
 * The aggregation layer's availability metrics (upstream v1.30 kube-aggregator
 * `pkg/controllers/status/metrics`; issue #20 capability 1): a counter of APIServices marked
 * unavailable, by name and the condition's reason, counted when the condition turns from True to
 * anything else; and a gauge per APIService, 1 while it is unavailable and 0 while it is
 * available, gone when the APIService is deleted.
 */
import type { Counter, Gauge } from 'prom-client';
import type { MetricDeclaration, StabilityRegistry } from './registry.js';

const UNAVAILABLE_TOTAL = {
  name: 'aggregator_unavailable_apiservice_total',
  help: 'Counter of APIServices which are marked as unavailable broken down by APIService name and reason.',
  labelNames: ['name', 'reason'],
  stabilityLevel: 'ALPHA',
} as const satisfies MetricDeclaration<string>;
const UNAVAILABLE = {
  name: 'aggregator_unavailable_apiservice',
  help: 'Gauge of APIServices which are marked as unavailable broken down by APIService name.',
  labelNames: ['name'],
  stabilityLevel: 'ALPHA',
} as const satisfies MetricDeclaration<string>;

/** The reason counted when the new condition carries none (upstream's placeholder). */
const UNKNOWN_REASON = 'UnknownReason';

/** The two availability metrics of one server. */
export class AggregatorMetrics {
  private readonly unavailableTotal: Counter<(typeof UNAVAILABLE_TOTAL.labelNames)[number]>;
  private readonly unavailable: Gauge<(typeof UNAVAILABLE.labelNames)[number]>;

  constructor(r: StabilityRegistry) {
    this.unavailableTotal = r.counter(UNAVAILABLE_TOTAL);
    this.unavailable = r.gauge(UNAVAILABLE);
  }

  /** APIService `name` was found `available` (or not) by a check: the gauge. */
  checked(name: string, available: boolean): void {
    this.unavailable.set({ name }, available ? 0 : 1);
  }

  /** APIService `name`'s condition was written: counted when it turned from available to not, with the new `reason`. */
  written(name: string, wasAvailable: boolean, available: boolean, reason: string | undefined): void {
    if (wasAvailable && !available) this.unavailableTotal.inc({ name, reason: reason || UNKNOWN_REASON });
  }

  /** APIService `name` was deleted: its gauge goes. */
  forget(name: string): void {
    this.unavailable.remove({ name });
  }
}
