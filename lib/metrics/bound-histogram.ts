/**
 * A Prometheus histogram cheap enough to observe once per event per watch (issue #17 item 3:
 * `apiserver_watch_events_sizes` is observed for every event written to every watch client, 100,000
 * times a second at 1,000 watchers). A caller binds a label set once ({@link BoundHistogram.child})
 * and observes on the child: one bucket counter, the sum and the count, plain arithmetic (prom-client's
 * Histogram.observe validates and hashes the labels at each call, about 2 µs). The exposition is
 * prom-client's: per label set the cumulative `_bucket` samples with `le`, `+Inf`, `_sum` and
 * `_count`. Registered into a prom-client `Registry` (`registerMetric`) like prom-client's own
 * metrics: it has the `name`, `help`, `type` and `get()` the registry and lib/metrics/exposition.ts read.
 */

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
  private readonly upperBounds: readonly number[];
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
