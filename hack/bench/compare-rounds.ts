/**
 * Old code vs new code, each measured against the yardstick in interleaved rounds on one etcd
 * (the performance issue's comparison rule; the harness is ../shared/bench-compare, see its README).
 *
 * What it measures: one etcd (the `etcd` on PATH, free loopback ports, temporary data dir) serves
 * every run. For each round r = 1..R it starts the OLD checkout's server, the NEW checkout's
 * server (these two swap places every other round) and the yardstick (`yardstick.mjs`, the thinnest server that still does an API
 * server's per-request work), drives each with bench-compare's `run.mjs`, stops it and deletes its
 * etcd keys (then compacts etcd) so that every run sees the same etcd. Per phase it takes:
 *   - CPU ms per successful request: the server process's CPU seconds over the phase ÷ its
 *     successful requests (`resources.server.cpuS` ÷ `ok`);
 *   - for `pods-list-chunked500`: the p50 latency (ms) of listing all pods in pages of 500;
 *   - for the watch phases: the delivery p99 (ms from the writer's 200 to the watcher) and the
 *     writer's PUT p99 (ms) under fan-out.
 * and divides each round's old and new figure by the yardstick's figure of the same round (a ratio
 * is far steadier than a raw figure: machines of the same kind differ several-fold). The yardstick
 * serves no watch endpoint, so it skips the watch phases and those rows compare the raw old and
 * new figures of the same rounds instead. Setup phases (bulk creates) are not compared.
 *
 * The rule (verdict column): a phase is OK when the new code's mean ratio does not exceed the old
 * code's, and its best round is not worse than the old code's worst round; otherwise WORSE (n/a
 * when a round has no figure). The "improved" column applies the README's stricter test for
 * calling a change an improvement: the new code's worst round beats the old code's best round.
 *
 * Usage (each DIR a checkout of this repo with `dist/` built and node_modules present):
 *   npx tsx hack/bench/compare-rounds.ts --old DIR --new DIR [--rounds 3] [--duration 5]
 *     [--phases create,get,update,list,pods,watch,delete] [--pods N] [--watchers 200,1000] [--out DIR]
 *     [--bench-dir ../shared/bench-compare] [--run-timeout 1500]
 * Raw results (`<variant>-r<r>.json`), run.mjs and server logs and `summary.json` go to --out
 * (default: a new directory under the system temp dir). Everything else it starts or creates is
 * stopped and removed at the end, on failure and on Ctrl-C. Not part of `make bench` (it needs
 * two builds): hack/bench/run.sh skips it.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, type WriteStream } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ALL_PHASES = ['create', 'get', 'update', 'list', 'pods', 'watch', 'delete'];
/** bench-compare beside the repository (`../shared/bench-compare`). */
const DEFAULT_BENCH_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/bench-compare');
const VARIANTS = ['old', 'new', 'yardstick'] as const;
type Variant = (typeof VARIANTS)[number];

interface Options {
  oldDir: string;
  newDir: string;
  rounds: number;
  duration: number;
  phases: string[];
  pods?: string;
  watchers?: string;
  out: string;
  benchDir: string;
  runTimeoutS: number;
}

const USAGE = `usage: npx tsx hack/bench/compare-rounds.ts --old DIR --new DIR [--rounds 3] [--duration 5]
  [--phases ${ALL_PHASES.join(',')}] [--pods N] [--watchers 200,1000] [--out DIR]
  [--bench-dir ../shared/bench-compare] [--run-timeout SECONDS (per run.mjs run, default 1500)]`;

class UsageError extends Error {}

function parseOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      old: { type: 'string' },
      new: { type: 'string' },
      rounds: { type: 'string', default: '3' },
      duration: { type: 'string', default: '5' },
      phases: { type: 'string', default: ALL_PHASES.join(',') },
      pods: { type: 'string' },
      watchers: { type: 'string' },
      out: { type: 'string' },
      'bench-dir': { type: 'string', default: DEFAULT_BENCH_DIR },
      'run-timeout': { type: 'string', default: '1500' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  if (!values.old || !values.new) throw new UsageError('--old and --new are required');
  const positive = (name: string, v: string, integer: boolean): number => {
    const n = Number(v);
    if (!(n > 0) || (integer && !Number.isInteger(n))) throw new UsageError(`--${name} must be a positive ${integer ? 'integer' : 'number'}, got ${v}`);
    return n;
  };
  const phases = values.phases.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = phases.filter((p) => !ALL_PHASES.includes(p));
  if (unknown.length || !phases.length) throw new UsageError(`--phases: unknown ${unknown.join(',') || '(empty)'}; known: ${ALL_PHASES.join(',')}`);
  if (values.pods !== undefined) positive('pods', values.pods, true);
  if (values.watchers !== undefined && !/^\d+(,\d+)*$/.test(values.watchers)) throw new UsageError(`--watchers must be a comma-separated list of counts, got ${values.watchers}`);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return {
    oldDir: path.resolve(values.old),
    newDir: path.resolve(values.new),
    rounds: positive('rounds', values.rounds, true),
    duration: positive('duration', values.duration, false),
    phases,
    pods: values.pods,
    watchers: values.watchers,
    out: path.resolve(values.out ?? path.join(os.tmpdir(), `compare-rounds-${stamp}`)),
    benchDir: path.resolve(values['bench-dir']),
    runTimeoutS: positive('run-timeout', values['run-timeout'], false),
  };
}

// ---------- child processes: every one is tracked and killed on the way out ----------

const children = new Set<ChildProcess>();
let interrupted = false;
let tmpRoot: string | undefined;

function track(c: ChildProcess): ChildProcess {
  children.add(c);
  c.once('exit', () => children.delete(c));
  return c;
}

const running = (c: ChildProcess): boolean => c.exitCode === null && c.signalCode === null;

/** Resolves with the exit code (or signal) once `c` exits; SIGKILLs it after `ms`. */
function waitExit(c: ChildProcess, ms: number): Promise<number | string> {
  if (!running(c)) return Promise.resolve(c.exitCode ?? c.signalCode ?? 'exited');
  return new Promise((resolve) => {
    const t = setTimeout(() => c.kill('SIGKILL'), ms);
    c.once('exit', (code, signal) => {
      clearTimeout(t);
      resolve(code ?? signal ?? 'exited');
    });
  });
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves when it has exited. */
async function stopChild(c: ChildProcess | undefined, graceMs = 30_000): Promise<void> {
  if (!c || !running(c)) return;
  c.kill('SIGTERM');
  await waitExit(c, graceMs);
}

function killAllNow(): void {
  for (const c of children) if (running(c)) c.kill('SIGKILL');
}

function onSignal(signal: NodeJS.Signals): void {
  if (interrupted) {
    log(`second ${signal}: killing everything`);
    killAllNow();
    process.exit(130);
  }
  interrupted = true;
  log(`${signal}: stopping the runs and cleaning up (again to force)`);
  for (const c of children) if (running(c)) c.kill('SIGTERM');
  setTimeout(() => {
    log('cleanup took over 30 s: killing everything');
    killAllNow();
    process.exit(130);
  }, 30_000).unref();
}

process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);
process.on('exit', () => {
  killAllNow();
  if (tmpRoot) rmSync(tmpRoot, { recursive: true, force: true });
});

function log(msg: string): void {
  process.stderr.write(`[compare-rounds] ${msg}\n`);
}

