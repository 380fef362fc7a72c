/**
 * The Prometheus counter the registry hands out (issue #17 item 1), in place of prom-client's: the
 * same calls (`inc(labels, n)`, `inc(n)`, `labels(l).inc(n)`, `reset()`, a `collect` run before
 * each read with the counter as `this`) and the same exposition (a counter without labels starts,
 * and restarts after a reset, at 0), at the cost of a label key and one Map lookup per increment
 * (lib/metrics/series.ts). Registered into a prom-client `Registry` (`registerMetric`): it has the
 * `name`, `help`, `type` and `get()` the registry and lib/metrics/exposition.ts read.
 */
import { format } from 'node:util';
import { type LabelValues, type Series, SeriesMetric } from './series.js';

/** The total of one label set. */
export class CounterSeries<L extends string> implements Series<L> {
  value = 0;
  live = true;

  constructor(readonly labels: LabelValues<L>) {}
}

/**
 * The increment prom-client's Counter applies for `value`: 1 when absent.
 * @throws TypeError when `value` is given and not a finite number; Error when it is negative.
 */
function increment(value: number | undefined): number {
  if (value && !Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${format(value)}`);
  if (value !== undefined && value !== null && value < 0) throw new Error('It is not possible to decrease a counter');
  return value ?? 1;
}

/** A counter's label set bound once ({@link Counter.labels}), incremented without a label lookup. */
export class CounterChild<L extends string> {
  private current: CounterSeries<L> | undefined;

  constructor(private readonly resolve: () => CounterSeries<L>) {}

  /** Adds `value` (default 1) to the bound label set's series (created at its first increment). @throws as {@link Counter.inc}. */
  inc(value?: number): void {
    const n = increment(value);
    let s = this.current;
    if (s === undefined || !s.live) s = this.current = this.resolve();
    s.value += n;
  }
}

/** Options of a {@link Counter}. */
export interface CounterOptions<L extends string> {
  name: string;
  help: string;
  labelNames: readonly L[];
  /** Runs before each read of the counter, `this` the counter (it adds what was counted elsewhere). */
  collect?: (this: Counter<L>) => void | Promise<void>;
}

/** One sample of the exposition, in prom-client's shape. */
export interface CounterSample {
  labels: LabelValues<string>;
  value: number;
}

/** A counter over label sets. */
export class Counter<L extends string = string> extends SeriesMetric<L, CounterSeries<L>> {
  readonly type = 'counter';
  /** The options' collect, bound to this counter. */
  private readonly collect: (() => void | Promise<void>) | undefined;

  /** @throws as lib/metrics/series.ts (declaration bugs). */
  constructor(o: CounterOptions<L>) {
    super(o.name, o.help, o.labelNames);
    this.collect = o.collect?.bind(this);
    this.reset();
  }

  /**
   * Adds `value` (default 1) to the series of `labels` (a missing label is left out), or
   * `inc(value)` for a counter without labels.
   * @throws Error on an undeclared label name or a negative value; TypeError when `value` is not a finite number.
   */
  inc(labels?: LabelValues<L> | number, value?: number): void {
    if (typeof labels !== 'object' || labels === null) {
      value = labels ?? undefined;
      labels = {};
    }
    const n = increment(value);
    this.seriesOf(labels).value += n;
  }

  /** The child bound to `labels`; its series appears at its first increment. @throws Error on an undeclared label name. */
  labels(labels: LabelValues<L>): CounterChild<L> {
    return new CounterChild(this.resolver(labels));
  }

  /** Forgets every label set; a counter without labels is back at 0. */
  override reset(): void {
    super.reset();
    if (this.labelNames.length === 0) this.seriesOf({});
  }

  /** Runs the collect function, then the samples of every label set, as prom-client's `get()` gives them. */
  async get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: CounterSample[] }> {
    if (this.collect) await this.collect();
    const values: CounterSample[] = [];
    for (const s of this.series()) values.push({ value: s.value, labels: s.labels });
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  protected newSeries(labels: LabelValues<L>): CounterSeries<L> {
    return new CounterSeries(labels);
  }
}
