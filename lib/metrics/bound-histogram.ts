/**
 * The server's Prometheus histogram (every `StabilityRegistry.histogram`), cheap enough to observe
 * several times per request and once per event per watch (issue #17 items 1 and 3:
 * `apiserver_watch_events_sizes` is observed for every event written to every watch client, 100,000
 * times a second at 1,000 watchers). A caller binds a label set once ({@link BoundHistogram.child})
 * and observes on the child: one bucket counter, the sum and the count, plain arithmetic; or
 * observes with the labels ({@link BoundHistogram.observe}), which finds the child by one string key
 * (prom-client's Histogram.observe validates, sorts and hashes the labels at each call, a few µs,
 * about 4% of a cached GET's CPU with the six histograms a request feeds). The exposition is
 * prom-client's: per label set the cumulative `_bucket` samples with `le`, `+Inf`, `_sum` and
 * `_count`. Registered into a prom-client `Registry` (`registerMetric`) like prom-client's own
 * metrics: it has the `name`, `help`, `type` and `get()` the registry and lib/metrics/exposition.ts read.
 */
import type { Counter } from 'prom-client';

/** The observations of one label set. */
export class HistogramChild {
  /** Observations per bucket (not cumulative), aligned with the upper bounds. */
  readonly buckets: number[];
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Readonly<Record<string, string>>,
    private readonly upperBounds: readonly number[],
  ) {
    this.buckets = upperBounds.map(() => 0);
  }

  /** Records one observation of `value` (the first bucket whose upper bound is ≥ it; none past the last bound: `+Inf` only). */
  observe(value: number): void {
    const bounds = this.upperBounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]!) {
        this.buckets[i]!++;
        break;
      }
    }
    this.sum += value;
    this.count++;
  }
}

/** Options of a {@link BoundHistogram}. */
export interface BoundHistogramOptions<L extends string> {
  name: string;
  help: string;
  labelNames: readonly L[];
  /** Upper bounds of the buckets, increasing. */
  buckets: readonly number[];
}

/** One sample of the exposition, in prom-client's shape. */
export interface HistogramSample {
  metricName: string;
  labels: Record<string, string | number>;
  value: number;
}

/** A histogram whose label sets are bound before they are observed. */
export class BoundHistogram<L extends string> {
  readonly name: string;
  readonly help: string;
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly labelNames: readonly L[];
  /** Upper bounds of the buckets, increasing. */
  readonly upperBounds: readonly number[];
  private readonly children = new Map<string, HistogramChild>();

  /** @throws Error when the buckets are not increasing (a declaration bug). */
  constructor(o: BoundHistogramOptions<L>) {
    if (o.buckets.some((b, i) => i > 0 && !(b > o.buckets[i - 1]!))) throw new Error(`histogram ${o.name}: buckets must increase`);
    this.name = o.name;
    this.help = o.help;
    this.labelNames = o.labelNames;
    this.upperBounds = [...o.buckets];
  }

  /** The child of the label set `labels` (every declared label name), created at its first use; the same object for the same values. */
  child(labels: Record<L, string>): HistogramChild {
    let key = '';
    for (const n of this.labelNames) key += `${labels[n]}\u0000`;
    let c = this.children.get(key);
    if (!c) {
      const own: Record<string, string> = {};
      for (const n of this.labelNames) own[n] = labels[n];
      this.children.set(key, (c = new HistogramChild(own, this.upperBounds)));
    }
    return c;
  }

  /** Records one observation of `value` for the label set `labels` (prom-client's `Histogram.observe(labels, value)`). */
  observe(labels: Record<L, string>, value: number): void {
    this.child(labels).observe(value);
  }

  /** Every label set observed or bound so far. */
  series(): IterableIterator<HistogramChild> {
    return this.children.values();
  }

  /** The samples of every label set: cumulative buckets, `+Inf`, `_sum` and `_count`. */
  get(): { name: string; help: string; type: string; aggregator: string; values: HistogramSample[] } {
    const values: HistogramSample[] = [];
    const bucket = `${this.name}_bucket`;
    for (const c of this.children.values()) {
      let acc = 0;
      for (let i = 0; i < this.upperBounds.length; i++) {
        acc += c.buckets[i]!;
        values.push({ metricName: bucket, labels: { le: this.upperBounds[i]!, ...c.labels }, value: acc });
      }
      values.push(
        { metricName: bucket, labels: { le: '+Inf', ...c.labels }, value: c.count },
        { metricName: `${this.name}_sum`, labels: { ...c.labels }, value: c.sum },
        { metricName: `${this.name}_count`, labels: { ...c.labels }, value: c.count },
      );
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  /** Forgets every label set. */
  reset(): void {
    this.children.clear();
  }
}

/**
 * The collect function of a counter that counts `histogram`'s observations per label set
 * (`apiserver_watch_events_total` of `apiserver_watch_events_sizes`, `etcd_requests_total` of
 * `etcd_request_duration_seconds`): at each scrape it adds what each label set observed since the
 * previous scrape, so the hot path observes once instead of also incrementing a prom-client counter.
 */
export function observationCounts<L extends string>(histogram: BoundHistogram<L>): (this: Counter<L>) => void {
  const counted = new Map<HistogramChild, number>();
  return function () {
    for (const child of histogram.series()) {
      const n = child.count - (counted.get(child) ?? 0);
      if (n > 0) this.inc(child.labels as Record<L, string>, n);
      counted.set(child, child.count);
    }
  };
}
