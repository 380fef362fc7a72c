/**
 * Resource figures of another process from /proc (Linux): resident memory and CPU time.
 */
import { readFileSync } from 'node:fs';

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
