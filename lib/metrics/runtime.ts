/**
 * Node's process and runtime metrics (prom-client's default metrics: `process_cpu_*`,
 * `process_resident_memory_bytes`, `process_start_time_seconds`, `nodejs_eventloop_lag_*`,
 * `nodejs_heap_*`, `nodejs_gc_duration_seconds`…), the counterpart of upstream's `process_*` and
 * Go runtime `go_*` metrics. They describe the process, not one server, so one registry per
 * process holds them however many servers it runs (tests run many), each HELP prefixed with
 * `[ALPHA]` as every declared metric carries its stability level.
 */
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { StabilityLevel } from './registry.js';

/** The stability level the runtime metrics are declared with (upstream has no Node counterparts). */
export const RUNTIME_STABILITY: StabilityLevel = 'ALPHA';

let shared: Registry | undefined;

/** The process-wide registry of the runtime metrics, created (and its collectors started) on first use. */
export function runtimeRegistry(): Registry {
  if (shared) return shared;
  const r = new Registry();
  collectDefaultMetrics({ register: r });
  for (const m of r.getMetricsAsArray()) {
    const metric = m as unknown as { help: string };
    metric.help = `[${RUNTIME_STABILITY}] ${metric.help}`;
  }
  shared = r;
  return r;
}
