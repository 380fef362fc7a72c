/**
 * The real `orch-apiserver` command as a child process, exactly as `make run` starts it (it
 * starts and supervises its own etcd under `--data-dir`), for end-to-end tests. Ready when the
 * admin kubeconfig exists and `/readyz` answers 200.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parse } from 'yaml';
import { TestClient } from './client.js';

/** A running server process. */
export interface ServerProcess {
  /** Process id of the server (for resource measurements). */
  pid: number;
  dataDir: string;
  kubeconfig: string;
  url: string;
  admin: TestClient;
  /** Everything the process wrote to stderr so far. */
  log(): string;
  /** Everything the process wrote to stdout so far (the console URL line of issue #22). */
  stdout(): string;
  /** SIGTERM, then wait for exit; resolves with the exit code. */
  stop(): Promise<number | null>;
}

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

/**
 * Node's arguments that run the `orch-apiserver` command (the command's own flags follow them):
 * `[bundle]` for a bundle's entry file (hack/bundle.sh), run by plain Node as `make run` runs
 * `dist/orch-apiserver.mjs`; by default the bundle hack/test.sh makes of the current sources at the
 * start of a run (`$ORCH_TEST_BUNDLE`: a start through tsx costs ~6 s more CPU, most of it loading
 * ~900 files); `false`, or no bundle (a single test file run by mocha), runs the sources through
 * tsx.
 */
export function commandArgv(bundle: string | false | undefined = process.env.ORCH_TEST_BUNDLE || undefined): string[] {
  return bundle ? [bundle] : ['--import', 'tsx', path.join(ROOT, 'lib/cmd/orch-apiserver.ts')];
}

/**
 * Starts the command with `args` (plus `--data-dir`, `--secure-port=0` and `--workers=1` unless
 * given); fails when it is not ready within `readyTimeoutMs`. The command runs as
 * {@link commandArgv} gives it: from `bundle` when given (`false`: the sources), else from the
 * run's bundle or the sources.
 */
export async function startServerProcess(args: string[] = [], dataDir?: string, readyTimeoutMs = 60_000, bundle?: string | false): Promise<ServerProcess> {
  const dir = dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'orch-e2e-')));
  const full = [...args];
  if (!full.some((a) => a.startsWith('--data-dir'))) full.push(`--data-dir=${dir}`);
  if (!full.some((a) => a.startsWith('--secure-port'))) full.push('--secure-port=0');
  // One process unless the test asks for workers (the command's default forks one per CPU).
  if (!full.some((a) => a.startsWith('--workers'))) full.push('--workers=1');
  const child: ChildProcess = spawn(process.execPath, [...commandArgv(bundle), ...full], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const kubeconfig = path.join(dir, 'admin.kubeconfig');
  const deadline = Date.now() + readyTimeoutMs;
  let admin: TestClient | undefined;
  let url = '';
  while (Date.now() < deadline && child.exitCode === null) {
    if (existsSync(kubeconfig) && stderr.includes('wrote admin kubeconfig')) {
      const cfg = parse(await readFile(kubeconfig, 'utf8'));
      const cluster = cfg.clusters[0].cluster;
      const user = cfg.users[0].user;
      url = cluster.server;
      const b64 = (s: string) => Buffer.from(s, 'base64').toString('utf8');
      admin = new TestClient(url, b64(cluster['certificate-authority-data']), { cert: b64(user['client-certificate-data']), key: b64(user['client-key-data']) });
      const res = await admin.get('/readyz').catch(() => undefined);
      if (res?.status === 200) break;
    }
    await sleep(100);
  }
  if (!admin || child.exitCode !== null) {
    child.kill('SIGKILL');
    await exited;
    if (!dataDir) await rm(dir, { recursive: true, force: true });
    throw new Error(`server process did not become ready:\n${stderr}`);
  }
  return {
    pid: child.pid!,
    dataDir: dir,
    kubeconfig,
    url,
    admin,
    log: () => stderr,
    stdout: () => stdout,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const code = await exited;
      if (!dataDir) await rm(dir, { recursive: true, force: true });
      return code;
    },
  };
}
