/**
 * Event-loop pressure (issue #24 item 4; our addition to API Priority and Fairness). Upstream's
 * seats stand for the goroutines and memory of a multi-core server; here the scarce resource is
 * each process's event loop, which seats do not see: saturated, every request waits in the loop
 * before flow control hears of it, and a Lease renewal waits as long as a bulk LIST.
 *
 * So flow control also watches the loop's delay. Each period the mean lateness of a 10 ms timer
 * is compared with the limit (`--max-event-loop-delay`): at or above it the pressure rises by
 * {@link PRESSURE_RISE}, below half of it the pressure falls by {@link PRESSURE_FALL} (rising
 * fast, recovering slowly). The pressure counts priority levels of the shedding list
 * (`--event-loop-shed-levels`, least important first; a level not listed is never shed): under
 * pressure p, the level at index i of the list keeps the fraction clamp(1 − (p − i), 0, 1) of its
 * current concurrency limit, at least one seat, and at fraction 0 it is shed: it dispatches
 * nothing, so its new requests wait in its queues until the pressure falls (429 with reason
 * `queue-full` on a full queue, `time-out` after the wait limit; a Reject level answers
 * `concurrency-limit` at once). So at p = 1.5 the first level is shed and the second runs at half
 * its limit. Queuing rather than rejecting lets a bulk LIST sent in a saturated moment run in
 * the next quiet one (issue #24 item 3: a LIST of every Pod must finish under the steady load).
 */
/** Pressure added by a period whose delay reached the limit (levels). */
export const PRESSURE_RISE = 0.25;
/** Pressure removed by a period whose delay stayed below half the limit (levels). */
export const PRESSURE_FALL = 0.05;
/** The period of the pressure's update, ms. */
export const PRESSURE_PERIOD_MS = 250;

/**
 * Default of `--event-loop-shed-levels`: the levels of upstream's suggested configuration that
 * serve ordinary users and service accounts, least important first. The control plane's own
 * levels (system, workload-high, node-high, leader-election) and exempt are never shed: at 1,500
 * simulated nodes, shedding system and workload-high too rejected a tenth of the kubelets' Pod
 * status updates and some of their watches without bringing Lease renewals under 1 s.
 */
export const DEFAULT_SHED_LEVELS: readonly string[] = ['catch-all', 'global-default', 'workload-low'];

/**
 * The pressure as a function of the loop's delay (pure): `update(delayMs)` once a period.
 * `maxLevels`: the pressure's ceiling (the number of levels that may be shed).
 */
export class LoopPressure {
  private p = 0;

  constructor(
    /** The delay at which the pressure rises, ms (> 0). */
    private readonly limitMs: number,
    private maxLevels: number,
  ) {}

  /** The pressure, in levels (0 … the ceiling). */
  get value(): number {
    return this.p;
  }

  /** Sets the ceiling (the configuration changed); the pressure is clamped to it. */
  setMaxLevels(n: number): void {
    this.maxLevels = Math.max(0, n);
    this.p = Math.min(this.p, this.maxLevels);
  }

  /** Takes one period's mean delay (ms) and returns the new pressure. */
  update(delayMs: number): number {
    if (delayMs >= this.limitMs) this.p = Math.min(this.maxLevels, this.p + PRESSURE_RISE);
    else if (delayMs < this.limitMs / 2) this.p = Math.max(0, this.p - PRESSURE_FALL);
    return this.p;
  }

  /** The fraction of its limit kept by the level at `index` of the shedding list (0 … 1; 0: shed). */
  fraction(index: number): number {
    return Math.min(1, Math.max(0, 1 - (this.p - index)));
  }
}

/** Reads the loop's mean delay since the last read, ms. */
export interface LoopDelaySampler {
  sample(): number;
  stop(): void;
}

/** Interval of the delay timer, ms. */
const RESOLUTION_MS = 10;

/**
 * A sampler over a 10 ms interval timer (unreferenced): each firing adds how late it came. The
 * mean lateness since the last read, 0 when the timer has not fired since. A busy stretch of the
 * loop counts in full in the period in which the timer next fires (`perf_hooks`'
 * `monitorEventLoopDelay` drops the first interval after each reset, which would lose it).
 */
export function eventLoopDelaySampler(): LoopDelaySampler {
  let last = performance.now();
  let sum = 0;
  let count = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    sum += Math.max(0, now - last - RESOLUTION_MS);
    count++;
    last = now;
  }, RESOLUTION_MS);
  timer.unref();
  return {
    sample() {
      const mean = count > 0 ? sum / count : 0;
      sum = 0;
      count = 0;
      return mean;
    },
    stop: () => clearInterval(timer),
  };
}