function checkInterrupted(): void {
  if (interrupted) throw new Error('interrupted');
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** `n` distinct free loopback ports (listen on 0, read, close). */
async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: n }, () => new Promise<net.Server>((resolve, reject) => {
      const s = net.createServer();
      s.once('error', reject);
      s.listen(0, '127.0.0.1', () => resolve(s));
    })),
  );
  const ports = servers.map((s) => (s.address() as net.AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}

/** Runs a short command; rejects with its stderr on failure or after `timeoutMs`. */
function run(cmd: string, args: string[], timeoutMs = 120_000, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise((resolve, reject) => {
    track(execFile(cmd, args, { timeout: timeoutMs, killSignal: 'SIGKILL', env, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.join(' ')}: ${err.message} ${stderr}`.trim()));
      else resolve(stdout);
    }));
  });
}

/** Status code of a GET (HTTPS without verification when `tls`), or 0 when it fails. */
function probe(url: string, token?: string): Promise<number> {
  return new Promise((resolve) => {
    const u = new URL(url);
    const mod = u.protocol === 'https:' ? https : http;
    const req = mod.request(u, { method: 'GET', rejectUnauthorized: false, timeout: 2000, headers: token ? { Authorization: `Bearer ${token}` } : {} }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
    req.end();
  });
}

/** Polls `url` until it answers 200; fails when `proc` exits first or after `timeoutMs`. */
async function waitReady(url: string, proc: ChildProcess, what: string, logFile: string, timeoutMs: number, token?: string): Promise<void> {
  const t0 = Date.now();
  while (Date.now() - t0 < timeoutMs) {
    checkInterrupted();
    if (!running(proc)) throw new Error(`${what} exited (${proc.exitCode ?? proc.signalCode}) before it was ready; log ${logFile}:\n${tail(logFile)}`);
    if ((await probe(url, token)) === 200) return;
    await sleep(200);
  }
  throw new Error(`${what} not ready at ${url} after ${timeoutMs / 1000} s; log ${logFile}:\n${tail(logFile)}`);
}

function tail(file: string, lines = 15): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

function openLog(file: string): Promise<WriteStream> {
  return new Promise((resolve, reject) => {
    const s = createWriteStream(file, { flags: 'a' });
    s.once('open', () => resolve(s));
    s.once('error', reject);
  });
}

const closeLog = (s: WriteStream) => new Promise<void>((r) => s.end(r));

// ---------- etcd ----------

interface Etcd {
  proc: ChildProcess;
  url: string;
}

async function startEtcd(dir: string, logDir: string): Promise<Etcd> {
  const [client, peer] = await freePorts(2);
  const url = `http://127.0.0.1:${client}`;
  const peerUrl = `http://127.0.0.1:${peer}`;
  const logFile = path.join(logDir, 'etcd.log');
  const out = await openLog(logFile);
  const proc = track(spawn('etcd', [
    '--name=bench', `--data-dir=${path.join(dir, 'etcd')}`,
    `--listen-client-urls=${url}`, `--advertise-client-urls=${url}`,
    `--listen-peer-urls=${peerUrl}`, `--initial-advertise-peer-urls=${peerUrl}`, `--initial-cluster=bench=${peerUrl}`,
    '--quota-backend-bytes=8589934592', '--logger=zap', '--log-level=warn',
  ], { stdio: ['ignore', out, out] }));
  await new Promise<void>((resolve, reject) => {
    proc.once('spawn', resolve);
    proc.once('error', (e) => reject(new Error(`cannot start etcd (is it on PATH?): ${e.message}`)));
  });
  await waitReady(`${url}/health`, proc, 'etcd', logFile, 30_000);
  return { proc, url };
}

const ETCDCTL_ENV = { ...process.env, ETCDCTL_API: '3' };

/** Deletes every key under `prefix`, then compacts etcd to the current revision. */
async function wipePrefix(etcd: Etcd, prefix: string): Promise<number> {
  const out = await run('etcdctl', [`--endpoints=${etcd.url}`, 'del', '--prefix', prefix], 300_000, ETCDCTL_ENV);
  const status = JSON.parse(await run('etcdctl', [`--endpoints=${etcd.url}`, 'endpoint', 'status', '-w', 'json'], 30_000, ETCDCTL_ENV)) as { Status: { header: { revision: number } } }[];
  const rev = status[0]?.Status.header.revision;
  if (rev) await run('etcdctl', [`--endpoints=${etcd.url}`, 'compact', '--physical', String(rev)], 300_000, ETCDCTL_ENV).catch((e: Error) => {
    if (!/required revision has been compacted/.test(e.message)) throw e;
  });
  return Number(out.trim()) || 0;
}

// ---------- the servers under test ----------

interface Target {
  proc: ChildProcess;
  url: string;
  pid: number;
  /** etcd key prefix to delete after the run. */
  prefix: string;
  logFile: string;
}

async function startOrch(dir: string, variant: 'old' | 'new', round: number, etcd: Etcd, tokensFile: string, tmp: string, logDir: string): Promise<Target> {
  const entry = path.join(dir, 'dist/lib/cmd/orch-apiserver.js');
  const dataDir = path.join(tmp, `${variant}-r${round}`);
  mkdirSync(dataDir, { recursive: true });
  const [port] = await freePorts(1);
  const prefix = `/bench-${variant}-${round}`;
  const logFile = path.join(logDir, `${variant}-r${round}.server.log`);
  const out = await openLog(logFile);
  const proc = track(spawn(process.execPath, [
    entry, `--etcd-servers=${etcd.url}`, `--etcd-prefix=${prefix}`, `--secure-port=${port}`, '--bind-address=127.0.0.1',
    `--token-auth-file=${tokensFile}`, `--data-dir=${dataDir}`,
    // One process: the CPU figures follow one pid (a build with `--workers` would fork one per CPU; hack/bench/workers.ts compares those).
    ...(existsSync(path.join(dir, 'dist/lib/server/options/workers-flags.js')) ? ['--workers=1'] : []),
  ], { cwd: dataDir, stdio: ['ignore', out, out] }));
  const url = `https://127.0.0.1:${port}`;
  try {
    await waitReady(`${url}/readyz`, proc, `${variant} server`, logFile, 120_000);
  } catch (e) {
    await stopChild(proc, 5000);
    throw e;
  }
  return { proc, url, pid: proc.pid!, prefix: `${prefix}/`, logFile };
}

async function startYardstick(benchDir: string, round: number, etcd: Etcd, token: string, logDir: string): Promise<Target> {
  const logFile = path.join(logDir, `yardstick-r${round}.server.log`);
  const out = await openLog(logFile);
  const proc = track(spawn(process.execPath, [path.join(benchDir, 'yardstick.mjs'), '--etcd', etcd.url, '--token', token],
    { cwd: benchDir, stdio: ['ignore', 'pipe', out] }));
  const lines = createInterface({ input: proc.stdout! });
  const announced = new Promise<{ url: string; pid: number }>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`yardstick did not announce its URL in 60 s; log ${logFile}:\n${tail(logFile)}`)), 60_000);
    lines.on('line', (line) => {
      out.write(`${line}\n`);
      const m = /^yardstick (https:\/\/\S+) pid (\d+)/.exec(line);
      if (m) {
        clearTimeout(t);
        resolve({ url: m[1]!, pid: Number(m[2]) });
      }
    });
    proc.once('exit', (code, signal) => {
      clearTimeout(t);
      reject(new Error(`yardstick exited (${code ?? signal}); log ${logFile}:\n${tail(logFile)}`));
    });
  });
  try {
    const { url, pid } = await announced;
    await waitReady(`${url}/version`, proc, 'yardstick', logFile, 30_000, token);
    return { proc, url, pid, prefix: '/yardstick/', logFile };
  } catch (e) {
    await stopChild(proc, 5000);
    throw e;
  }
}

