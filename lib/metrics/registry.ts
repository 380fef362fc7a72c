/**
 * Metric stability (spec 001 § Deprecation rules, rule 8; upstream component-base metrics): every
 * metric the server exports is declared with a stability level and, once deprecated, the release
 * it was deprecated in. The HELP text carries both as upstream writes them
 * (`[STABLE] …`, `[ALPHA] (Deprecated since 1.29.0) …`); a deprecated metric is hidden — created
 * but not exported — from the minor release after its deprecation on, unless
 * `--show-hidden-metrics-for-version` names the previous minor release.
 */
import { Counter, Gauge, Histogram, type Metric, Registry } from 'prom-client';
import { API_MAJOR, API_MINOR } from '../apimachinery/release.js';
import { BoundHistogram } from './bound-histogram.js';
import { WindowedSummary } from './windowed-summary.js';

/** Upstream's stability levels, least to most stable. */
export type StabilityLevel = 'INTERNAL' | 'ALPHA' | 'BETA' | 'STABLE';

/** One metric as declared: name and labels as exported, HELP without the prefixes. */
export interface MetricDeclaration<L extends string> {
  name: string;
  help: string;
  labelNames: readonly L[];
  stabilityLevel: StabilityLevel;
  /** The release the metric was deprecated in, `<major>.<minor>.<patch>` (`1.29.0`); absent: not deprecated. */
  deprecatedVersion?: string;
}

/** A histogram's declaration: its bucket upper bounds (seconds, bytes… as the metric counts). */
export interface HistogramDeclaration<L extends string> extends MetricDeclaration<L> {
  buckets: number[];
}

/**
 * A summary's declaration (upstream component-base SummaryOpts): the quantiles it reports over a
 * sliding window of `maxAgeSeconds` made of `ageBuckets` parts (lib/metrics/windowed-summary.ts
 * estimates them within 1% of an observed value, where upstream bounds each quantile's rank error).
 */
export interface SummaryDeclaration<L extends string> extends MetricDeclaration<L> {
  /** The reported quantiles, each in [0, 1] (upstream's objectives' keys). */
  percentiles: number[];
  /** Length of the sliding window in seconds (upstream MaxAge). */
  maxAgeSeconds: number;
  /** Number of buckets the window rotates through (upstream AgeBuckets). */
  ageBuckets: number;
}

/** A release as the stability rules compare it. */
export interface ReleaseVersion {
  major: number;
  minor: number;
  patch: number;
}

/** The release this server implements (lib/apimachinery/release.ts), patch 0. */
export const SERVER_RELEASE: ReleaseVersion = { major: Number(API_MAJOR), minor: Number(API_MINOR), patch: 0 };

/**
 * Checks a `--show-hidden-metrics-for-version` value (upstream `validateShowHiddenMetricsVersion`):
 * empty, or exactly the previous minor release of `current` as `<major>.<minor>`.
 * @returns the upstream reason for any other value
 *   (`--show-hidden-metrics-for-version must be omitted or have the value '1.29'. Only the previous minor version is allowed`),
 *   undefined when valid.
 */
export function validateShowHiddenMetricsVersion(value: string, current: ReleaseVersion = SERVER_RELEASE): string | undefined {
  if (value === '') return undefined;
  const valid = `${current.major}.${current.minor - 1}`;
  if (value === valid) return undefined;
  return `--show-hidden-metrics-for-version must be omitted or have the value '${valid}'. Only the previous minor version is allowed`;
}

/** Options of a {@link StabilityRegistry}. */
export interface StabilityRegistryOptions {
  /** `--show-hidden-metrics-for-version` was given (validated): hidden metrics are exported again. */
  showHidden?: boolean;
  /** The running release (default {@link SERVER_RELEASE}). */
  version?: ReleaseVersion;
}

const RELEASE_FORMAT = /^(\d+)\.(\d+)\.(\d+)$/;

function parseRelease(text: string): ReleaseVersion | undefined {
  const m = RELEASE_FORMAT.exec(text);
  return m ? { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]) } : undefined;
}

function compareReleases(a: ReleaseVersion, b: ReleaseVersion): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

/**
 * A prom-client registry that takes stability declarations. Each metric is created whatever its
 * state, so callers record into it unconditionally; only the exported set differs.
 */
