/**
 * The etcd shared by one test run (ARCHITECTURE.md § Tests): `ETCD_ENDPOINT` when it answers,
 * otherwise one managed etcd on a temporary data directory, started on first use and stopped
 * (directory removed) when the run ends. Tests isolate themselves by key prefix, not by etcd.
 */

import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { isEtcdHealthy } from '../../lib/server/etcd/health.js';
import { startManagedEtcd, type ManagedEtcd } from '../../lib/server/etcd/managed-etcd.js';

const execFileAsync = promisify(execFile);

/** The etcd of this run: its client URL, and the managed process when we started it. */
interface SharedEtcd {
  endpoint: string;
  managed?: ManagedEtcd;
  dataDir?: string;
}

let shared: Promise<SharedEtcd> | undefined;

/**
 * The run's etcd, `{ endpoint: 'http://127.0.0.1:<port>' }`: `ETCD_ENDPOINT` (a client URL, or
 * `host:port`) if its `/health` answers, else a managed etcd started once for the whole run.
 * @throws EtcdStartError when etcd must be started and cannot be (e.g. not installed).
 */
export async function useEtcd(): Promise<{ endpoint: string }> {
  shared ??= connect().catch((err: unknown) => {
    shared = undefined;
    throw err;
  });
  const { endpoint } = await shared;
  return { endpoint };
}

/**
 * Restarts the managed test etcd (same endpoint, same data) and resolves when it is healthy
 * again; for tests of reconnection and watch resumption.
 * @throws Error when the run uses `ETCD_ENDPOINT` (an etcd this run does not own).
 */
export async function restartEtcd(): Promise<void> {
  await useEtcd();
  const { managed } = await shared!;
  if (managed === undefined) throw new Error('restartEtcd() needs the managed test etcd, but this run uses ETCD_ENDPOINT');
  await managed.restart();
}

/**
 * Runs `etcdctl --endpoints=<endpoint> ...args` with the v3 API against the run's etcd and
 * returns its stdout (e.g. `etcdctl(['compact', '42'])`, `etcdctl(['get', '--prefix', '/x'])`).
 * @throws Error with etcdctl's stderr when it exits non-zero.
 */
export async function etcdctl(args: string[]): Promise<string> {
  const { endpoint } = await useEtcd();
  try {
    const { stdout } = await execFileAsync('etcdctl', [`--endpoints=${endpoint}`, ...args], {
      env: { ...process.env, ETCDCTL_API: '3' },
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (err) {
    const { stderr, message } = err as { stderr?: string; message: string };
    throw new Error(`etcdctl ${args.join(" ")} failed: ${stderr?.trim() || message}`, { cause: err });
  }
}

/** `ETCD_ENDPOINT` as a URL (`host:port` gets `http://`), or undefined when unset. */
function externalEndpoint(): string | undefined {
  const value = process.env.ETCD_ENDPOINT?.trim();
  if (value === undefined || value === '') return undefined;
  return /^[a-z]+:\/\//.test(value) ? value.replace(/\/+$/, '') : `http://${value}`;
}

async function connect(): Promise<SharedEtcd> {
  const external = externalEndpoint();
  if (external !== undefined) {
    if (await isEtcdHealthy(external, 2_000)) return { endpoint: external };
    process.stderr.write(`test etcd: ETCD_ENDPOINT=${external} is not healthy; starting a managed etcd instead\n`);
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'test-etcd-'));
  let managed: ManagedEtcd;
  try {
    managed = await startManagedEtcd({
      dataDir,
      logger: pino({ name: 'test-etcd', level: 'warn' }, pino.destination(2)),
    });
  } catch (err) {
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
  // If the run exits without teardown (process.exit, an uncaught error, Ctrl-C), the managed
  // etcd's own exit handler has sent SIGTERM; the data is being discarded, so SIGKILL at once
  // and remove the directory.
  process.once('exit', () => {
    if (managed.pid !== undefined) process.kill(managed.pid, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
  });
  return { endpoint: managed.endpoint, managed, dataDir };
}

/** Stops the managed etcd and removes its data; the next useEtcd() would start a new one. */
async function teardown(): Promise<void> {
  const pending = shared;
  shared = undefined;
  if (pending === undefined) return;
  const { managed, dataDir } = await pending.catch(() => ({}) as Partial<SharedEtcd>);
  await managed?.stop();
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
}

// Under mocha, a root-level after() hook: the managed etcd stops when the whole run ends.
if (typeof after === 'function') after(teardown);