/** One run.mjs run; resolves with its exit code. Its progress goes to stderr with a prefix. */
async function runBench(o: Options, variant: Variant, round: number, target: Target, etcd: Etcd, token: string): Promise<number | string> {
  const phases = variant === 'yardstick' ? o.phases.filter((p) => p !== 'watch') : o.phases;
  const args = [
    path.join(o.benchDir, 'run.mjs'), '--server', target.url, '--token', token, '--insecure', '--vendor', 'orch',
    '--pid', String(target.pid), '--etcd-pid', String(etcd.proc.pid), '--duration', String(o.duration),
    '--phases', phases.join(','), '--out', path.join(o.out, `${variant}-r${round}.json`),
    '--label', `${variant} round ${round}${variant === 'yardstick' ? '' : ` (${variant === 'old' ? o.oldDir : o.newDir})`}`,
    '--max-seconds', String(o.runTimeoutS),
  ];
  if (o.pods) args.push('--pods', o.pods);
  if (o.watchers) args.push('--watchers', o.watchers);
  const logFile = path.join(o.out, `${variant}-r${round}.run.log`);
  const out = await openLog(logFile);
  const proc = track(spawn(process.execPath, args, { cwd: o.benchDir, stdio: ['ignore', out, 'pipe'] }));
  const tag = `  [${variant} r${round}] `;
  createInterface({ input: proc.stderr! }).on('line', (line) => {
    out.write(`${line}\n`);
    process.stderr.write(`${tag}${line}\n`);
  });
  // run.mjs stops itself at --max-seconds and then has 90 s for cleanup; this is the backstop
  const code = await waitExit(proc, (o.runTimeoutS + 150) * 1000);
  await closeLog(out);
  return code;
}

