/**
 * The health page (issue #22 § Health), `/console/health`: the `/readyz?verbose` checks and live
 * plots from `/metrics` — request rate and latency per verb, watch counts, watch cache size and
 * flow-control queues — polled every two seconds. Reading `/metrics` needs the non-resource
 * permission `get /metrics`; a 403 is shown as "not allowed".
 */
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api/client';
import { ErrorBox } from '../components/error-box';
import { Plot } from './health/plot';
import { parsePromText } from './health/prom-text';
import { type Readyz, ReadyzTable, readReadyz } from './health/readyz';
import { columnsOf, type GaugeName, LATENCY_VERBS, type Point, pointBetween, type Snapshot, snapshotOf, VERBS } from './health/series';

/** How often the page polls. */
const POLL_MS = 2000;
/** How many points each plot keeps (two minutes at one poll every two seconds). */
const WINDOW = 60;

interface MetricsState {
  points: Point[];
  last?: Snapshot;
  error?: unknown;
}

/** The health page (issue #22 § Health). */
export function HealthView(_props: Record<string, unknown>) {
  const [readyz, setReadyz] = useState<{ value?: Readyz; error?: unknown }>({});
  const [metrics, setMetrics] = useState<MetricsState>({ points: [] });

  useEffect(() => {
    const ctl = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A 403 on /metrics stops its polling (the checks go on): permission is not asked for again every 2 s.
    let forbidden = false;
    const poll = async () => {
      const metricsRead = forbidden ? undefined : api<string>('/metrics', { accept: 'text/plain', signal: ctl.signal });
      const [r, m] = await Promise.allSettled([readReadyz(ctl.signal), metricsRead]);
      if (ctl.signal.aborted) return;
      setReadyz(r.status === 'fulfilled' ? { value: r.value } : { error: r.reason });
      if (m.status === 'rejected') {
        setMetrics((s) => ({ ...s, error: m.reason }));
        forbidden = m.reason instanceof ApiError && m.reason.status === 403;
      } else if (m.value) {
        const snap = snapshotOf(parsePromText(String(m.value.body)), Date.now() / 1000);
        setMetrics((s) => ({
          points: s.last ? [...s.points, pointBetween(s.last, snap)].slice(-WINDOW) : s.points,
          last: snap,
        }));
      }
      timer = setTimeout(poll, POLL_MS);
    };
    void poll();
    return () => {
      ctl.abort();
      clearTimeout(timer);
    };
  }, []);

  const { points } = metrics;
  return (
    <div class="health">
      <h1>Health</h1>
      <ReadyzTable readyz={readyz.value} error={readyz.error} />
      <section class="health-metrics">
        <h2>Metrics</h2>
        {metrics.error !== undefined && <ErrorBox error={metrics.error} />}
        {metrics.error === undefined && points.length === 0 && <p class="muted">Reading /metrics…</p>}
        {points.length > 0 && (
          <div class="health-plots">
            <Plot title="Requests per second by verb" unit="req/s" series={VERBS} data={columnsOf(points, VERBS, (p, k) => p.rate[k] ?? null, WINDOW)} />
            <Plot
              title="Mean latency by verb"
              unit="ms"
              series={LATENCY_VERBS}
              data={columnsOf(points, LATENCY_VERBS, (p, k) => p.latencyMs[k] ?? null, WINDOW)}
            />
            <Plot
              title="Watches"
              unit="watches"
              series={['WATCH requests', 'watch cache watchers']}
              data={columnsOf(points, ['watches', 'cacheWatchers'], (p, k) => p.gauges[k as GaugeName], WINDOW)}
            />
            <Plot
              title="Watch cache size"
              unit="entries"
              series={['objects', 'events in window']}
              data={columnsOf(points, ['cacheObjects', 'cacheEvents'], (p, k) => p.gauges[k as GaugeName], WINDOW)}
            />
            <Plot
              title="Flow control"
              unit="requests"
              series={['in queue', 'executing']}
              data={columnsOf(points, ['inQueue', 'executing'], (p, k) => p.gauges[k as GaugeName], WINDOW)}
            />
          </div>
        )}
      </section>
    </div>
  );
}