export class StabilityRegistry {
  /** The exported metrics (text exposition through `metrics()`). */
  readonly registry = new Registry();
  private readonly showHidden: boolean;
  private readonly version: ReleaseVersion;
  private readonly hidden: string[] = [];

  constructor(opts: StabilityRegistryOptions = {}) {
    this.showHidden = opts.showHidden ?? false;
    this.version = opts.version ?? SERVER_RELEASE;
  }

  /**
   * A counter per `d`; `collect`, when given, runs at each scrape before the counter is read (its
   * `this` is the counter: it adds what was counted elsewhere since the last scrape).
   * @throws Error when `d.deprecatedVersion` is not `<major>.<minor>.<patch>` (a declaration bug).
   */
  counter<L extends string>(d: MetricDeclaration<L>, collect?: (this: Counter<L>) => void): Counter<L> {
    const { help, registers } = this.prepare(d);
    return new Counter<L>({ name: d.name, help, labelNames: d.labelNames, registers, ...(collect && { collect }) });
  }

  /**
   * A gauge per `d`; `collect`, when given, runs at each scrape before the gauge is read (its
   * `this` is the gauge: it sets the values then). @throws as {@link counter}.
   */
  gauge<L extends string>(d: MetricDeclaration<L>, collect?: (this: Gauge<L>) => void | Promise<void>): Gauge<L> {
    const { help, registers } = this.prepare(d);
    return new Gauge<L>({ name: d.name, help, labelNames: d.labelNames, registers, ...(collect && { collect }) });
  }

  /** A histogram per `d`. @throws as {@link counter}. */
  histogram<L extends string>(d: HistogramDeclaration<L>): Histogram<L> {
    const { help, registers } = this.prepare(d);
    return new Histogram<L>({ name: d.name, help, labelNames: d.labelNames, buckets: d.buckets, registers });
  }

  /**
   * A summary per `d` (lib/metrics/windowed-summary.ts: prom-client's own Summary is too costly
   * for the request path and the scrape). @throws as {@link counter}, and when the window or a
   * percentile is out of range.
   */
  summary<L extends string>(d: SummaryDeclaration<L>): WindowedSummary<L> {
    const { help, registers } = this.prepare(d);
    const s = new WindowedSummary<L>({ name: d.name, help, labelNames: d.labelNames, percentiles: d.percentiles, maxAgeSeconds: d.maxAgeSeconds, ageBuckets: d.ageBuckets });
    for (const r of registers) r.registerMetric(s as unknown as Metric);
    return s;
  }

  /**
   * A histogram per `d` whose label sets are bound before they are observed
   * (lib/metrics/bound-histogram.ts: for per-event observations, where prom-client's Histogram costs
   * too much). @throws as {@link counter}, and when the buckets do not increase.
   */
  boundHistogram<L extends string>(d: HistogramDeclaration<L>): BoundHistogram<L> {
    const { help, registers } = this.prepare(d);
    const h = new BoundHistogram<L>({ name: d.name, help, labelNames: d.labelNames, buckets: d.buckets });
    for (const r of registers) r.registerMetric(h as unknown as Metric);
    return h;
  }

  /** Names of the declared metrics that are not exported (deprecated before this minor release), in declaration order. */
  hiddenMetrics(): readonly string[] {
    return this.hidden;
  }

  /**
   * The HELP text and registries of one declaration (upstream lazyMetric.preprocessMetric): a
   * metric is deprecated once the running release reaches its deprecatedVersion, and hidden when
   * that version is older than `<major>.<minor>.0` of the running release.
   */
  private prepare(d: MetricDeclaration<string>): { help: string; registers: Registry[] } {
    let help = d.help;
    let hide = false;
    if (d.deprecatedVersion !== undefined) {
      const since = parseRelease(d.deprecatedVersion);
      if (since === undefined) throw new Error(`metric ${d.name}: deprecatedVersion ${JSON.stringify(d.deprecatedVersion)} is not <major>.<minor>.<patch>`);
      if (compareReleases(this.version, since) >= 0) {
        help = `(Deprecated since ${d.deprecatedVersion}) ${help}`;
        hide = compareReleases(since, { ...this.version, patch: 0 }) < 0 && !this.showHidden;
      }
    }
    if (hide) this.hidden.push(d.name);
    return { help: `[${d.stabilityLevel}] ${help}`, registers: hide ? [] : [this.registry] };
  }
}
