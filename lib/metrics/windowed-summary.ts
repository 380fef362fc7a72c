/**
 * A Prometheus summary whose quantiles cover a sliding window of time (upstream client_golang's
 * Summary with `MaxAge` and `AgeBuckets`; `_sum` and `_count` cover all time, as there), cheap
 * enough for the request path: an observation increments one counter of a log-scaled bucket
 * (relative width 2%) in the window's current age bucket, and a scrape merges the age buckets of
 * each label set and walks their sorted counters. A quantile is the representative of the bucket
 * holding its rank, clamped to the smallest and largest value seen in the window, so it is within
 * 1% of an observed value of that rank (upstream bounds the rank error instead); an empty window
 * reports NaN, as upstream. prom-client's Summary (a t-digest per age bucket) costs about 20 µs an
 * observation and blocks the event loop 10 ms or more per label set at each scrape.
 */

/** Ratio of a bucket's upper to lower bound. */
const GROWTH = 1.02;
const LOG_GROWTH = Math.log(GROWTH);
/** Bucket indexes are clamped to this range (about 1e-9 to 1e4): memory stays bounded whatever the values. */
const MIN_INDEX = Math.floor(Math.log(1e-9) / LOG_GROWTH);
const MAX_INDEX = Math.ceil(Math.log(1e4) / LOG_GROWTH);
/** The bucket of values ≤ 0. */
const ZERO_INDEX = MIN_INDEX - 1;
/** Counts of one label set's window merged for a scrape, by bucket index − ZERO_INDEX (reused: scrapes are synchronous). */
const merged = new Float64Array(MAX_INDEX - ZERO_INDEX + 1);

/** One age bucket: counts per value bucket, and the extremes seen. */
interface AgeBucket {
  counts: Map<number, number>;
  total: number;
  min: number;
  max: number;
}

/** The state of one label set. */
interface Series {
  labels: Record<string, string>;
  ages: AgeBucket[];
  /** Index of the age bucket observations go to. */
  current: number;
  /** When the current age bucket started (ms, `now()`'s clock). */
  currentStart: number;
  sum: number;
  count: number;
}

/** One sample as prom-client's registry and lib/metrics/exposition.ts render it. */
interface SummarySample {
  metricName?: string;
  labels: Record<string, string>;
  value: number;
}

/** Options of a {@link WindowedSummary}. */
export interface WindowedSummaryOptions<L extends string> {
  name: string;
  /** HELP text as exported. */
  help: string;
  labelNames: readonly L[];
  /** The reported quantiles, each in [0, 1]. */
  percentiles: readonly number[];
  /** Length of the window in seconds. */
  maxAgeSeconds: number;
  /** Number of age buckets the window is made of (≥ 1). */
  ageBuckets: number;
  /** The clock (ms); default `Date.now`. */
  now?: () => number;
}

function bucketIndex(v: number): number {
  if (!(v > 0)) return ZERO_INDEX;
  const i = Math.ceil(Math.log(v) / LOG_GROWTH);
  return i < MIN_INDEX ? MIN_INDEX : i > MAX_INDEX ? MAX_INDEX : i;
}

/** A value of bucket `i` within 1% of any value of the bucket: the middle of (GROWTH^(i-1), GROWTH^i]. */
function representative(i: number): number {
  return i === ZERO_INDEX ? 0 : (2 * GROWTH ** i) / (1 + GROWTH);
}

const emptyAge = (): AgeBucket => ({ counts: new Map(), total: 0, min: Infinity, max: -Infinity });

/**
 * A summary metric, registered into a prom-client `Registry` (`registerMetric`) like prom-client's
 * own: it has the `name`, `help`, `type` and `get()` the registry and lib/metrics/exposition.ts read.
 */
export class WindowedSummary<L extends string> {
  readonly name: string;
  readonly help: string;
  readonly type = 'summary';
  readonly aggregator = 'sum';
  private readonly labelNames: readonly L[];
  private readonly percentiles: readonly number[];
  private readonly ageMs: number;
  private readonly ageBuckets: number;
  private readonly now: () => number;
  private readonly series = new Map<string, Series>();

