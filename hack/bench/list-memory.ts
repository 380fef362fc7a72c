/**
 * Memory of large lists (issue #17 item 5), old code vs new: runs compare-rounds.ts with the Pod
 * phases only (10,000 Pods listed whole, with resourceVersion=0, and in pages of 500, each server
 * fresh, interleaved rounds on one etcd), then prints for every round and variant the server's RSS
 * high-water mark (VmHWM: the most the process ever held, so the figure after the last Pod phase
 * covers them all, the creates included), its RSS before and after each Pod phase, and the
 * phase's p50 latency (ms; for the chunked phase, all pages). Target: high-water mark ≤ 600 MB.
 *
 * Usage: npx tsx hack/bench/list-memory.ts --old DIR --new DIR [--rounds 2] [--duration 5]
 *   [--pods 10000] [--out OUT]       (each DIR a checkout with dist/ built, as compare-rounds wants)
 *        npx tsx hack/bench/list-memory.ts --from OUT   (the table of an earlier run's OUT only)
 * Not part of `make bench` (it needs two builds): hack/bench/run.sh skips it.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { printTable } from './stats.js';

/** The part of a run.mjs result this reads. */
interface RunJson {
  phases: {
    phase: string;
    latencyMs?: { p50?: number };
    resources?: { server?: { rssBeforeMB?: number; rssAfterMB?: number; hwmMB?: number } };
  }[];
}

const POD_PHASES = ['pods-create-c32', 'pods-list', 'pods-list-rv0', 'pods-list-chunked500'];

const mb = (x: number | undefined): string => (x === undefined ? '–' : x.toFixed(0));

const USAGE = 'usage: npx tsx hack/bench/list-memory.ts (--old DIR --new DIR [--rounds 2] [--duration 5] [--pods 10000] [--out OUT] | --from OUT)\n';

/** Runs compare-rounds with the Pod phases into `out`; false when it failed (its table still says how far it got). */
function compareRounds(o: { old: string; new: string; rounds: string; duration: string; pods: string; out: string }): boolean {
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'compare-rounds.ts');
  const args = ['tsx', script, '--old', o.old, '--new', o.new, '--rounds', o.rounds, '--duration', o.duration, '--phases', 'pods', '--pods', o.pods, '--out', o.out];
  return spawnSync('npx', args, { stdio: 'inherit' }).status === 0;
}

function table(dir: string): void {
  const files = readdirSync(dir).filter((f) => /^(old|new|yardstick)-r\d+\.json$/.test(f)).sort((a, b) => Number(a.match(/\d+/)![0]) - Number(b.match(/\d+/)![0]) || a.localeCompare(b));
  const rows: (string | number)[][] = [];
  for (const f of files) {
    const run = JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as RunJson;
    const [variant, round] = f.replace('.json', '').split('-r');
    for (const name of POD_PHASES) {
      const p = run.phases.find((x) => x.phase === name);
      if (!p) continue;
      const s = p.resources?.server;
      rows.push([`${variant} r${round}`, name, p.latencyMs?.p50 === undefined ? '–' : p.latencyMs.p50.toFixed(0), mb(s?.rssBeforeMB), mb(s?.rssAfterMB), mb(s?.hwmMB)]);
    }
  }
  printTable(['run', 'phase', 'p50 ms', 'RSS before MB', 'RSS after MB', 'RSS high-water MB'], rows);
}

function main(): void {
  const { values: v } = parseArgs({
    strict: true,
    options: {
      old: { type: 'string' },
      new: { type: 'string' },
      rounds: { type: 'string', default: '2' },
      duration: { type: 'string', default: '5' },
      pods: { type: 'string', default: '10000' },
      out: { type: 'string' },
      from: { type: 'string' },
    },
  });
  if (v.from) {
    table(v.from);
    return;
  }
  if (!v.old || !v.new) {
    process.stderr.write(USAGE);
    process.exitCode = 2;
    return;
  }
  const out = v.out ?? path.join(os.tmpdir(), `list-memory-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  const ok = compareRounds({ old: v.old, new: v.new, rounds: v.rounds, duration: v.duration, pods: v.pods, out });
  console.log(`\n# RSS and list latency of the Pod phases (${out})`);
  table(out);
  if (!ok) process.exitCode = 1;
}

main();