// ---------- results ----------

interface Latency {
  p50?: number | null;
  p99?: number | null;
}
interface PhaseRec {
  phase: string;
  setup?: boolean;
  failed?: string;
  ok?: number;
  errors?: Record<string, number>;
  latencyMs?: Latency;
  resources?: { server?: { cpuS?: number | null; gone?: boolean } | null; machine?: { otherCores?: number | null } };
  delivery?: { lost: number; latencyFromAckMs: Latency };
  writes?: { putLatencyMs?: Latency; errors?: Record<string, number>; achievedRate?: number };
  targetRate?: number;
  failedWatchers?: number;
  stoppedEarly?: string;
}
interface RunJson {
  meta?: { stopped?: string; serverVersion?: { gitVersion?: string } };
  error?: string;
  phases: PhaseRec[];
}

interface Figure {
  phase: string;
  metric: string;
  value: number | null;
}

const sum = (o?: Record<string, number>) => Object.values(o ?? {}).reduce((a, b) => a + b, 0);

/** The compared figure(s) of one phase, and anything that makes them suspect. */
function figuresOf(p: PhaseRec, notes: string[]): Figure[] {
  if (p.failed) notes.push(`${p.phase} failed: ${p.failed}`);
  const errors = sum(p.errors);
  if (errors) notes.push(`${p.phase}: ${errors} failed requests (${Object.entries(p.errors ?? {}).map(([k, v]) => `${k}×${v}`).join(', ')})`);
  if (p.stoppedEarly) notes.push(`${p.phase}: ${p.stoppedEarly}`);
  const usable = !p.failed;
  if (p.phase === 'pods-list-chunked500') {
    return [{ phase: p.phase, metric: 'p50 ms', value: usable && p.ok ? (p.latencyMs?.p50 ?? null) : null }];
  }
  if (p.phase.startsWith('watch-')) {
    if (p.delivery?.lost) notes.push(`${p.phase}: ${p.delivery.lost} events lost`);
    if (p.failedWatchers) notes.push(`${p.phase}: ${p.failedWatchers} watchers failed`);
    const rate = p.writes?.achievedRate;
    if (rate && p.targetRate && rate < 0.9 * p.targetRate) notes.push(`${p.phase}: the writer reached only ${rate} of ${p.targetRate} updates/s (the server fell behind: latencies are not at equal load)`);
    const writeErrors = sum(p.writes?.errors);
    if (writeErrors) notes.push(`${p.phase}: ${writeErrors} writer PUTs failed`);
    const ok = usable && !!p.delivery;
    return [
      { phase: p.phase, metric: 'delivery p99 ms', value: ok ? (p.delivery?.latencyFromAckMs.p99 ?? null) : null },
      { phase: p.phase, metric: 'PUT p99 ms', value: ok ? (p.writes?.putLatencyMs?.p99 ?? null) : null },
    ];
  }
  const cpuS = p.resources?.server?.cpuS;
  const value = usable && p.ok && typeof cpuS === 'number' ? (cpuS * 1000) / p.ok : null;
  return [{ phase: p.phase, metric: 'CPU ms/req', value }];
}

