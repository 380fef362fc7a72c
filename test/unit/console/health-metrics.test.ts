import { expect } from 'chai';
import { parsePromText, sumBy, total } from '../../../console/src/views/health/prom-text.js';
import { columnsOf, pointBetween, snapshotOf } from '../../../console/src/views/health/series.js';

const body = (getCount: number, getSum: number, watches: number) => `# HELP apiserver_request_total Counter of apiserver requests.
# TYPE apiserver_request_total counter
apiserver_request_total{verb="GET",resource="pods",code="200"} ${getCount}
apiserver_request_total{verb="GET",resource="",subresource="/readyz",code="500"} 2
apiserver_request_total{verb="WATCH",resource="pods",code="200"} 3
apiserver_request_total{verb="DELETECOLLECTION",resource="pods",code="200"} 1
apiserver_request_duration_seconds_sum{verb="GET",resource="pods"} ${getSum}
apiserver_request_duration_seconds_count{verb="GET",resource="pods"} ${getCount + 2}
apiserver_longrunning_requests{verb="WATCH",resource="pods"} ${watches}
apiserver_longrunning_requests{verb="CONNECT",resource="pods"} 4
apiserver_watch_cache_objects{resource="pods"} 7
apiserver_watch_cache_objects{resource="nodes"} 3
apiserver_flowcontrol_current_inqueue_requests{priority_level="global-default",flow_schema="global-default"} 0
process_start_time_seconds 1.7e+09
`;

describe('console/health: the Prometheus text format (issue #22 § Health)', () => {
  it('reads names, labels (with escapes) and values; skips comments', () => {
    const got = parsePromText('# HELP x y\nx{a="1",b="q\\"uote\\\\ \\n"} 2.5 1700000000\ny 3\nz{le="+Inf"} +Inf\nbroken{a="1" 4\n');
    expect(got).to.deep.equal([
      { name: 'x', labels: { a: '1', b: 'q"uote\\ \n' }, value: 2.5 },
      { name: 'y', labels: {}, value: 3 },
      { name: 'z', labels: { le: '+Inf' }, value: Infinity },
    ]);
  });

  it('sums samples by a label and in all', () => {
    const s = parsePromText(body(10, 1, 5));
    expect([...sumBy(s, 'apiserver_request_total', 'verb')]).to.deep.equal([['GET', 12], ['WATCH', 3], ['DELETECOLLECTION', 1]]);
    expect(total(s, 'apiserver_watch_cache_objects')).to.equal(10);
    expect(total(s, 'missing')).to.equal(0);
  });
});

describe('console/health: plotted values between two polls (issue #22 § Health)', () => {
  const a = snapshotOf(parsePromText(body(10, 1, 5)), 100);
  const b = snapshotOf(parsePromText(body(30, 2, 6)), 102);

  it('gives the request rate per verb over the interval, other verbs as OTHER', () => {
    const p = pointBetween(a, b);
    expect(p.rate.GET).to.equal(10);
    expect(p.rate.WATCH).to.equal(0);
    expect(p.rate.OTHER).to.equal(0);
  });

  it('gives the mean latency (ms) of the requests made in the interval, none for long-running verbs', () => {
    const p = pointBetween(a, b);
    expect(p.latencyMs.GET).to.be.closeTo(50, 1e-9);
    expect(p.latencyMs.LIST).to.equal(null);
    expect(p.latencyMs).to.not.have.property('WATCH');
  });

  it('reads the gauges: WATCH long-running requests only, watch cache objects summed', () => {
    const p = pointBetween(a, b);
    expect(p.gauges.watches).to.equal(6);
    expect(p.gauges.cacheObjects).to.equal(10);
    expect(p.gauges.inQueue).to.equal(0);
  });

  it('leaves a gap across a counter reset (a restarted server)', () => {
    expect(pointBetween(b, snapshotOf(parsePromText(body(1, 0.1, 0)), 104)).rate.GET).to.equal(null);
  });

  it('makes uPlot columns of the last points', () => {
    const p1 = pointBetween(a, b);
    const p2 = { ...p1, t: 104 };
    expect(columnsOf([p1, p2], ['GET'], (p, k) => p.rate[k] ?? null, 1)).to.deep.equal([[104], [10]]);
  });
});