  /** @throws Error when `ageBuckets` is below 1, `maxAgeSeconds` not positive, or a percentile outside [0, 1] (declaration bugs). */
  constructor(o: WindowedSummaryOptions<L>) {
    if (!(o.ageBuckets >= 1) || !(o.maxAgeSeconds > 0)) throw new Error(`summary ${o.name}: maxAgeSeconds must be positive and ageBuckets at least 1`);
    if (o.percentiles.some((p) => !(p >= 0 && p <= 1))) throw new Error(`summary ${o.name}: percentiles must be in [0, 1]`);
    this.name = o.name;
    this.help = o.help;
    this.labelNames = o.labelNames;
    this.percentiles = o.percentiles;
    this.ageBuckets = Math.floor(o.ageBuckets);
    this.ageMs = (o.maxAgeSeconds * 1000) / this.ageBuckets;
    this.now = o.now ?? Date.now;
  }

  /** Records `value` for the label set `labels` (every declared label name; values as given). */
  observe(labels: Record<L, string>, value: number): void {
    let key = '';
    for (const n of this.labelNames) key += `${labels[n]}\u0000`;
    let s = this.series.get(key);
    const now = this.now();
    if (!s) {
      const own: Record<string, string> = {};
      for (const n of this.labelNames) own[n] = labels[n];
      s = { labels: own, ages: Array.from({ length: this.ageBuckets }, emptyAge), current: 0, currentStart: now, sum: 0, count: 0 };
      this.series.set(key, s);
    } else this.rotate(s, now);
    const age = s.ages[s.current]!;
    const i = bucketIndex(value);
    age.counts.set(i, (age.counts.get(i) ?? 0) + 1);
    age.total++;
    if (value < age.min) age.min = value;
    if (value > age.max) age.max = value;
    s.sum += value;
    s.count++;
  }

  /** The samples of every label set: its quantiles over the window, `_sum` and `_count`. */
  get(): { name: string; help: string; type: string; aggregator: string; values: SummarySample[] } {
    const values: SummarySample[] = [];
    const now = this.now();
    for (const s of this.series.values()) {
      this.rotate(s, now);
      const quantiles = this.quantiles(s);
      for (let q = 0; q < this.percentiles.length; q++) values.push({ labels: { ...s.labels, quantile: String(this.percentiles[q]) }, value: quantiles[q]! });
      values.push({ metricName: `${this.name}_sum`, labels: s.labels, value: s.sum }, { metricName: `${this.name}_count`, labels: s.labels, value: s.count });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  /** Forgets every label set. */
  reset(): void {
    this.series.clear();
  }

  /** Moves `s` to the age bucket of `now`, emptying the buckets that fell out of the window. */
  private rotate(s: Series, now: number): void {
    const elapsed = now - s.currentStart;
    if (elapsed < this.ageMs) return;
    const steps = Math.floor(elapsed / this.ageMs);
    for (let k = 0; k < Math.min(steps, this.ageBuckets); k++) {
      s.current = (s.current + 1) % this.ageBuckets;
      s.ages[s.current] = emptyAge();
    }
    s.currentStart += steps * this.ageMs;
  }

  /** The declared quantiles of the window of `s` (NaN each when it is empty): one walk over its merged buckets. */
  private quantiles(s: Series): number[] {
    let total = 0;
    let min = Infinity;
    let max = -Infinity;
    let lo = merged.length;
    let hi = -1;
    for (const age of s.ages) {
      if (age.total === 0) continue;
      total += age.total;
      if (age.min < min) min = age.min;
      if (age.max > max) max = age.max;
      for (const [i, c] of age.counts) {
        const k = i - ZERO_INDEX;
        merged[k]! += c;
        if (k < lo) lo = k;
        if (k > hi) hi = k;
      }
    }
    const out = this.percentiles.map(() => NaN);
    if (total === 0) return out;
    // Percentiles in increasing order, each answered by the first bucket reaching its rank.
    const order = this.percentiles.map((p, q) => ({ q, rank: Math.max(1, Math.ceil(p * total)) })).sort((a, b) => a.rank - b.rank);
    let next = 0;
    let seen = 0;
    for (let k = lo; k <= hi && next < order.length; k++) {
      seen += merged[k]!;
      while (next < order.length && seen >= order[next]!.rank) out[order[next++]!.q] = Math.min(max, Math.max(min, representative(k + ZERO_INDEX)));
    }
    merged.fill(0, lo, hi + 1);
    return out;
  }
}