interface RunResult {
  variant: Variant;
  round: number;
  exit: number | string | null;
  wallS: number;
  figures: Figure[];
  notes: string[];
  serverVersion?: string;
}

function readRun(file: string, variant: Variant, round: number, exit: number | string | null, wallS: number): RunResult {
  const notes: string[] = [];
  let figures: Figure[] = [];
  let serverVersion: string | undefined;
  if (exit !== 0) notes.push(`run.mjs exited with ${exit}`);
  try {
    const j = JSON.parse(readFileSync(file, 'utf8')) as RunJson;
    if (j.error) notes.push(`run error: ${j.error}`);
    if (j.meta?.stopped) notes.push(`run stopped: ${j.meta.stopped}`);
    serverVersion = j.meta?.serverVersion?.gitVersion;
    const measured = j.phases.filter((p) => !p.setup);
    figures = measured.flatMap((p) => figuresOf(p, notes));
    // CPU the machine spent on anything but server, etcd and load generator (other sessions): noise
    const other = measured.map((p) => [p.phase, p.resources?.machine?.otherCores ?? 0] as const).sort((x, y) => y[1] - x[1]);
    if (other[0] && other[0][1] > 0.25) notes.push(`other processes used up to ${other[0][1]} cores during a phase (${other[0][0]}); mean ${(other.reduce((t, x) => t + x[1], 0) / other.length).toFixed(2)}`);
  } catch (e) {
    notes.push(`no results (${file}): ${(e as Error).message}`);
  }
  return { variant, round, exit, wallS, figures, notes, serverVersion };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const fmt = (x: number | null | undefined): string =>
  x === null || x === undefined || !Number.isFinite(x) ? '–' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2);
const fmtRatio = (x: number | null | undefined): string => (x === null || x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(2));

interface Row {
  phase: string;
  metric: string;
  old: (number | null)[];
  new: (number | null)[];
  yardstick: (number | null)[];
  oldRatio: (number | null)[];
  newRatio: (number | null)[];
  /** 'ratio' (÷ yardstick) or 'raw' (no yardstick figure: old and new compared directly). */
  basis: 'ratio' | 'raw';
  meanOld: number | null;
  meanNew: number | null;
  verdict: 'OK' | 'WORSE' | 'n/a';
  improved: boolean;
}

function compare(results: RunResult[], rounds: number): Row[] {
  const keys: { phase: string; metric: string }[] = [];
  for (const r of results) for (const f of r.figures) if (!keys.some((k) => k.phase === f.phase && k.metric === f.metric)) keys.push(f);
  const valueOf = (variant: Variant, round: number, k: { phase: string; metric: string }): number | null =>
    results.find((r) => r.variant === variant && r.round === round)?.figures.find((f) => f.phase === k.phase && f.metric === k.metric)?.value ?? null;
  return keys
    .filter((k) => results.some((r) => r.variant !== 'yardstick' && r.figures.some((f) => f.phase === k.phase && f.metric === k.metric)))
    .map((k) => {
      const rs = Array.from({ length: rounds }, (_, i) => i + 1);
      const old = rs.map((r) => valueOf('old', r, k));
      const nu = rs.map((r) => valueOf('new', r, k));
      const yardstick = rs.map((r) => valueOf('yardstick', r, k));
      const div = (a: number | null, b: number | null) => (a === null || b === null || b <= 0 ? null : a / b);
      const oldRatio = rs.map((_, i) => div(old[i]!, yardstick[i]!));
      const newRatio = rs.map((_, i) => div(nu[i]!, yardstick[i]!));
      const basis = k.phase.startsWith('watch-') ? 'raw' : 'ratio'; // the yardstick runs no watch phase
      const [o, n] = basis === 'ratio' ? [oldRatio, newRatio] : [old, nu];
      const complete = o.every((x) => x !== null) && n.every((x) => x !== null);
      const ov = o.filter((x): x is number => x !== null);
      const nv = n.filter((x): x is number => x !== null);
      const meanOld = ov.length ? mean(ov) : null;
      const meanNew = nv.length ? mean(nv) : null;
      let verdict: Row['verdict'] = 'n/a';
      if (complete && ov.length) verdict = meanNew! <= meanOld! && Math.min(...nv) <= Math.max(...ov) ? 'OK' : 'WORSE';
      const improved = complete && ov.length > 0 && Math.max(...nv) < Math.min(...ov);
      return { ...k, old, new: nu, yardstick, oldRatio, newRatio, basis, meanOld, meanNew, verdict, improved };
    });
}

