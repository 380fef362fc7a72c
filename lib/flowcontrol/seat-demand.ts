/**
 * Seat demand statistics of a priority level (upstream v1.30 `util/flowcontrol/fairqueuing/integrator.go`
 * and apf_controller.go `seatDemandStats`): a time integrator of the level's seat demand (seats
 * held by executing requests plus seats asked for by queued ones), read and restarted at every
 * borrowing adjustment, and the statistics the adjustment derives from it — the time-weighted
 * average and population standard deviation, the high watermark, and the smoothed envelope
 * `max(avg + stdDev, A × smoothed + (1 − A) × (avg + stdDev))` with A = 0.977 (a 5-minute half-life
 * at the 10 s adjustment period).
 */

/** Upstream's `seatDemandSmoothingCoefficient`. */
export const SEAT_DEMAND_SMOOTHING = 0.977;

/** What an integrator measured since it was created or last reset (upstream `IntegratorResults`). */
export interface IntegratorResults {
  /** Seconds integrated. */
  duration: number;
  /** Time-weighted average; NaN when no time passed. */
  average: number;
  /** Time-weighted population standard deviation, sqrt(avg(x²) − avg²); NaN when no time passed or rounding makes the variance negative. */
  deviation: number;
  min: number;
  max: number;
}

/**
 * Integrates a value over time (upstream `fq.Integrator`): the moments ∫dt, ∫x dt, ∫x² dt since
 * the last {@link reset}, and the range of values seen. `now` is the clock, in milliseconds.
 */
export class SeatDemandIntegrator {
  private lastTime: number;
  private x = 0;
  private elapsed = 0;
  private integralX = 0;
  private integralXX = 0;
  private min = 0;
  private max = 0;

  constructor(private readonly now: () => number = () => performance.now()) {
    this.lastTime = now();
  }

  /** The current value. */
  get value(): number {
    return this.x;
  }

  /** Sets the value from now on. */
  set(x: number): void {
    this.update();
    this.x = x;
    if (x < this.min) this.min = x;
    if (x > this.max) this.max = x;
  }

  /** The results up to now. */
  results(): IntegratorResults {
    this.update();
    let average = NaN;
    let deviation = NaN;
    if (this.elapsed > 0) {
      average = this.integralX / this.elapsed;
      const variance = this.integralXX / this.elapsed - average * average;
      if (variance >= 0) deviation = Math.sqrt(variance);
    }
    return { duration: this.elapsed, average, deviation, min: this.min, max: this.max };
  }

  /** The results up to now; integration restarts now, its range at the current value. */
  reset(): IntegratorResults {
    const r = this.results();
    this.elapsed = 0;
    this.integralX = 0;
    this.integralXX = 0;
    this.min = this.x;
    this.max = this.x;
    return r;
  }

  private update(): void {
    const now = this.now();
    const dt = (now - this.lastTime) / 1000;
    this.lastTime = now;
    this.elapsed += dt;
    this.integralX += this.x * dt;
    this.integralXX += this.x * this.x * dt;
  }
}

/** A level's seat demand statistics as of the last adjustment (upstream `seatDemandStats`). */
export class SeatDemandStats {
  avg = 0;
  stdDev = 0;
  highWatermark = 0;
  smoothed = 0;

  /** Takes one adjustment period's results: the high watermark always, the rest only when time passed. */
  update(obs: IntegratorResults): void {
    this.highWatermark = obs.max;
    if (obs.duration <= 0) return;
    const deviation = Number.isNaN(obs.deviation) ? 0 : obs.deviation;
    this.avg = obs.average;
    this.stdDev = deviation;
    const envelope = obs.average + deviation;
    this.smoothed = Math.max(envelope, SEAT_DEMAND_SMOOTHING * this.smoothed + (1 - SEAT_DEMAND_SMOOTHING) * envelope);
  }
}
