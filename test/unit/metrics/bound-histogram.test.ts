/**
 * The bound histogram (lib/metrics/bound-histogram.ts; issue #17 item 3): the same exposition as
 * prom-client's Histogram for the same observations, one child per label set, and the watch event
 * metrics of the request metrics built on it (`apiserver_watch_events_total` counts what the
 * sizes histogram observed, added to the counter at each scrape).
 */
import { expect } from 'chai';
import { Histogram, Registry } from 'prom-client';
import { renderExposition } from '../../../lib/metrics/exposition.js';
import { BoundHistogram } from '../../../lib/metrics/bound-histogram.js';
import { StabilityRegistry } from '../../../lib/metrics/registry.js';
import { RequestMetrics, WATCH_EVENT_SIZE_BUCKETS } from '../../../lib/server/request-metrics.js';
import { LatencyTrackers } from '../../../lib/metrics/latency-trackers.js';

type GVK = 'group' | 'version' | 'kind';
const SIZES = [10, 1024, 1025, 5000, 131072, 131073, 700_000, 2048];

describe('metrics/bound-histogram (issue #17 item 3)', () => {
  it('renders as prom-client’s Histogram does for the same observations', async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const h = new BoundHistogram<GVK>({ name: 'h', help: 'help', labelNames: ['group', 'version', 'kind'], buckets: WATCH_EVENT_SIZE_BUCKETS });
    ours.registerMetric(h as never);
    const p = new Histogram<GVK>({ name: 'h', help: 'help', labelNames: ['group', 'version', 'kind'], buckets: WATCH_EVENT_SIZE_BUCKETS, registers: [theirs] });
    for (const kind of ['ConfigMap', 'Pod']) {
      const labels = { group: '', version: 'v1', kind };
      const child = h.child(labels);
      for (const v of SIZES) {
        child.observe(v);
        p.observe(labels, v);
      }
    }
    expect(await renderExposition(ours)).to.equal(await renderExposition(theirs));
    expect(await ours.metrics()).to.equal(await theirs.metrics());
  });

  it('binds one child per label set', () => {
    const h = new BoundHistogram<GVK>({ name: 'h', help: 'help', labelNames: ['group', 'version', 'kind'], buckets: [1, 2] });
    const a = h.child({ group: '', version: 'v1', kind: 'Pod' });
    expect(h.child({ group: '', version: 'v1', kind: 'Pod' })).to.equal(a);
    expect(h.child({ group: '', version: 'v1', kind: 'Node' })).to.not.equal(a);
    expect([...h.series()]).to.have.length(2);
  });

  it('rejects buckets that do not increase', () => {
    expect(() => new BoundHistogram({ name: 'h', help: 'help', labelNames: [], buckets: [2, 1] })).to.throw(/increase/);
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