function table(rows: Row[]): string {
  const head = ['phase', 'figure', 'old', 'new', 'yardstick', 'old÷yard', 'new÷yard', 'mean old÷yard', 'mean new÷yard', 'verdict', 'improved'];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i < 2 || i > 8 ? '---' : '--:')).join('|')}|`];
  const per = (xs: (number | null)[], f: (x: number | null) => string) => xs.map(f).join(' / ');
  for (const r of rows) {
    const star = r.basis === 'raw' ? '*' : '';
    lines.push(`| ${[
      r.phase, r.metric, per(r.old, fmt), per(r.new, fmt), per(r.yardstick, fmt), per(r.oldRatio, fmtRatio), per(r.newRatio, fmtRatio),
      `${r.basis === 'raw' ? fmt(r.meanOld) : fmtRatio(r.meanOld)}${star}`, `${r.basis === 'raw' ? fmt(r.meanNew) : fmtRatio(r.meanNew)}${star}`,
      r.verdict, r.verdict === 'n/a' ? '–' : r.improved ? 'yes' : 'no',
    ].join(' | ')} |`);
  }
  return lines.join('\n');
}

// ---------- main ----------

function checkCheckout(dir: string, which: string): void {
  const entry = path.join(dir, 'dist/lib/cmd/orch-apiserver.js');
  if (!existsSync(entry)) throw new UsageError(`--${which} ${dir}: no ${entry} (build it: npx tsc -p tsconfig.json)`);
  if (!existsSync(path.join(dir, 'node_modules'))) throw new UsageError(`--${which} ${dir}: no node_modules (install or symlink them)`);
}

async function main(): Promise<void> {
  let o: Options;
  try {
    o = parseOptions(process.argv.slice(2));
    checkCheckout(o.oldDir, 'old');
    checkCheckout(o.newDir, 'new');
    for (const f of ['run.mjs', 'yardstick.mjs']) if (!existsSync(path.join(o.benchDir, f))) throw new UsageError(`--bench-dir ${o.benchDir}: no ${f}`);
  } catch (e) {
    if (!(e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS'))) throw e;
    process.stderr.write(`${(e as Error).message}\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  mkdirSync(o.out, { recursive: true });
  tmpRoot = await mkdtemp(path.join(os.tmpdir(), 'compare-rounds-tmp-'));
  const token = randomBytes(24).toString('hex');
  const tokensFile = path.join(tmpRoot, 'tokens.csv');
  await writeFile(tokensFile, `${token},bench-admin,bench-admin-uid,"system:masters"\n`, { mode: 0o600 });
  const t0 = Date.now();
  const results: RunResult[] = [];
  let failure: string | undefined;
  let etcd: Etcd | undefined;
  let target: Target | undefined;
  try {
    etcd = await startEtcd(tmpRoot, o.out);
    log(`etcd ${etcd.url} (pid ${etcd.proc.pid}); results and logs in ${o.out}`);
    for (let round = 1; round <= o.rounds; round++) {
      // Old and new swap places every other round, so warm-up and drift over time favour neither.
      for (const variant of round % 2 === 1 ? VARIANTS : (['new', 'old', 'yardstick'] as const)) {
        checkInterrupted();
        if (variant === 'yardstick' && !o.phases.some((p) => p !== 'watch')) continue; // the yardstick serves no watch
        const ts = Date.now();
        log(`round ${round}/${o.rounds}: ${variant}`);
        target = variant === 'yardstick'
          ? await startYardstick(o.benchDir, round, etcd, token, o.out)
          : await startOrch(variant === 'old' ? o.oldDir : o.newDir, variant, round, etcd, tokensFile, tmpRoot, o.out);
        let exit: number | string | null = null;
        try {
          exit = await runBench(o, variant, round, target, etcd, token);
        } finally {
          await stopChild(target.proc);
          if (!interrupted && running(etcd.proc)) {
            // the server's compactor keeps its count in this unprefixed key (as kube-apiserver does)
            if (variant !== 'yardstick') await run('etcdctl', [`--endpoints=${etcd.url}`, 'del', 'compact_rev_key'], 30_000, ETCDCTL_ENV);
            const deleted = await wipePrefix(etcd, target.prefix);
            log(`${variant} r${round}: server stopped, ${deleted} keys under ${target.prefix} deleted, etcd compacted`);
          }
          target = undefined;
        }
        results.push(readRun(path.join(o.out, `${variant}-r${round}.json`), variant, round, exit, (Date.now() - ts) / 1000));
      }
    }
  } catch (e) {
    failure = e instanceof Error ? e.message : String(e);
  } finally {
    await stopChild(target?.proc, 10_000);
    await stopChild(etcd?.proc, 10_000);
    for (const c of [...children]) await stopChild(c, 5000);
    rmSync(tmpRoot, { recursive: true, force: true });
    tmpRoot = undefined;
  }
  report(o, results, (Date.now() - t0) / 1000, failure);
  await writeFile(path.join(o.out, 'summary.json'), `${JSON.stringify({ options: o, failure, runs: results, rows: compare(results, o.rounds) }, null, 1)}\n`);
  if (failure) {
    log(`FAILED: ${failure}`);
    process.exitCode = interrupted ? 130 : 1;
  }
}

