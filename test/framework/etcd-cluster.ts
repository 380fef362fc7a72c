/**
 * A throwaway N-member etcd cluster on free loopback ports, for tests of multi-member behaviour
 * (issue #16 § HA replicas): each member has its own temporary data directory and log; members
 * can be killed (SIGKILL) and restarted on the same ports and data. Everything is killed and
 * removed by stop(), and at process exit if a test forgot to.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { findExecutable } from '../../lib/server/etcd/executable.js';
import { freeLoopbackPorts } from '../../lib/server/etcd/free-port.js';
import { WATCH_PROGRESS_NOTIFY_INTERVAL } from '../../lib/server/etcd/etcd-process.js';

/** Client TLS of every member: files of the serving certificate, its key and the CA of client certificates. */
export interface EtcdClusterTLS {
  certFile: string;
  keyFile: string;
  /** Clients must present a certificate signed by this CA (`--client-cert-auth`). */
  trustedCAFile: string;
  /** A client certificate and key (clientAuth) for the health probes. */
  clientCertFile: string;
  clientKeyFile: string;
}

/** What to start. */
export interface EtcdClusterOptions {
  /** Number of members (default 3). */
  members?: number;
  /** Serve clients over TLS (client URLs become `https://127.0.0.1:<port>`). */
  tls?: EtcdClusterTLS;
  /** Parent of the member data directories (default: a new temporary directory, removed by stop()). */
  dir?: string;
  /** More flags for every member (e.g. `--quota-backend-bytes=…`). */
  flags?: string[];
}

/** One member: name, URLs, and whether its process runs. */
export interface EtcdMember {
  name: string;
  clientURL: string;
  peerURL: string;
  dataDir: string;
  logFile: string;
  running: boolean;
}

/** A running cluster. */
export interface EtcdCluster {
  members: EtcdMember[];
  /** Every member's client URL, in member order (for `--etcd-servers`). */
  endpoints: string[];
  /** SIGKILLs member `i` and waits for its exit. */
  kill(i: number): Promise<void>;
  /** Starts member `i` again on its ports and data; resolves when its `/health` answers. */
  restart(i: number): Promise<void>;
  /** Freezes member `i` (SIGSTOP): its connections stay open and nothing answers. */
  freeze(i: number): void;
  /** Lets a frozen member `i` run again (SIGCONT); nothing when it is not frozen. */
  thaw(i: number): void;
  /** Kills every member and removes the directories this cluster created. */
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 30_000;
const live = new Set<ChildProcess>();
const ownDirs = new Set<string>();
process.once('exit', () => {
  for (const c of live) c.kill('SIGKILL');
  for (const d of ownDirs) rmSync(d, { recursive: true, force: true, maxRetries: 3 });
});

/**
 * Starts the members concurrently (they need one another for their first election) and resolves
 * when every member reports healthy.
 * @throws Error when etcd is not installed or a member is not healthy within 30 s (the message
 *   quotes the end of its log); whatever was started is stopped first.
 */
export async function startEtcdCluster(options: EtcdClusterOptions = {}): Promise<EtcdCluster> {
  const binary = await findExecutable('etcd');
  if (binary === undefined) throw new Error('etcd not found in PATH: run hack/install-etcd.sh');
  const n = options.members ?? 3;
  const ownDir = options.dir === undefined;
  const dir = options.dir ?? (await mkdtemp(path.join(os.tmpdir(), 'etcd-cluster-')));
  if (ownDir) ownDirs.add(dir);
  const ports = await freeLoopbackPorts(2 * n);
  const scheme = options.tls ? 'https' : 'http';
  const members: EtcdMember[] = Array.from({ length: n }, (_, i) => ({
    name: `m${i}`,
    clientURL: `${scheme}://127.0.0.1:${ports[2 * i]}`,
    peerURL: `http://127.0.0.1:${ports[2 * i + 1]}`,
    dataDir: path.join(dir, `m${i}`),
    logFile: path.join(dir, `m${i}.log`),
    running: false,
  }));
  const initialCluster = members.map((m) => `${m.name}=${m.peerURL}`).join(',');
  const procs: Array<ChildProcess | undefined> = [];
  const frozen = new Set<number>();
  const spawnMember = (i: number, state: 'new' | 'existing'): void => {
    const m = members[i]!;
    const fd = openSync(m.logFile, 'a');
    const tlsArgs = options.tls
      ? [`--cert-file=${options.tls.certFile}`, `--key-file=${options.tls.keyFile}`, `--trusted-ca-file=${options.tls.trustedCAFile}`, '--client-cert-auth']
      : [];
    const child = spawn(binary, [
      `--name=${m.name}`,
      `--data-dir=${m.dataDir}`,
      `--listen-client-urls=${m.clientURL}`,
      `--advertise-client-urls=${m.clientURL}`,
      `--listen-peer-urls=${m.peerURL}`,
      `--initial-advertise-peer-urls=${m.peerURL}`,
      `--initial-cluster=${initialCluster}`,
      `--initial-cluster-state=${state}`,
      '--initial-cluster-token=test-cluster',
      `--experimental-watch-progress-notify-interval=${WATCH_PROGRESS_NOTIFY_INTERVAL}`,
      '--logger=zap',
      '--log-outputs=stderr',
      ...tlsArgs,
      ...(options.flags ?? []),
    ], { stdio: ['ignore', fd, fd], env: Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('ETCD_'))) });
    closeSync(fd);
    live.add(child);
    child.once('exit', () => {
      live.delete(child);
      m.running = false;
    });
    procs[i] = child;
    m.running = true;
  };
  const waitHealthy = async (i: number): Promise<void> => {
    const m = members[i]!;
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (!m.running) break;
      if (await memberHealthy(m, options.tls)) return;
      await sleep(100);
    }
    let tail: string;
    try {
      tail = readFileSync(m.logFile, 'utf8').split('\n').slice(-15).join('\n');
    } catch {
      tail = '(no log)';
    }
    throw new Error(`etcd member ${m.name} not healthy within ${START_TIMEOUT_MS} ms:\n${tail}`);
  };
  const kill = async (i: number): Promise<void> => {
    const child = procs[i];
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGKILL');
    await exited;
  };
  const stop = async (): Promise<void> => {
    await Promise.all(members.map((_, i) => kill(i)));
    if (ownDir) {
      await rm(dir, { recursive: true, force: true, maxRetries: 3 });
      ownDirs.delete(dir);
    }
  };
  try {
    members.forEach((_, i) => spawnMember(i, 'new'));
    await Promise.all(members.map((_, i) => waitHealthy(i)));
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    members,
    endpoints: members.map((m) => m.clientURL),
    kill,
    async restart(i) {
      await kill(i);
      spawnMember(i, 'existing');
      await waitHealthy(i);
    },
    freeze(i) {
      procs[i]?.kill('SIGSTOP');
      frozen.add(i);
    },
    thaw(i) {
      if (frozen.delete(i)) procs[i]?.kill('SIGCONT');
    },
    stop,
  };
}

/** Whether the member's `/health` says `"health":"true"` (over TLS with the probe's client certificate). */
async function memberHealthy(m: EtcdMember, tls: EtcdClusterTLS | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    const req = (tls ? httpsRequest : httpRequest)(`${m.clientURL}/health`, {
      timeout: 1_000,
      servername: '',
      ...(tls ? { ca: readFileSync(tls.trustedCAFile), cert: readFileSync(tls.clientCertFile), key: readFileSync(tls.clientKeyFile) } : {}),
    }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve(res.statusCode === 200 && body.includes('"health":"true"')));
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}
