/**
 * Start-up benchmark (issue #12 quality bar: ready in ≤ 1 s with etcd up, idle RSS ≤ 100 MB, with
 * every kind served). The built server (`dist/`, as `make run` starts it; `--dist DIR` measures
 * another build, e.g. an older worktree's, for a before/after table) is started against an etcd
 * that is already up (the test framework's), with its PKI made beforehand so key generation is
 * not counted: time from spawn to the first `/readyz` 200, resources served in discovery, and RSS
 * after some idle seconds. The first start writes the start-time objects (default RBAC policy,
 * system objects) into an empty key prefix; later starts find them. Medians over the runs.
 *
 * A second table measures `make run` itself (issue #22 § Ready in under a second): no
 * `--etcd-servers`, so the command starts its managed etcd under the data directory, with the data
 * and the PKI present from a first start; with `--workers=1` and with the default worker count
 * (the RSS is then the primary's plus its workers', etcd apart).
 *
 * Figures are printed, never asserted. Run: `npx tsx hack/bench/startup.ts [--dist DIR]`.
 * Knobs: BENCH_STARTUP_RUNS (restarts measured, default 5), BENCH_STARTUP_IDLE_SECONDS (45: V8's
 * memory reducer has shrunk the young generation grown during start-up by then; at 20 s it often
 * has not, and the RSS reads ~30 MiB higher).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parse } from 'yaml';
import { TestClient } from '../../test/framework/client.js';
import { useEtcd } from '../../test/framework/etcd.js';
import { treeRssMiB } from './proc.js';
import { printTable } from './stats.js';

const RUNS = Math.max(1, Number(process.env.BENCH_STARTUP_RUNS ?? 5));
const IDLE_SECONDS = Math.max(0, Number(process.env.BENCH_STARTUP_IDLE_SECONDS ?? 45));
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

function distArg(): string {
  const i = process.argv.indexOf('--dist');
  return path.resolve(i > 0 ? process.argv[i + 1]! : path.join(ROOT, 'dist'));
}

/** One start: ms to ready, resources in discovery, idle RSS in MiB. */
interface StartFigures {
  readyMs: number;
  resources: number;
  rssMiB: number;
}

async function startOnce(entry: string, args: string[], dataDir: string): Promise<StartFigures> {
  const started = performance.now();
  const child = spawn(process.execPath, [entry, ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const kubeconfig = path.join(dataDir, 'admin.kubeconfig');
    let admin: TestClient | undefined;
    while (child.exitCode === null && performance.now() - started < 60_000) {
      if (!admin && existsSync(kubeconfig) && stderr.includes('wrote admin kubeconfig')) {
        const cfg = parse(await readFile(kubeconfig, 'utf8'));
        const b64 = (s: string) => Buffer.from(s, 'base64').toString('utf8');
        const user = cfg.users[0].user;
        admin = new TestClient(cfg.clusters[0].cluster.server, b64(cfg.clusters[0].cluster['certificate-authority-data']), {
          cert: b64(user['client-certificate-data']),
          key: b64(user['client-key-data']),
        });
      }
      if (admin && (await admin.get('/readyz').catch(() => undefined))?.status === 200) break;
      await sleep(10);
    }
    const readyMs = performance.now() - started;
    if (!admin || child.exitCode !== null) throw new Error(`server did not become ready:\n${stderr}`);
    let resources = 0;
    const groups = (await admin.get('/apis')).body as { groups: { preferredVersion: { groupVersion: string } }[] };
    for (const gv of ['/api/v1', ...groups.groups.map((g) => `/apis/${g.preferredVersion.groupVersion}`)]) {
      const list = (await admin.get(gv)).body as { resources: { name: string }[] };
      resources += list.resources.filter((r) => !r.name.includes('/')).length;
    }
    await sleep(IDLE_SECONDS * 1000);
    return { readyMs, resources, rssMiB: treeRssMiB(child.pid!) };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const dist = distArg();
  // The bundle `make build` writes, or (an older build) the command module tsc emits.
  const bundle = path.join(dist, 'orch-apiserver.mjs');
  const entry = existsSync(bundle) ? bundle : path.join(dist, 'lib/cmd/orch-apiserver.js');
  if (!existsSync(entry)) throw new Error(`${entry} does not exist: build first (make build / npx tsc -p tsconfig.json)`);
  const { endpoint } = await useEtcd();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'orch-bench-startup-'));
  const prefix = `/bench-startup-${process.pid}-${Date.now()}`;
  // One process (`--workers=1`): the RSS of one replica; N workers cost about the primary plus N of these (README § Workers).
  const args = [`--data-dir=${dataDir}`, '--secure-port=0', `--etcd-servers=${endpoint}`, `--etcd-prefix=${prefix}`, '--workers=1'];
  try {
    // A throwaway start under another prefix creates the PKI and the kubeconfig.
    await startOnce(entry, [...args.slice(0, 3), `--etcd-prefix=${prefix}-pki`], dataDir);
    const first = await startOnce(entry, args, dataDir);
    const restarts: StartFigures[] = [];
    for (let i = 0; i < RUNS; i++) restarts.push(await startOnce(entry, args, dataDir));
    console.log(`\nStart-up of ${dist} (etcd up, PKI made)`);
    printTable(
      ['start', 'runs', 'ready ms', 'resources served', `RSS MiB after ${IDLE_SECONDS} s idle`],
      [
        ['first (empty key prefix)', 1, first.readyMs.toFixed(0), first.resources, first.rssMiB.toFixed(0)],
        ['restart (objects present), median', RUNS, median(restarts.map((r) => r.readyMs)).toFixed(0), restarts[0]!.resources, median(restarts.map((r) => r.rssMiB)).toFixed(0)],
      ],
    );
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  await measureMakeRun(entry, dist);
}

/** `make run`'s start: the managed etcd, data and PKI present, one worker and the default count. */
async function measureMakeRun(entry: string, dist: string): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'orch-bench-make-run-'));
  try {
    const base = [`--data-dir=${dataDir}`, '--secure-port=0'];
    await startOnce(entry, base, dataDir); // creates the PKI, the etcd data and the start-time objects
    const rows: (string | number)[][] = [];
    for (const [label, args] of [['--workers=1', [...base, '--workers=1']], ['default --workers', base]] as const) {
      const runs: StartFigures[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await startOnce(entry, [...args], dataDir));
      rows.push([label, RUNS, median(runs.map((r) => r.readyMs)).toFixed(0), median(runs.map((r) => r.rssMiB)).toFixed(0)]);
    }
    console.log(`\nmake run of ${dist} (managed etcd; its data and the PKI present)`);
    printTable(['processes', 'runs', 'ready ms (median)', `RSS MiB of the server processes after ${IDLE_SECONDS} s idle (median)`], rows);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
