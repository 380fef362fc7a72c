/**
 * What the health page plots (issue #22 § Health), computed from two polls of `/metrics`:
 * request rate and mean latency per verb over the poll interval, watch counts, watch cache size
 * and flow-control queues. Pure code (no DOM), unit-tested.
 */
import { type Sample, sumBy, total } from './prom-text.js';

/** The verbs plotted one by one (the server's `verb` label); any other verb counts as OTHER. */
export const VERBS = ['GET', 'LIST', 'WATCH', 'CREATE', 'UPDATE', 'PATCH', 'APPLY', 'DELETE', 'OTHER'] as const;

/** Verbs whose requests last as long as the client wants: left out of the latency plot. */
const LONG_RUNNING = new Set(['WATCH', 'CONNECT']);

/** The verbs of the latency plot. */
export const LATENCY_VERBS = VERBS.filter((v) => !LONG_RUNNING.has(v));

/** The values read from one poll of `/metrics`, at `t` (seconds). */
export interface Snapshot {
  t: number;
  requests: Map<string, number>;
  durationSum: Map<string, number>;
  durationCount: Map<string, number>;
  gauges: Record<GaugeName, number>;
}

/** The gauges plotted as they are: summed over all their series. */
export const GAUGES = {
  watches: 'apiserver_longrunning_requests',
  cacheWatchers: 'apiserver_watch_cache_watchers',
  cacheObjects: 'apiserver_watch_cache_objects',
  cacheEvents: 'apiserver_watch_cache_events',
  inQueue: 'apiserver_flowcontrol_current_inqueue_requests',
  executing: 'apiserver_flowcontrol_current_executing_requests',
} as const;

/** The name of one plotted gauge. */
export type GaugeName = keyof typeof GAUGES;

const verbOf = (v: string) => ((VERBS as readonly string[]).includes(v) ? v : 'OTHER');

function byVerb(m: Map<string, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [v, n] of m) out.set(verbOf(v), (out.get(verbOf(v)) ?? 0) + n);
  return out;
}

/** The snapshot of one `/metrics` body read at `t` seconds. issue #22 § Health. */
export function snapshotOf(samples: Sample[], t: number): Snapshot {
  const gauges = {} as Record<GaugeName, number>;
  for (const [key, metric] of Object.entries(GAUGES) as [GaugeName, string][]) {
    gauges[key] = key === 'watches' ? total(samples, metric, (s) => s.labels.verb === 'WATCH') : total(samples, metric);
  }
  return {
    t,
    requests: byVerb(sumBy(samples, 'apiserver_request_total', 'verb')),
    durationSum: byVerb(sumBy(samples, 'apiserver_request_duration_seconds_sum', 'verb')),
    durationCount: byVerb(sumBy(samples, 'apiserver_request_duration_seconds_count', 'verb')),
    gauges,
  };
}

/** One plotted point: per-verb request rate (/s) and mean latency (ms), and the gauges. */
export interface Point {
  t: number;
  rate: Record<string, number | null>;
  latencyMs: Record<string, number | null>;
  gauges: Record<GaugeName, number>;
}

/**
 * The point between two snapshots (issue #22 § Health): rates are counter deltas over the
 * interval (null across a counter reset); latency is Δsum/Δcount (null with no request).
 */
export function pointBetween(prev: Snapshot, cur: Snapshot): Point {
  const dt = cur.t - prev.t;
  const rate: Record<string, number | null> = {};
  const latencyMs: Record<string, number | null> = {};
  for (const v of VERBS) {
    const dn = (cur.requests.get(v) ?? 0) - (prev.requests.get(v) ?? 0);
    rate[v] = dt > 0 && dn >= 0 ? dn / dt : null;
  }
  for (const v of LATENCY_VERBS) {
    const dc = (cur.durationCount.get(v) ?? 0) - (prev.durationCount.get(v) ?? 0);
    const ds = (cur.durationSum.get(v) ?? 0) - (prev.durationSum.get(v) ?? 0);
    latencyMs[v] = dc > 0 && ds >= 0 ? (ds / dc) * 1000 : null;
  }
  return { t: cur.t, rate, latencyMs, gauges: cur.gauges };
}

/** Columns as uPlot takes them: x (seconds) first, then one array per series. */
export type Columns = [number[], ...(number | null)[][]];

/**
 * `points` (oldest first, at most the last `max`) as uPlot columns of the values `pick` reads,
 * one series per key of `keys`. issue #22 § Health.
 */
export function columnsOf(points: Point[], keys: readonly string[], pick: (p: Point, key: string) => number | null, max: number): Columns {
  const shown = points.slice(-max);
  return [shown.map((p) => p.t), ...keys.map((k) => shown.map((p) => pick(p, k)))];
}