/** Prints the comparison table (of whatever rounds completed) and the notes. */
function report(o: Options, results: RunResult[], totalS: number, failure: string | undefined): void {
  const rows = compare(results, o.rounds);
  const lines: string[] = [];
  lines.push('');
  lines.push(`# compare-rounds: old ${o.oldDir} vs new ${o.newDir}, ${o.rounds} round(s) of old, new, yardstick on one etcd`);
  lines.push(`# run.mjs --duration ${o.duration} --phases ${o.phases.join(',')}${o.pods ? ` --pods ${o.pods}` : ''}${o.watchers ? ` --watchers ${o.watchers}` : ''}; ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'})`);
  lines.push('# cells: round 1 / round 2 / …; CPU ms/req = server CPU s ÷ successful requests; lower is better everywhere');
  if (failure) lines.push(`# INCOMPLETE: ${failure}`);
  lines.push('');
  lines.push(table(rows));
  lines.push('');
  lines.push('verdict: OK when mean(new) ≤ mean(old) and best(new) ≤ worst(old) of the ratios; improved: worst(new) < best(old).');
  if (rows.some((r) => r.basis === 'raw')) lines.push('* no yardstick figure (the yardstick serves no watch): raw old and new figures compared instead of ratios.');
  const notes = results.flatMap((r) => r.notes.map((n) => `${r.variant} r${r.round}: ${n}`));
  if (notes.length) lines.push('', 'notes:', ...notes.map((n) => `  - ${n}`));
  lines.push('', `runs (wall s): ${results.map((r) => `${r.variant} r${r.round} ${r.wallS.toFixed(0)}`).join(', ') || 'none'}; total ${totalS.toFixed(0)} s`);
  lines.push(`raw results and logs: ${o.out}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((e: unknown) => {
  log(`FAILED: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = interrupted ? 130 : 1;
});
