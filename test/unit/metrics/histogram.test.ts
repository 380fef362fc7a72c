/**
 * The registry's histogram (lib/metrics/histogram.ts; issue #17 items 1 and 3): the same exposition
 * as prom-client's Histogram for the same calls (label sets, numbers as label values, labels in
 * another key order or missing, bound children, reset), the same errors for an undeclared label
 * name or a value that is not a number, and the watch event metrics built on it
 * (`apiserver_watch_events_total` counts what the sizes histogram observed, added to the counter
 * at each scrape).
 */
import { expect } from 'chai';
import { Histogram as PromHistogram, Registry } from 'prom-client';
import { renderExposition } from '../../../lib/metrics/exposition.js';
import { Histogram } from '../../../lib/metrics/histogram.js';
import { StabilityRegistry } from '../../../lib/metrics/registry.js';
import { RequestMetrics, WATCH_EVENT_SIZE_BUCKETS } from '../../../lib/server/request-metrics.js';
import { LatencyTrackers } from '../../../lib/metrics/latency-trackers.js';

type GVK = 'group' | 'version' | 'kind';
const SIZES = [10, 1024, 1025, 5000, 131072, 131073, 700_000, 2048];
const NINE = ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component', 'code'] as const;

/** The same histogram twice, ours and prom-client's, each in a registry of its own. */
function pair<L extends string>(labelNames: readonly L[], buckets: number[]) {
  const ours = new Registry();
  const theirs = new Registry();
  const h = new Histogram<L>({ name: 'h', help: 'help', labelNames, buckets });
  ours.registerMetric(h as never);
  const p = new PromHistogram<L>({ name: 'h', help: 'help', labelNames: [...labelNames], buckets, registers: [theirs] });
  return { h, p, ours, theirs };
}

/** Both registries render alike, with prom-client's renderer and with ours. */
async function expectSameExposition(ours: Registry, theirs: Registry): Promise<void> {
  const want = await theirs.metrics();
  expect(await ours.metrics()).to.equal(want);
  expect(await renderExposition(ours)).to.equal(want);
  expect(await renderExposition(theirs)).to.equal(want);
}

