/**
 * The sliding-window summary (lib/metrics/windowed-summary.ts): quantiles within 1% of the exact
 * ones, a window of `maxAgeSeconds` in `ageBuckets` steps, all-time sum and count, NaN for an
 * empty window, bounded state for extreme values, and its rendering through a registry.
 */
import { expect } from 'chai';
import { Registry } from 'prom-client';
import { renderExposition } from '../../../lib/metrics/exposition.js';
import { WindowedSummary } from '../../../lib/metrics/windowed-summary.js';

type Op = 'op';

/** A summary over a 50 s window of 5 age buckets on a clock the test moves (`clock.ms`). */
function summaryAt(clock: { ms: number }, percentiles = [0.5, 0.9, 0.99]): WindowedSummary<Op> {
  return new WindowedSummary<Op>({ name: 's', help: 'h', labelNames: ['op'], percentiles, maxAgeSeconds: 50, ageBuckets: 5, now: () => clock.ms });
}

/** The sample values of `s` for `op`: quantiles by their label, then sum and count. */
function samples(s: WindowedSummary<Op>, op: string): { q: Record<string, number>; sum: number; count: number } {
  const values = s.get().values.filter((v) => v.labels.op === op);
  const q: Record<string, number> = {};
  for (const v of values) if (v.metricName === undefined) q[v.labels.quantile!] = v.value;
  return { q, sum: values.find((v) => v.metricName === 's_sum')!.value, count: values.find((v) => v.metricName === 's_count')!.value };
}

/** A deterministic pseudo-random sequence in [0, 1). */
function* lcg(seed: number): Generator<number> {
  let x = seed;
  for (;;) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    yield x / 2 ** 31;
  }
}

describe('metrics/windowed-summary', () => {
  it('quantiles are within 1% of the exact ones over spread-out values', () => {
    const s = summaryAt({ ms: 0 }, [0.5, 0.9, 0.99, 0.999]);
    const rnd = lcg(7);
    const values: number[] = [];
    for (let i = 0; i < 20_000; i++) {
      // Latencies from 100 µs to about 10 s, log-uniform.
      const v = 1e-4 * 10 ** (5 * rnd.next().value!);
      values.push(v);
      s.observe({ op: 'CREATE' }, v);
    }
    values.sort((a, b) => a - b);
    const { q, sum, count } = samples(s, 'CREATE');
    for (const p of [0.5, 0.9, 0.99, 0.999]) {
      const exact = values[Math.ceil(p * values.length) - 1]!;
      expect(Math.abs(q[String(p)]! - exact) / exact, `quantile ${p}`).to.be.below(0.01);
    }
    expect(count).to.equal(20_000);
    expect(sum).to.be.closeTo(
      values.reduce((a, b) => a + b, 0),
      1e-6,
    );
  });

  it('a single observation is reported exactly; zero and negative values are 0', () => {
    const s = summaryAt({ ms: 0 });
    s.observe({ op: 'a' }, 0.0123);
    s.observe({ op: 'z' }, 0);
    s.observe({ op: 'z' }, -1);
    expect(samples(s, 'a').q).to.deep.equal({ '0.5': 0.0123, '0.9': 0.0123, '0.99': 0.0123 });
    expect(samples(s, 'z').q).to.deep.equal({ '0.5': 0, '0.9': 0, '0.99': 0 });
  });

  it('the window slides by age buckets; sum and count cover all time; an empty window is NaN', () => {
    const clock = { ms: 0 };
    const s = summaryAt(clock);
    for (let i = 0; i < 10; i++) s.observe({ op: 'a' }, 1);
    clock.ms = 25_000;
    for (let i = 0; i < 10; i++) s.observe({ op: 'a' }, 2);
    // Both halves in the window: the median is the old value, the 0.9 quantile the new one.
    expect(samples(s, 'a').q).to.deep.equal({ '0.5': 1, '0.9': 2, '0.99': 2 });
    // 50 s on, the first age bucket has left the window.
    clock.ms = 50_000;
    expect(samples(s, 'a').q).to.deep.equal({ '0.5': 2, '0.9': 2, '0.99': 2 });
    // Another 25 s on, nothing is left.
    clock.ms = 75_000;
    const { q, sum, count } = samples(s, 'a');
    expect(Object.values(q).every(Number.isNaN)).to.equal(true);
    expect(sum).to.equal(30);
    expect(count).to.equal(20);
    s.observe({ op: 'a' }, 3);
    expect(samples(s, 'a').q['0.5']).to.equal(3);
  });

  it('state stays bounded whatever the values', () => {
    const s = summaryAt({ ms: 0 });
    for (let e = -300; e <= 300; e++) s.observe({ op: 'x' }, 10 ** e);
    s.observe({ op: 'x' }, Infinity);
    const buckets = (s as unknown as { series: Map<string, { ages: Array<{ counts: Map<number, number> }> }> }).series.values().next().value!.ages[0]!.counts.size;
    // One bucket per power of ten from 1e-9 to 1e4; every smaller value shares the smallest, every larger the largest.
    expect(buckets).to.be.at.most(16);
    expect(samples(s, 'x').count).to.equal(602);
  });

  it('rejects a window or percentile out of range', () => {
    const base = { name: 'bad', help: 'h', labelNames: [] as never[], percentiles: [0.5], maxAgeSeconds: 1, ageBuckets: 1 };
    expect(() => new WindowedSummary({ ...base, ageBuckets: 0 })).to.throw('summary bad: maxAgeSeconds must be positive and ageBuckets at least 1');
    expect(() => new WindowedSummary({ ...base, maxAgeSeconds: 0 })).to.throw('summary bad: maxAgeSeconds must be positive and ageBuckets at least 1');
    expect(() => new WindowedSummary({ ...base, percentiles: [1.5] })).to.throw('summary bad: percentiles must be in [0, 1]');
  });

  it("renders as prom-client's registry renders it, and as the sliced exposition does", async () => {
    const r = new Registry();
    const s = new WindowedSummary<'type' | 'operation'>({ name: 'x_seconds', help: '[ALPHA] X.', labelNames: ['type', 'operation'], percentiles: [0.5, 0.9], maxAgeSeconds: 60, ageBuckets: 5 });
    r.registerMetric(s as never);
    s.observe({ type: 'admit', operation: 'CREATE' }, 0.25);
    const want = [
      '# HELP x_seconds [ALPHA] X.',
      '# TYPE x_seconds summary',
      'x_seconds{type="admit",operation="CREATE",quantile="0.5"} 0.25',
      'x_seconds{type="admit",operation="CREATE",quantile="0.9"} 0.25',
      'x_seconds_sum{type="admit",operation="CREATE"} 0.25',
      'x_seconds_count{type="admit",operation="CREATE"} 1',
      '',
    ].join('\n');
    expect(await r.metrics()).to.equal(want);
    expect(await renderExposition(r)).to.equal(want);
  });
});
