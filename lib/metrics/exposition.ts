/**
 * The Prometheus text exposition of a registry, rendered without stalling the event loop
 * (issue #16 item 3): metric by metric and line by line, yielding to the loop whenever a slice of
 * work has run for `sliceMs`. The output is the one prom-client's `Registry.metrics()` writes
 * (the same line order, label order, escaping and number format), which renders the whole
 * registry in one turn of the loop. Histograms, whose export builds every bucket sample at once
 * (about 15 ms for 100 label sets), are written straight from prom-client 15's `hashMap` and
 * `upperBounds` fields (test/unit/metrics/exposition.test.ts compares the outputs, so a
 * prom-client that changes them fails there).
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Registry } from 'prom-client';

/** Default length of a slice of rendering work between yields (milliseconds). */
export const DEFAULT_SLICE_MS = 2;
/** Lines written between checks of the clock. */
const LINES_PER_CHECK = 64;

type Labels = Record<string, string | number>;
interface Sample {
  metricName?: string;
  labels?: Labels;
  sharedLabels?: Labels;
  value: number;
}
interface MetricData {
  name: string;
  help: string;
  type: string;
  values?: Sample[];
}
/** A metric as prom-client holds it. */
interface RenderableMetric {
  type: string;
  get(): Promise<MetricData> | MetricData;
}
/** One label set of a prom-client histogram: counts per bucket (not cumulative), sum and count. */
interface HistogramEntry {
  labels: Labels;
  bucketValues: Record<string, number>;
  sum: number;
  count: number;
}
/** The fields of a prom-client 15 histogram this renderer reads. */
interface HistogramInternals {
  name: string;
  help: string;
  type: 'histogram';
  collect?: () => unknown;
  upperBounds: number[];
  hashMap: Record<string, HistogramEntry>;
}

function isHistogram(m: RenderableMetric): m is RenderableMetric & HistogramInternals {
  const h = m as Partial<HistogramInternals>;
  return m.type === 'histogram' && Array.isArray(h.upperBounds) && typeof h.hashMap === 'object';
}

function escapeString(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function formatLabels(labels: Labels, out: string[], exclude?: Labels): void {
  for (const name in labels) {
    if (exclude && Object.prototype.hasOwnProperty.call(exclude, name)) continue;
    const v = labels[name]!;
    out.push(`${name}="${typeof v === 'string' ? escapeString(v).replace(/"/g, '\\"') : v}"`);
  }
}

function formatValue(v: number): string {
  if (Number.isNaN(v)) return 'Nan';
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : '-Inf';
  return `${v}`;
}

/**
 * Renders `registries` (one, or several one after the other) in the text format
 * (`registry.contentType`), giving the event loop a turn after every `sliceMs` of work;
 * collectors run as each metric's turn comes.
 */
export async function renderExposition(registries: Registry | readonly Registry[], sliceMs = DEFAULT_SLICE_MS): Promise<string> {
  const blocks: string[] = [];
  let sliceStart = performance.now();
  const maybeYield = async () => {
    if (performance.now() - sliceStart < sliceMs) return;
    await yieldToLoop();
    sliceStart = performance.now();
  };
  const metrics = (Array.isArray(registries) ? registries : [registries]).flatMap((r: Registry) => r.getMetricsAsArray()) as unknown as RenderableMetric[];
  for (const m of metrics) {
    if (isHistogram(m)) {
      blocks.push(await renderHistogram(m, maybeYield));
      await maybeYield();
      continue;
    }
    const data = await m.get();
    const name = escapeString(data.name);
    const lines = [`# HELP ${name} ${escapeString(data.help)}`, `# TYPE ${name} ${data.type}`];
    const shared = new Map<Labels, string>();
    const values = data.values ?? [];
    for (let i = 0; i < values.length; i++) {
      if (i % LINES_PER_CHECK === LINES_PER_CHECK - 1) await maybeYield();
      const val = values[i]!;
      const parts: string[] = [];
      formatLabels(val.labels ?? {}, parts, val.sharedLabels);
      if (val.sharedLabels) {
        let flat = shared.get(val.sharedLabels);
        if (flat === undefined) {
          const sp: string[] = [];
          formatLabels(val.sharedLabels, sp);
          shared.set(val.sharedLabels, (flat = sp.join(',')));
        }
        if (flat !== '') parts.push(flat);
      }
      lines.push(`${val.metricName ?? name}${parts.length ? `{${parts.join(',')}}` : ''} ${formatValue(val.value)}`);
    }
    blocks.push(lines.join('\n'));
    await maybeYield();
  }
  return `${blocks.join('\n\n')}\n`;
}

/** One histogram's block: per label set, the cumulative buckets, `+Inf`, `_sum` and `_count`. */
async function renderHistogram(h: HistogramInternals, maybeYield: () => Promise<void>): Promise<string> {
  if (h.collect) await h.collect();
  const name = escapeString(h.name);
  const lines = [`# HELP ${name} ${escapeString(h.help)}`, `# TYPE ${name} histogram`];
  const bucket = `${h.name}_bucket`;
  let n = 0;
  for (const entry of Object.values(h.hashMap)) {
    if (++n % 8 === 0) await maybeYield();
    const parts: string[] = [];
    formatLabels(entry.labels, parts);
    const flat = parts.join(',');
    const withLe = flat === '' ? '' : `,${flat}`;
    let acc = 0;
    for (const bound of h.upperBounds) {
      acc += entry.bucketValues[bound] ?? 0;
      lines.push(`${bucket}{le="${bound}"${withLe}} ${formatValue(acc)}`);
    }
    lines.push(`${bucket}{le="+Inf"${withLe}} ${formatValue(entry.count)}`);
    const braces = flat === '' ? '' : `{${flat}}`;
    lines.push(`${h.name}_sum${braces} ${formatValue(entry.sum)}`, `${h.name}_count${braces} ${formatValue(entry.count)}`);
  }
  return lines.join('\n');
}
