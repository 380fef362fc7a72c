/**
 * What the scale benchmark measures (issue #24 item 5): latency per kind of request, the lag from
 * a write's acknowledgement to the moment the kubelet it concerns sees it in its watch, the writes
 * no kubelet ever saw (lost events), and the CPU and memory of the server and etcd over time.
 */
import { cpuSeconds, rssMiB, treeCpuSeconds, treeRssMiB } from '../proc.js';

/** Latencies (ms) and outcomes of one kind of request, in the order they were sent. */
export class VerbStats {
  readonly latencies: number[] = [];
  /** When each request was sent (ms, performance.now), index for index with `latencies`. */
  readonly sentAt: number[] = [];
  errors = 0;
  firstError?: string;

  /** Records one request sent at `at` that took `ms`; `error` says why it failed, if it did. */
  add(at: number, ms: number, error?: string): void {
    this.sentAt.push(at);
    this.latencies.push(ms);
    if (error !== undefined) {
      this.errors++;
      this.firstError ??= error;
    }
  }

  /** The latencies of the requests sent in [from, to) (ms, performance.now). */
  sentBetween(from: number, to: number): number[] {
    return this.latencies.filter((_, k) => this.sentAt[k]! >= from && this.sentAt[k]! < to);
  }
}

/** The p-th percentile (0–100) of `values` (left as they are), 0 when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The largest of `values`, 0 when empty. */
export function maximum(values: readonly number[]): number {
  return values.reduce((a, b) => Math.max(a, b), 0);
}

/** Most events kept as seen before their acknowledgement. */
const EARLY_MAX = 100_000;

/**
 * Writes waiting to be seen by the kubelet of their node: key `<namespace>/<name>@<resourceVersion>`
 * → the time (ms, performance.now) the write was acknowledged. A watch event of that object at
 * that resourceVersion closes it with its lag; what is still open after the drain was lost.
 * A request that changed nothing (a graceful DELETE of a Pod already terminating answers the Pod
 * at the resourceVersion of its earlier write) acknowledges a key seen before: it is counted
 * apart, not opened again.
 */
export class WatchLag {
  private readonly open = new Map<string, number>();
  /**
   * Events that arrived before the acknowledgement of their write (lag 0), oldest first; the
   * oldest is forgotten past {@link EARLY_MAX}. Events no acknowledgement closes (the second
   * write of a Pod deleted with no grace period, say) stay here: a cap that refused new keys
   * instead filled up in an overloaded run, where acknowledgements come seconds after their
   * events, and counted every later write seen early as lost.
   */
  private readonly early = new Set<string>();
  /** Keys already closed by an event and an acknowledgement. */
  private readonly closed = new Set<string>();
  readonly lags: number[] = [];
  /** Acknowledgements of a key already closed: requests that wrote nothing new. */
  repeated = 0;

  private static key(namespace: string, name: string, rv: string): string {
    return `${namespace}/${name}@${rv}`;
  }

  private close(k: string, lag: number): void {
    this.lags.push(lag);
    this.closed.add(k);
  }

  /** A write of `namespace/name` was acknowledged with `rv`, and its node's kubelet must see it. */
  acknowledged(namespace: string, name: string, rv: string, at: number): void {
    const k = WatchLag.key(namespace, name, rv);
    if (this.closed.has(k) || this.open.has(k)) this.repeated++;
    else if (this.early.delete(k)) this.close(k, 0);
    else this.open.set(k, at);
  }

  /** A kubelet saw `namespace/name` at `rv`. */
  seen(namespace: string, name: string, rv: string, at: number): void {
    const k = WatchLag.key(namespace, name, rv);
    const acked = this.open.get(k);
    if (acked === undefined) {
      if (this.closed.has(k)) return;
      if (this.early.size >= EARLY_MAX) this.early.delete(this.early.values().next().value!);
      this.early.add(k);
      return;
    }
    this.open.delete(k);
    this.close(k, at - acked);
  }

  /** Acknowledged writes not seen yet. */
  get pending(): number {
    return this.open.size;
  }

  /** Up to `n` keys (`<namespace>/<name>@<resourceVersion>`) of the writes not seen yet. */
  pendingKeys(n: number): string[] {
    return [...this.open.keys()].slice(0, n);
  }
}

/** One sample of the processes' resources. */
export interface ResourceSample {
  /** Seconds since the steady phase began. */
  t: number;
  /** When the sample was taken (ms, performance.now). */
  at: number;
  /** CPU cores used since the previous sample. */
  serverCores: number;
  serverRssMiB: number;
  etcdCores: number;
  etcdRssMiB: number;
  generatorCores: number;
}

/**
 * Samples the CPU and RSS of the server (its process tree: a `--workers` primary and its
 * workers), of etcd and of this process every `everyMs` until stopped.
 */
export class ResourceSampler {
  readonly samples: ResourceSample[] = [];
  private timer?: NodeJS.Timeout;
  private last = { at: 0, server: 0, etcd: 0, self: 0 };
  private t0 = 0;

  constructor(
    private readonly serverPid: number | undefined,
    private readonly etcdPid: number | undefined,
  ) {}

  private read() {
    const alive = (pid: number | undefined, f: (p: number) => number) => {
      try {
        return pid === undefined ? 0 : f(pid);
      } catch {
        return 0;
      }
    };
    const usage = process.cpuUsage();
    return {
      at: performance.now(),
      server: alive(this.serverPid, treeCpuSeconds),
      etcd: alive(this.etcdPid, cpuSeconds),
      self: (usage.user + usage.system) / 1e6,
      serverRss: alive(this.serverPid, treeRssMiB),
      etcdRss: alive(this.etcdPid, rssMiB),
    };
  }

  /** Starts sampling. */
  start(everyMs: number): void {
    const first = this.read();
    this.t0 = first.at;
    this.last = first;
    this.timer = setInterval(() => {
      const now = this.read();
      const dt = (now.at - this.last.at) / 1000;
      this.samples.push({
        t: (now.at - this.t0) / 1000,
        at: now.at,
        serverCores: (now.server - this.last.server) / dt,
        serverRssMiB: now.serverRss,
        etcdCores: (now.etcd - this.last.etcd) / dt,
        etcdRssMiB: now.etcdRss,
        generatorCores: (now.self - this.last.self) / dt,
      });
      this.last = now;
    }, everyMs);
  }

  /** Stops sampling. */
  stop(): void {
    clearInterval(this.timer);
  }
}