describe('metrics/histogram (issue #17 items 1 and 3)', () => {
  it('renders as prom-client’s Histogram does for the same observations', async () => {
    const { h, p, ours, theirs } = pair<GVK>(['group', 'version', 'kind'], WATCH_EVENT_SIZE_BUCKETS);
    for (const kind of ['ConfigMap', 'Pod']) {
      const labels = { group: '', version: 'v1', kind };
      const child = h.labels(labels);
      const theirChild = p.labels(labels);
      for (const v of SIZES) {
        child.observe(v);
        h.observe(labels, v);
        theirChild.observe(v);
        p.observe(labels, v);
      }
    }
    await expectSameExposition(ours, theirs);
  });

  it('nine labels, numbers as label values, another key order and missing labels: the series and label order of prom-client', async () => {
    const { h, p, ours, theirs } = pair(NINE, [0.005, 0.1, 1]);
    const base = { verb: 'GET', dry_run: '', group: 'apps', version: 'v1', resource: 'deployments', subresource: '', scope: 'namespace', component: 'apiserver', code: '200' };
    const calls: Array<[Record<string, string | number>, number]> = [
      [base, 0.001],
      [{ ...base, code: 200 }, 0.05], // the same series as '200'
      [Object.fromEntries(Object.entries({ ...base, code: '404', verb: 'LIST' }).reverse()), 0.5], // a new series: its labels in this call's key order
      [{ ...base, code: '404', verb: 'LIST' }, 2], // that series again, whatever the order
      [{ verb: 'WATCH', resource: 'pods' }, 0.2], // labels missing: left out
      [{ verb: 'WATCH', resource: 'pods', group: undefined as unknown as string }, 0.3], // undefined: missing too
      [{ ...base, code: 'a "quoted"\nvalue\\' }, 0.01],
    ];
    for (const [labels, v] of calls) {
      h.observe(labels, v);
      p.observe(labels, v);
    }
    await expectSameExposition(ours, theirs);
    expect([...h.series()]).to.have.length(4);
  });

  it('without labels: one empty series from the start, observe(value), gone after a reset as in prom-client', async () => {
    const { h, p, ours, theirs } = pair([], [1, 2]);
    await expectSameExposition(ours, theirs);
    h.observe(1.5);
    p.observe(1.5);
    h.observe(0);
    p.observe(0);
    await expectSameExposition(ours, theirs);
    h.reset();
    p.reset();
    await expectSameExposition(ours, theirs);
    h.observe(3);
    p.observe(3);
    await expectSameExposition(ours, theirs);
  });

  it('reset forgets every label set; a child bound before records into a new series', async () => {
    const { h, p, ours, theirs } = pair<GVK>(['group', 'version', 'kind'], [1]);
    const labels = { group: '', version: 'v1', kind: 'Pod' };
    const child = h.labels(labels);
    const theirChild = p.labels(labels);
    child.observe(0.5);
    theirChild.observe(0.5);
    h.observe({ ...labels, kind: 'Node' }, 2);
    p.observe({ ...labels, kind: 'Node' }, 2);
    h.reset();
    p.reset();
    await expectSameExposition(ours, theirs);
    child.observe(3);
    theirChild.observe(3);
    await expectSameExposition(ours, theirs);
    expect([...h.series()].map((s) => s.count)).to.deep.equal([1]);
  });

  it('a child’s series appears at its first observation, shared with the unbound calls and other children', async () => {
    const { h, p, ours, theirs } = pair<GVK>(['group', 'version', 'kind'], [1]);
    const labels = { group: '', version: 'v1', kind: 'Pod' };
    const a = h.labels(labels);
    const b = h.labels(labels);
    const theirs1 = p.labels(labels);
    expect([...h.series()]).to.have.length(0);
    a.observe(0.5);
    b.observe(0.5);
    h.observe(labels, 4);
    theirs1.observe(0.5);
    theirs1.observe(0.5);
    p.observe(labels, 4);
    expect([...h.series()]).to.have.length(1);
    await expectSameExposition(ours, theirs);
  });

  it('throws where prom-client throws: an undeclared label name (on a new or a known label set), a value that is not a number', () => {
    const { h, p } = pair<GVK>(['group', 'version', 'kind'], [1]);
    const labels = { group: '', version: 'v1', kind: 'Pod' };
    h.observe(labels, 1);
    p.observe(labels, 1);
    for (const bad of [{ ...labels, knd: 'Pod' }, { group: '', versoin: 'v1' }]) {
      const their = (() => {
        try {
          p.observe(bad as never, 1);
        } catch (e) {
          return (e as Error).message;
        }
        throw new Error('prom-client accepted an undeclared label');
      })();
      expect(() => h.observe(bad as never, 1)).to.throw(their);
      expect(() => h.labels(bad as never)).to.throw(their);
    }
    for (const v of [Number.NaN, Number.POSITIVE_INFINITY, '1' as unknown as number]) {
      expect(() => p.observe(labels, v)).to.throw(TypeError);
      expect(() => h.observe(labels, v)).to.throw(TypeError, /Value is not a valid number/);
      expect(() => h.labels(labels).observe(v)).to.throw(TypeError, /Value is not a valid number/);
    }
    expect([...h.series()].map((s) => s.count)).to.deep.equal([1]);
  });

  it('rejects declaration bugs: buckets that do not increase, a label named le, invalid names', () => {
    expect(() => new Histogram({ name: 'h', help: 'help', labelNames: [], buckets: [2, 1] })).to.throw(/increase/);
    expect(() => new Histogram({ name: 'h', help: 'help', labelNames: ['le'], buckets: [1] })).to.throw(/le is a reserved/);
    expect(() => new Histogram({ name: 'h-1', help: 'help', labelNames: [], buckets: [1] })).to.throw(/Invalid metric name/);
    expect(() => new Histogram({ name: 'h', help: 'help', labelNames: ['a-b'], buckets: [1] })).to.throw(/Invalid label name/);
  });

  it('watch event metrics: one size observation per event, and the events total follows it across scrapes', async () => {
    const r = new StabilityRegistry();
    const m = new RequestMetrics(r, new LatencyTrackers());
    const record = m.watchEventRecorder('', 'v1', 'ConfigMap');
    const other = m.watchEventRecorder('', 'v1', 'ConfigMap');
    for (const v of [100, 2000, 3000]) record(v);
    other(50_000);
    const sample = (text: string, name: string) => Number(new RegExp(`^${name}\\{group="",version="v1",kind="ConfigMap"\\} (\\S+)$`, 'm').exec(text)?.[1]);
    let text = await renderExposition(r.registry);
    expect(sample(text, 'apiserver_watch_events_total')).to.equal(4);
    expect(sample(text, 'apiserver_watch_events_sizes_count')).to.equal(4);
    expect(sample(text, 'apiserver_watch_events_sizes_sum')).to.equal(55_100);
    expect(/^apiserver_watch_events_sizes_bucket\{le="2048",group="",version="v1",kind="ConfigMap"\} 2$/m.test(text)).to.equal(true);
    record(10);
    text = await renderExposition(r.registry);
    expect(sample(text, 'apiserver_watch_events_total')).to.equal(5);
    text = await r.registry.metrics();
    expect(sample(text, 'apiserver_watch_events_total')).to.equal(5);
    expect(sample(text, 'apiserver_watch_events_sizes_count')).to.equal(5);
  });
});
