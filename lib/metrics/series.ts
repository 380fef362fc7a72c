/**
 * The label sets of a counter or histogram (issue #17 item 1): each label set's series is found
 * by one Map lookup per declared label, walking a tree of Maps keyed by the label values in
 * declared order (the values' hashes are cached in the strings, so no key string is built and
 * hashed), where prom-client validates every label name and hashes the label object by its sorted
 * keys at each call (about 2–4 µs, a dozen times per request). The semantics are prom-client 15's:
 * a label name that was not declared throws (`Added label "x" is not included in initial
 * labelset: [...]`), a missing (or undefined) label is left out of the series, numbers are
 * accepted as label values (`1` and `'1'` are the same series), and a series keeps the labels of
 * the first call that created it, in that call's key order, which is the order the exposition
 * writes them in.
 */
import { inspect } from 'node:util';

/** Label values as callers pass them (prom-client's LabelValues): a missing label is left out. */
export type LabelValues<L extends string> = Partial<Record<L, string | number>>;

/** What every series holds: its labels, and whether it is still in its metric (not reset or removed). */
export interface Series<L extends string> {
  readonly labels: LabelValues<L>;
  /** False once the metric was reset: a bound child then finds (or creates) its label set's series again. */
  live: boolean;
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** One level of the tree: a label's value (undefined: missing) to the next level, or to the series at the last. */
type Level = Map<string | undefined, unknown>;

/** A label value as a tree key: strings as they are, undefined for a missing label, anything else as its string (prom-client: `${v}`). */
function treeKey(v: string | number | undefined): string | undefined {
  return typeof v === 'string' || v === undefined ? v : String(v);
}

/**
 * The series of one metric by label set, created at their first use. Subclasses add the values
 * (a counter's total, a histogram's buckets) and the exposition (`get()`, in prom-client's shape:
 * the metric is registered into a prom-client `Registry` with `registerMetric`).
 */
export abstract class SeriesMetric<L extends string, S extends Series<L>> {
  readonly name: string;
  readonly help: string;
  readonly aggregator = 'sum';
  protected readonly labelNames: readonly L[];
  /** The series by label values, one level per declared label (a metric without labels: its one series under undefined). */
  private root: Level = new Map();
  /** The series in the order of their first use (the exposition's order). */
  private ordered: S[] = [];

  /** @throws Error when the name or a label name is not a Prometheus name (prom-client's messages: a declaration bug). */
  constructor(name: string, help: string, labelNames: readonly L[]) {
    if (!help) throw new Error('Missing mandatory help parameter');
    if (!METRIC_NAME.test(name)) throw new Error('Invalid metric name');
    if (!labelNames.every((n) => LABEL_NAME.test(n))) throw new Error('Invalid label name');
    this.name = name;
    this.help = help;
    this.labelNames = labelNames;
  }

  /** A new empty series of `labels` (a copy the series may keep). */
  protected abstract newSeries(labels: LabelValues<L>): S;

  /**
   * The series of `labels`, created (empty) when absent.
   * @throws Error when `labels` has a label name that was not declared (prom-client's message).
   */
  protected seriesOf(labels: LabelValues<L>): S {
    const names = this.labelNames;
    const last = names.length - 1;
    let node = this.root;
    let present = 0;
    for (let i = 0; i < last; i++) {
      const k = treeKey(labels[names[i]!]);
      if (k !== undefined) present++;
      let next = node.get(k) as Level | undefined;
      if (next === undefined) node.set(k, (next = new Map()));
      node = next;
    }
    const k = last < 0 ? undefined : treeKey(labels[names[last]!]);
    if (k !== undefined) present++;
    // As many own keys as declared labels present: no undeclared one. Else (an undeclared name, or
    // a declared one set to undefined) check each name, as prom-client does at every call.
    let own = 0;
    for (const _name in labels) own++;
    if (own !== present) this.validate(labels);
    let s = node.get(k) as S | undefined;
    if (s === undefined) {
      node.set(k, (s = this.newSeries({ ...labels })));
      this.ordered.push(s);
    }
    return s;
  }

  /** The series of `labels` as a bound child resolves it: validated once, found again after a reset. */
  protected resolver(labels: LabelValues<L>): () => S {
    this.validate(labels);
    const own = { ...labels };
    return () => this.seriesOf(own);
  }

  /** Every label set recorded since the last reset, in the order of their first use. */
  series(): IterableIterator<S> {
    return this.ordered.values();
  }

  /** Forgets every label set (children bound before start new series at their next record). */
  reset(): void {
    for (const s of this.ordered) s.live = false;
    this.root = new Map();
    this.ordered = [];
  }

  private validate(labels: LabelValues<L>): void {
    for (const name in labels) {
      if (!(this.labelNames as readonly string[]).includes(name)) throw new Error(`Added label "${name}" is not included in initial labelset: ${inspect(this.labelNames)}`);
    }
  }
}
