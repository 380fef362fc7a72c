/**
 * One server process vs N workers (issue #17 item 4): the same build started with `--workers=1`
 * and `--workers=N` on one etcd, in interleaved rounds, each driven by bench-compare's `run.mjs`
 * (../shared/bench-compare; by default its create and update phases).
 *
 * What it measures, per phase and variant: successful requests per second (run.mjs's figure) and
 * the server's CPU seconds over the phase summed over EVERY server process — the primary and its
 * workers, found in /proc by parent pid (run.mjs's `--pid` follows one process) — sampled when
 * run.mjs announces the phase (`-- <phase> …`) and when it prints the phase's result line; then
 * CPU ms per successful request. etcd's CPU seconds are taken likewise. Setup phases are skipped.
 * Speed-ups are only meaningful within one run: the cores are shared with whatever else runs.
 *
 * Usage: npx tsx hack/bench/workers.ts [--dir CHECKOUT (default: this repo; needs dist/ built)]
 *   [--workers 2] [--rounds 2] [--duration 5] [--phases create,update] [--bench-dir ../shared/bench-compare]
 * Everything it starts (etcd, servers, run.mjs) is stopped and its temporary directory removed at
 * the end, on failure and on Ctrl-C.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { values: opt } = parseArgs({
  options: {
    dir: { type: 'string', default: ROOT },
    workers: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '2' },
    duration: { type: 'string', default: '5' },
    phases: { type: 'string', default: 'create,update' },
    'bench-dir': { type: 'string', default: path.resolve(ROOT, '../shared/bench-compare') },
  },
});
const ENTRY = path.join(opt.dir!, 'dist/lib/cmd/orch-apiserver.js');
const RUN_MJS = path.join(opt['bench-dir']!, 'run.mjs');
const CLK_TCK = 100;

const children = new Set<ChildProcess>();
const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-workers-'));
process.on('exit', () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(tmp, { recursive: true, force: true });
});
for (const s of ['SIGINT', 'SIGTERM'] as const) process.on(s, () => process.exit(130));

function track(c: ChildProcess): ChildProcess {
  children.add(c);
  c.once('exit', () => children.delete(c));
  return c;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const log = (msg: string) => process.stderr.write(`[workers] ${msg}\n`);

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as net.AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

/** user+system CPU seconds of `pid` (0 when it is gone). */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / CLK_TCK;
  } catch {
    return 0;
  }
}

/** `pid` and its child processes whose command line contains `marker` (the server's workers). */
function serverPids(pid: number, marker: string): number[] {
  const out = [pid];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== pid) continue;
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(marker)) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

function status(url: string, token: string): Promise<number> {
  return new Promise((resolve) => {
    const req = https.request(url, { rejectUnauthorized: false, agent: false, timeout: 2000, headers: { Authorization: `Bearer ${token}` } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
    req.end();
  });
}

/** Ready when 10 consecutive `/readyz` on new connections answer 200 (every worker answers some). */
async function waitReady(url: string, token: string, proc: ChildProcess): Promise<void> {
  const deadline = Date.now() + 180_000;
  let streak = 0;
  while (streak < 10) {
    if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`server at ${url} did not become ready`);
    streak = (await status(`${url}/readyz`, token)) === 200 ? streak + 1 : 0;
    if (streak === 0) await sleep(200);
  }
}

function exec(cmd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { env: { ...process.env, ETCDCTL_API: '3' }, maxBuffer: 64 << 20 }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
  });
}

async function startEtcd(): Promise<{ url: string; pid: number }> {
  const [client, peer] = [await freePort(), await freePort()];
  const url = `http://127.0.0.1:${client}`;
  const peerURL = `http://127.0.0.1:${peer}`;
  const proc = track(spawn('etcd', ['--name=bench', `--data-dir=${path.join(tmp, 'etcd')}`, `--listen-client-urls=${url}`, `--advertise-client-urls=${url}`,
    `--listen-peer-urls=${peerURL}`, `--initial-advertise-peer-urls=${peerURL}`, `--initial-cluster=bench=${peerURL}`, '--quota-backend-bytes=8589934592', '--log-level=warn'],
  { stdio: 'ignore' }));
  for (let i = 0; i < 150; i++) {
    if (await exec('etcdctl', [`--endpoints=${url}`, 'endpoint', 'health']).then(() => true, () => false)) return { url, pid: proc.pid! };
    await sleep(200);
  }
  throw new Error('etcd did not become healthy');
}

/** One measured phase of one run. */
interface Figure {
  phase: string;
  workers: number;
  round: number;
  rps: number;
  ok: number;
  serverCpuS: number;
  etcdCpuS: number;
  /** Cores busy with other processes of the machine over the phase (neighbours' load). */
  otherCores: number;
}

