/**
 * The sliced exposition renderer writes exactly what prom-client's `Registry.metrics()` writes,
 * for counters, gauges, histograms (with and without labels), escaping and special values.
 */
import { expect } from 'chai';
import { renderExposition } from '../../../lib/metrics/exposition.js';
import { StabilityRegistry } from '../../../lib/metrics/registry.js';
import { ServerMetrics } from '../../../lib/server/metrics.js';

describe('metrics/exposition', () => {
  it('renders byte for byte as prom-client', async () => {
    const r = new StabilityRegistry();
    const c = r.counter({ name: 'test_total', help: 'A "counter"\nwith \\ escapes.', labelNames: ['a', 'b'], stabilityLevel: 'ALPHA' });
    c.inc({ a: 'x"y', b: 'line\nbreak\\' }, 3);
    c.inc({ b: '2', a: '1' });
    const g = r.gauge({ name: 'test_gauge', help: 'g', labelNames: [], stabilityLevel: 'STABLE' });
    g.set(Number.POSITIVE_INFINITY);
    r.gauge({ name: 'test_empty', help: 'never set', labelNames: ['x'], stabilityLevel: 'ALPHA' });
    const h = r.histogram({ name: 'test_seconds', help: 'h', labelNames: ['verb'], buckets: [0.005, 0.1, 1, 2.5], stabilityLevel: 'STABLE' });
    for (const v of [0.001, 0.05, 0.5, 3]) h.observe({ verb: 'GET' }, v);
    h.observe({ verb: 'LIST' }, 1);
    const plain = r.histogram({ name: 'test_plain_seconds', help: 'p', labelNames: [], buckets: [1], stabilityLevel: 'ALPHA' });
    plain.observe(0.5);
    const collected = r.gauge({ name: 'test_collected', help: 'c', labelNames: ['k'], stabilityLevel: 'ALPHA' }, function () {
      this.set({ k: 'v' }, 7);
    });
    expect(collected).to.not.equal(undefined);
    expect(await renderExposition(r.registry, 0)).to.equal(await r.registry.metrics());
  });

  it("renders a whole server's metrics as prom-client", async () => {
    const m = new ServerMetrics();
    m.storage.forResource('pods').request('get', process.hrtime.bigint(), false);
    m.auth.authentication('success', process.hrtime.bigint(), 'admin');
    expect(await renderExposition(m.registry)).to.equal(await m.registry.metrics());
  });
});
