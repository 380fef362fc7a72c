/**
 * The server's own timing of the scale benchmark's requests (issue #24 item 5): upstream judges
 * its SLOs by the server's request histograms, not by what a client measures, so the benchmark
 * reads every server process's `/metrics` when the steady phase begins and when it ends, over
 * connections held open for the whole phase (with `--workers`, the primary hands each new
 * connection to a worker, and a connection stays on its worker).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ClusterClient } from './client.js';

/** Upstream's SLOs (ms): mutating and single-object reads, and lists (cluster scope). */
export const SLO_MUTATING_MS = 1000;
export const SLO_LIST_MS = 30_000;

/** The requests of the steady phase the SLOs judge, by their verb and resource labels → limit (ms). */
export const SLO_REQUESTS: Record<string, number> = {
  'PUT leases': SLO_MUTATING_MS,
  'PATCH nodes/status': SLO_MUTATING_MS,
  'PATCH pods/status': SLO_MUTATING_MS,
  'DELETE pods': SLO_MUTATING_MS,
  'POST pods': SLO_MUTATING_MS,
  'LIST pods': SLO_LIST_MS,
};

/** `apiserver_request_sli_duration_seconds`: the SLI (the time in the server without webhooks and flow control's queueing). */
export const SLI_METRIC = 'apiserver_request_sli_duration_seconds';
/** `apiserver_request_duration_seconds`: all of the time in the server. */
export const DURATION_METRIC = 'apiserver_request_duration_seconds';

/** Cumulative bucket counts by upper bound (s; `Infinity` for `+Inf`), per request kind of {@link SLO_REQUESTS}. */
export type Histograms = Map<string, Map<number, number>>;

/** The histogram `metric` of the requests in {@link SLO_REQUESTS} in one process's `/metrics` text. */
export function requestHistograms(text: string, metric: string): Histograms {
  const out: Histograms = new Map();
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${metric}_bucket{`)) continue;
    const label = (name: string) => new RegExp(`[{,]${name}="([^"]*)"`).exec(line)?.[1] ?? '';
    const key = `${label('verb')} ${label('resource')}${label('subresource') ? `/${label('subresource')}` : ''}`;
    if (!(key in SLO_REQUESTS)) continue;
    const le = label('le') === '+Inf' ? Infinity : Number(label('le'));
    const row = out.get(key) ?? new Map<number, number>();
    row.set(le, (row.get(le) ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1)));
    out.set(key, row);
  }
  return out;
}

/** `into` += `sign` × `h`, bucket by bucket. */
function accumulate(into: Histograms, h: Histograms, sign: 1 | -1): void {
  for (const [key, row] of h) {
    const sum = into.get(key) ?? new Map<number, number>();
    for (const [le, c] of row) sum.set(le, (sum.get(le) ?? 0) + sign * c);
    into.set(key, sum);
  }
}

/**
 * Per request kind: the count and the bucket that holds the 99th percentile, as its upper bound
 * `p99` and the bound `above` it lies above (s; 0 for the first bucket).
 */
export function p99Bounds(h: Histograms): { key: string; count: number; p99: number; above: number }[] {
  return [...h].sort((a, b) => a[0].localeCompare(b[0])).map(([key, row]) => {
    const sorted = [...row].sort((a, b) => a[0] - b[0]);
    const count = sorted.at(-1)?.[1] ?? 0;
    const k = sorted.findIndex(([, c]) => c >= 0.99 * count);
    return { key, count, p99: sorted[k]?.[0] ?? Infinity, above: k > 0 ? sorted[k - 1]![0] : 0 };
  });
}

/** What the probes read over the steady phase. */
export interface ServedTimings {
  /** Server processes told apart (each by what it served). */
  processes: number;
  /** Connections whose reading was left out: the server closed them, or a read failed. */
  skipped: number;
  /** The steady phase's histograms of each metric, summed over the processes. */
  byMetric: Map<string, Histograms>;
  /** The memory of each process told apart, as it reported it once the load's requests were answered. */
  memory: ProcessMemory[];
}

/** One server process's memory (MiB) from prom-client's runtime metrics. */
export interface ProcessMemory {
  /** `process_resident_memory_bytes`. */
  rss: number;
  /** `nodejs_heap_size_used_bytes` and `nodejs_heap_size_total_bytes`: V8's heap, live and garbage alike, and what it has reserved. */
  heapUsed: number;
  heapTotal: number;
  /** `nodejs_external_memory_bytes`: memory outside V8's heap held by JavaScript objects (Buffers). */
  external: number;
}

