/**
 * Benchmark helpers: run an operation N times at a concurrency, collect latencies, and print
 * aligned tables. Figures are printed, never asserted.
 */

/** Result of one measured phase. */
export interface PhaseResult {
  name: string;
  concurrency: number;
  count: number;
  seconds: number;
  /** Operations per second. */
  rate: number;
  /** Latency percentiles in milliseconds. */
  p50: number;
  p99: number;
  errors: number;
}

/** The `p`th percentile (0–100) of `sorted` (ascending): the element at ⌊p/100 · n⌋; 0 when empty. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Runs `op(i)` for i in [0, count) with `concurrency` workers; failed ops count as errors. */
export async function measure(name: string, count: number, concurrency: number, op: (i: number) => Promise<unknown>): Promise<PhaseResult> {
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  let firstError: unknown;
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (;;) {
        const i = next++;
        if (i >= count) return;
        const t0 = process.hrtime.bigint();
        try {
          await op(i);
        } catch (err) {
          errors++;
          firstError ??= err;
        }
        latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (firstError) console.error(`${name}: ${errors} errors, first: ${firstError instanceof Error ? firstError.message : String(firstError)}`);
  latencies.sort((a, b) => a - b);
  return { name, concurrency, count, seconds, rate: count / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors };
}

/** Prints rows as an aligned text table. */
export function printTable(headers: string[], rows: (string | number)[][]): void {
  const cells = [headers, ...rows.map((r) => r.map((c) => (typeof c === 'number' ? formatNumber(c) : c)))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => String(r[i]).length)));
  const line = (r: (string | number)[]) => r.map((c, i) => String(c).padStart(i === 0 ? 0 : widths[i]!).padEnd(i === 0 ? widths[i]! : 0)).join('  ');
  console.log(line(headers));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of cells.slice(1)) console.log(line(r));
}

function formatNumber(n: number): string {
  if (Number.isInteger(n)) return String(n);
  return n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2);
}
