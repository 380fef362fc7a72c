/**
 * The Prometheus histogram the registry hands out (issue #17 items 1 and 3), in place of
 * prom-client's: the same calls (`observe(labels, v)`, `observe(v)`, `labels(l).observe(v)`,
 * `reset()`) and the same exposition (per label set the cumulative `_bucket` samples with `le`,
 * `+Inf`, `_sum` and `_count`; a histogram without labels starts with its one empty series, as
 * prom-client's does), at the cost of a label key and one Map lookup per observation
 * (lib/metrics/series.ts), or plain arithmetic on a bound child: `apiserver_watch_events_sizes` is
 * observed for every event written to every watch client, 100,000 times a second at 1,000 watchers.
 * Registered into a prom-client `Registry` (`registerMetric`): it has the `name`, `help`, `type`
 * and `get()` the registry reads; lib/metrics/exposition.ts writes it from {@link Histogram.series}.
 */
import { format } from 'node:util';
import { type LabelValues, type Series, SeriesMetric } from './series.js';

/** The observations of one label set. */
export class HistogramSeries<L extends string> implements Series<L> {
  /** Observations per bucket (not cumulative), aligned with the upper bounds. */
  readonly buckets: number[];
  sum = 0;
  count = 0;
  live = true;

  constructor(
    readonly labels: LabelValues<L>,
    private readonly upperBounds: readonly number[],
  ) {
    this.buckets = upperBounds.map(() => 0);
  }

  /** Records one observation of `value` (the first bucket whose upper bound is ≥ it; none past the last bound: `+Inf` only). */
  add(value: number): void {
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

/** A histogram's label set bound once ({@link Histogram.labels}), observed without a label lookup. */
export class HistogramChild<L extends string> {
  private current: HistogramSeries<L> | undefined;

  constructor(private readonly resolve: () => HistogramSeries<L>) {}

  /** Records `value` in the bound label set's series (created at its first observation). @throws TypeError when `value` is not a finite number. */
  observe(value: number): void {
    checkObservation(value);
    let s = this.current;
    if (s === undefined || !s.live) s = this.current = this.resolve();
    s.add(value);
  }
}

/** Options of a {@link Histogram}. */
export interface HistogramOptions<L extends string> {
  name: string;
  help: string;
  labelNames: readonly L[];
  /** Upper bounds of the buckets, increasing. */
  buckets: readonly number[];
}

/** One sample of the exposition, in prom-client's shape. */
export interface HistogramSample {
  metricName: string;
  labels: LabelValues<string>;
  value: number;
}

function checkObservation(value: number): void {
  if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${format(value)}`);
}

/** A histogram over label sets. */
export class Histogram<L extends string> extends SeriesMetric<L, HistogramSeries<L>> {
  readonly type = 'histogram';
  /** Upper bounds of the buckets (`+Inf` implied). */
  readonly upperBounds: readonly number[];

  /** @throws Error when the buckets do not increase, a label is named `le`, or as lib/metrics/series.ts (declaration bugs). */
  constructor(o: HistogramOptions<L>) {
    super(o.name, o.help, o.labelNames);
    if (o.labelNames.some((n) => n === 'le')) throw new Error('le is a reserved label keyword');
    if (o.buckets.some((b, i) => i > 0 && !(b > o.buckets[i - 1]!))) throw new Error(`histogram ${o.name}: buckets must increase`);
    this.upperBounds = [...o.buckets];
    if (o.labelNames.length === 0) this.seriesOf({});
  }

  /**
   * Records `value` in the series of `labels` (every declared label; a missing one is left out), or
   * `observe(value)` for a histogram without labels.
   * @throws Error on an undeclared label name; TypeError when `value` is not a finite number.
   */
  observe(labels: LabelValues<L> | number, value?: number): void {
    if (labels === undefined || labels === null) labels = {};
    else if (typeof labels !== 'object') {
      value = labels;
      labels = {};
    }
    checkObservation(value!);
    this.seriesOf(labels).add(value!);
  }

  /** The child bound to `labels`; its series appears at its first observation. @throws Error on an undeclared label name. */
  labels(labels: LabelValues<L>): HistogramChild<L> {
    return new HistogramChild(this.resolver(labels));
  }

  /** The samples of every label set, as prom-client's `get()` gives them: cumulative buckets, `+Inf`, `_sum` and `_count`. */
  get(): { name: string; help: string; type: string; aggregator: string; values: HistogramSample[] } {
    const values: HistogramSample[] = [];
    const bucket = `${this.name}_bucket`;
    for (const s of this.series()) {
      let acc = 0;
      for (let i = 0; i < this.upperBounds.length; i++) {
        acc += s.buckets[i]!;
        values.push({ metricName: bucket, labels: { le: this.upperBounds[i]!, ...s.labels }, value: acc });
      }
      values.push(
        { metricName: bucket, labels: { le: '+Inf', ...s.labels }, value: s.count },
        { metricName: `${this.name}_sum`, labels: { ...s.labels }, value: s.sum },
        { metricName: `${this.name}_count`, labels: { ...s.labels }, value: s.count },
      );
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  protected newSeries(labels: LabelValues<L>): HistogramSeries<L> {
    return new HistogramSeries(labels, this.upperBounds);
  }
}
