/**
 * `--workers` of the Generic section (issue #17 item 4): how many server processes serve the
 * secure port. Each worker is a full API server over the same etcd, as an HA replica is; the
 * primary process owns the listening socket (node:cluster, round-robin), the managed etcd, the
 * generated PKI and the admin kubeconfig (lib/server/workers/). Upstream has no such flag: it
 * uses every core from one process.
 *
 * The default (0) is the number of CPUs the process may use, at most {@link MAX_DEFAULT_WORKERS}:
 * every worker keeps its own watch cache of every resource and its own etcd watch per resource,
 * so memory and etcd watch load grow with the count, while writes are bounded by the one etcd
 * leader; past 8 workers a control-plane machine gains little and pays a watch cache each.
 */
import os from 'node:os';
import type { FlagSpec } from './flag-table.js';
import { parseGoInt } from './flag-values.js';

/** The largest worker count the default picks (an explicit `--workers` may exceed it). */
export const MAX_DEFAULT_WORKERS = 8;

/**
 * The number of worker processes `--workers=<flag>` asks for: the flag when positive, else
 * `min(cpus, MAX_DEFAULT_WORKERS)` (1 on a 1-CPU machine). `cpus` defaults to
 * `os.availableParallelism()` (the CPUs this process may run on).
 */
export function workerCount(flag: number, cpus: number = os.availableParallelism()): number {
  if (flag > 0) return flag;
  return Math.max(1, Math.min(cpus, MAX_DEFAULT_WORKERS));
}

/** The validation message of a negative count (`--workers can not be negative value`). */
export function validateWorkers(flag: number): string[] {
  return flag < 0 ? ['--workers can not be negative value'] : [];
}

/** `--workers`. */
export const WORKERS_FLAGS: readonly FlagSpec[] = [
  {
    name: 'workers',
    section: 'Generic',
    valueType: 'int',
    defaultText: '0',
    usage:
      `Number of server processes behind the secure port, each a full API server over the same etcd (like replicas). ` +
      `0 picks the number of CPUs, at most ${MAX_DEFAULT_WORKERS}. 1 serves from this process alone.`,
    apply: (d, v) => (d.workers = parseGoInt(v, 32)),
  },
];