/** The value (MiB) of the unlabelled gauge `name` in a `/metrics` text; NaN when absent. */
function gaugeMiB(text: string, name: string): number {
  const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
  return m ? Number(m[1]) / 2 ** 20 : NaN;
}

/** A process's memory as its `/metrics` text reports it. */
export function processMemory(text: string): ProcessMemory {
  return {
    rss: gaugeMiB(text, 'process_resident_memory_bytes'),
    heapUsed: gaugeMiB(text, 'nodejs_heap_size_used_bytes'),
    heapTotal: gaugeMiB(text, 'nodejs_heap_size_total_bytes'),
    external: gaugeMiB(text, 'nodejs_external_memory_bytes'),
  };
}

/** Connections to every server process, held open through the steady phase to read its `/metrics` at both ends. */
export class ProcessProbes {
  private constructor(
    private readonly clients: ClusterClient[],
    private readonly start: (string | undefined)[],
    private readonly timer: NodeJS.Timeout,
  ) {}

  /**
   * Opens `connections` connections of their own from `admin` (several per worker, so that every
   * worker holds one), reads each one's `/metrics`, and keeps them open (a request every 20 s,
   * under the server's keep-alive timeout of 65 s).
   */
  static async open(admin: ClusterClient, connections: number): Promise<ProcessProbes> {
    const clients = Array.from({ length: connections }, () => admin.ownConnection());
    const start: (string | undefined)[] = [];
    for (const c of clients) start.push(await metricsText(c));
    const timer = setInterval(() => clients.forEach((c) => void c.call('GET', '/readyz').catch(() => undefined)), 20_000);
    return new ProcessProbes(clients, start, timer);
  }

  /**
   * Asks every connection's process for a CPU profile of `seconds` (`/debug/pprof/profile`), and
   * writes each one received to `dir` as `worker-<k>.cpuprofile`. A process profiles one request
   * at a time: its other connections' requests are refused, and skipped. Resolves with the files
   * written.
   */
  async cpuProfiles(seconds: number, dir: string): Promise<string[]> {
    const written: string[] = [];
    await Promise.all(
      this.clients.map(async (c) => {
        const reply = await c.call('GET', `/debug/pprof/profile?seconds=${seconds}`, undefined, 'application/json', (seconds + 60) * 1000).catch(() => undefined);
        if (reply?.status !== 200 || typeof reply.body !== 'object') return;
        const file = path.join(dir, `worker-${written.length + 1}.cpuprofile`);
        written.push(file);
        await writeFile(file, JSON.stringify(reply.body));
      }),
    );
    return written;
  }

  /**
   * Reads every connection's `/metrics` again, closes them, and sums the differences of `metrics`
   * over the distinct processes. Two connections of one process read the same differences once
   * every request of the load has been answered (the caller waits for that), so a difference seen
   * twice counts once. A connection the
   * server closed meanwhile (a new one may reach another process) is left out.
   */
  async finish(metrics: string[]): Promise<ServedTimings> {
    clearInterval(this.timer);
    const seen = new Set<string>();
    const byMetric = new Map<string, Histograms>(metrics.map((m) => [m, new Map()]));
    const memory: ProcessMemory[] = [];
    let skipped = 0;
    for (let k = 0; k < this.clients.length; k++) {
      const end = await metricsText(this.clients[k]!, true);
      const start = this.start[k];
      this.clients[k]!.close();
      if (end === undefined || start === undefined) {
        skipped++;
        continue;
      }
      const diffs = metrics.map((m) => {
        const d: Histograms = new Map();
        accumulate(d, requestHistograms(end, m), 1);
        accumulate(d, requestHistograms(start, m), -1);
        return d;
      });
      const fingerprint = JSON.stringify(diffs.map((d) => [...d].sort((a, b) => a[0].localeCompare(b[0])).map(([key, row]) => [key, [...row].sort((a, b) => a[0] - b[0])])));
      if (seen.has(fingerprint)) continue;
      seen.add(fingerprint);
      metrics.forEach((m, i) => accumulate(byMetric.get(m)!, diffs[i]!, 1));
      memory.push(processMemory(end));
    }
    return { processes: seen.size, skipped, byMetric, memory };
  }
}

/**
 * One server process's `/metrics` text over `client`'s connection; undefined when the read fails,
 * or when `reused` is asked and the connection is a new one.
 */
export async function metricsText(client: ClusterClient, reused = false): Promise<string | undefined> {
  const reply = await client.call('GET', '/metrics').catch(() => undefined);
  if (!reply || typeof reply.body !== 'string' || (reused && !reply.reusedConnection)) return undefined;
  return reply.body;
}
