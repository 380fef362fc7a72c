/**
 * The managed etcd's pid file (`<dataDir>/etcd.pid`): it lets a second server on the same
 * data directory fail fast with a clear reason instead of waiting for etcd's data lock.
 */

import { readFile, rm, writeFile } from 'node:fs/promises';

/**
 * The pid recorded in `pidFile` if that process is alive and its command line names
 * `etcdDataDir` (so a recycled pid is not mistaken for etcd); undefined otherwise.
 */
export async function runningEtcdPid(pidFile: string, etcdDataDir: string): Promise<number | undefined> {
  let pid: number;
  try {
    pid = Number.parseInt(await readFile(pidFile, 'utf8'), 10);
  } catch {
    return undefined;
  }
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    const commandLine = await readFile(`/proc/${pid}/cmdline`, 'utf8');
    return commandLine.split('\0').includes(`--data-dir=${etcdDataDir}`) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Records `pid` in `pidFile`. */
export async function writePidFile(pidFile: string, pid: number): Promise<void> {
  await writeFile(pidFile, `${pid}\n`, { mode: 0o644 });
}

/** Removes `pidFile` if present. */
export async function removePidFile(pidFile: string): Promise<void> {
  await rm(pidFile, { force: true });
}