/** Starts the server with `--workers=<workers>`, drives it with run.mjs, stops it and deletes its keys. */
async function measure(workers: number, round: number, etcd: { url: string; pid: number }, token: string, tokens: string): Promise<Figure[]> {
  const port = await freePort();
  const prefix = `/bench-workers-${workers}-${round}`;
  const dataDir = path.join(tmp, `w${workers}-r${round}`);
  const server = track(spawn(process.execPath, [ENTRY, `--etcd-servers=${etcd.url}`, `--etcd-prefix=${prefix}`, `--secure-port=${port}`, '--bind-address=127.0.0.1',
    `--token-auth-file=${tokens}`, `--data-dir=${dataDir}`, `--workers=${workers}`], { stdio: 'ignore' }));
  const url = `https://127.0.0.1:${port}`;
  try {
    await waitReady(url, token, server);
    const pids = serverPids(server.pid!, ENTRY);
    log(`round ${round}: --workers=${workers} serving (pids ${pids.join(', ')})`);
    const cpu = () => serverPids(server.pid!, ENTRY).reduce((s, p) => s + cpuSeconds(p), 0);
    const out = path.join(tmp, `w${workers}-r${round}.json`);
    const runner = track(spawn(process.execPath, [RUN_MJS, '--server', url, '--token', token, '--insecure', '--etcd-pid', String(etcd.pid), '--phases', opt.phases!, '--duration', opt.duration!, '--out', out],
      { cwd: opt['bench-dir'], stdio: ['ignore', 'ignore', 'pipe'] }));
    const cpuByPhase = new Map<string, { server: number; etcd: number }>();
    let open: { phase: string; server: number; etcd: number } | undefined;
    createInterface({ input: runner.stderr! }).on('line', (line) => {
      const start = /^-- (\S+) …$/.exec(line);
      if (start) open = { phase: start[1]!, server: cpu(), etcd: cpuSeconds(etcd.pid) };
      else if (open && /req\/s/.test(line)) {
        cpuByPhase.set(open.phase, { server: cpu() - open.server, etcd: cpuSeconds(etcd.pid) - open.etcd });
        open = undefined;
      }
    });
    const code = await new Promise<number | null>((resolve) => runner.once('exit', resolve));
    if (code !== 0) throw new Error(`run.mjs exited ${code}`);
    type Phase = { phase: string; setup?: boolean; ok?: number; rps?: number; resources?: { wallS?: number; machine?: { otherCores?: number } } };
    const results = JSON.parse(readFileSync(out, 'utf8')) as { phases: Phase[] };
    return results.phases.filter((p) => !p.setup && cpuByPhase.has(p.phase)).map((p) => {
      const { server: serverCpuS, etcd: etcdCpuS } = cpuByPhase.get(p.phase)!;
      // run.mjs counts the server among the other processes (it was given no --pid): take it out.
      const wallS = p.resources?.wallS ?? 0;
      const otherCores = wallS > 0 ? Math.max(0, (p.resources?.machine?.otherCores ?? 0) - serverCpuS / wallS) : 0;
      return { phase: p.phase, workers, round, rps: p.rps ?? 0, ok: p.ok ?? 0, serverCpuS, etcdCpuS, otherCores };
    });
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => (server.exitCode === null ? server.once('exit', r) : r(null)));
    await exec('etcdctl', [`--endpoints=${etcd.url}`, 'del', '--prefix', `${prefix}/`]);
  }
}

async function main(): Promise<void> {
  if (!existsSync(ENTRY)) throw new Error(`no ${ENTRY}: build first (npx tsc -p tsconfig.json)`);
  if (!existsSync(RUN_MJS)) throw new Error(`no ${RUN_MJS} (--bench-dir)`);
  const n = Number(opt.workers);
  const token = randomBytes(24).toString('hex');
  const tokens = path.join(tmp, 'tokens.csv');
  writeFileSync(tokens, `${token},bench-admin,bench-admin-uid,"system:masters"\n`, { mode: 0o600 });
  const etcd = await startEtcd();
  const figures: Figure[] = [];
  for (let round = 1; round <= Number(opt.rounds); round++) {
    // Interleaved: the variant that goes first alternates between rounds.
    for (const w of round % 2 === 1 ? [1, n] : [n, 1]) figures.push(...(await measure(w, round, etcd, token, tokens)));
  }
  const f = (x: number, d: number) => x.toFixed(d);
  const lines = [
    `| phase | workers | round | req/s | server CPU s (all processes) | server cores busy | CPU ms/request | etcd CPU s | other processes' cores |`,
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const x of figures.sort((a, b) => a.phase.localeCompare(b.phase) || a.workers - b.workers || a.round - b.round)) {
    const wall = x.rps > 0 ? x.ok / x.rps : 0;
    lines.push(`| ${x.phase} | ${x.workers} | ${x.round} | ${f(x.rps, 0)} | ${f(x.serverCpuS, 2)} | ${wall > 0 ? f(x.serverCpuS / wall, 2) : '-'} | ${x.ok ? f((x.serverCpuS * 1000) / x.ok, 3) : '-'} | ${f(x.etcdCpuS, 2)} | ${f(x.otherCores, 2)} |`);
  }
  lines.push('', `| phase | mean req/s, 1 worker | mean req/s, ${n} workers | ${n} ÷ 1 |`, '|---|--:|--:|--:|');
  for (const phase of [...new Set(figures.map((x) => x.phase))]) {
    const mean = (w: number) => {
      const xs = figures.filter((x) => x.phase === phase && x.workers === w).map((x) => x.rps);
      return xs.reduce((s, v) => s + v, 0) / xs.length;
    };
    lines.push(`| ${phase} | ${f(mean(1), 0)} | ${f(mean(n), 0)} | ${f(mean(n) / mean(1), 2)} |`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    log(`failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
