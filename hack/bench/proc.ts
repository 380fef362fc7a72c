/**
 * Resource figures of another process from /proc (Linux): resident memory and CPU time; and the
 * used heap of this process after a full garbage collection.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** V8's `gc()`, exposed at its first use (no `--expose-gc` on the command line needed). */
let gc: (() => void) | undefined;

/** Bytes of this process's V8 heap in use after two full garbage collections. */
export function usedHeapBytes(): number {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Resident set size of `pid` in MiB. */
export function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

/** User + system CPU seconds consumed by `pid` so far. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** `pid` and its descendant processes running `command`, found through /proc by parent pid. */
function processTree(pid: number, command: string): number[] {
  const children = new Map<number, { pid: number; comm: string }[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), { pid: Number(entry), comm }]);
    } catch {
      // the process exited while /proc was read
    }
  }
  const walk = (p: number): number[] => [p, ...(children.get(p) ?? []).filter((c) => c.comm === command).flatMap((c) => walk(c.pid))];
  return walk(pid);
}

/**
 * Resident set size in MiB of `pid` and of its descendant processes running `command` (e.g. the
 * workers a `--workers=N` primary forks, but not the etcd it manages).
 */
export function treeRssMiB(pid: number, command = 'node'): number {
  return processTree(pid, command).reduce((sum, p) => sum + orZero(rssMiB, p), 0);
}

/** User + system CPU seconds of `pid` and of its descendant processes running `command`, as {@link treeRssMiB}. */
export function treeCpuSeconds(pid: number, command = 'node'): number {
  return processTree(pid, command).reduce((sum, p) => sum + orZero(cpuSeconds, p), 0);
}

/** `read(pid)`, or 0 for a process that exited meanwhile. */
function orZero(read: (pid: number) => number, pid: number): number {
  try {
    return read(pid);
  } catch {
    return 0;
  }
}
