/**
 * The managed etcd's pid file (`<dataDir>/etcd.pid`): two lines, etcd's pid then the pid of the
 * server that owns it (issue #19 item 4). A second server on the same data directory fails fast
 * while the owner lives; a managed etcd whose owner is gone (the server was SIGKILLed or OOM
 * killed) is found by the next start, which stops it and takes the data directory over.
 *
 * An etcd counts as owned by a live server when its parent process (`/proc/<pid>/stat`) is the
 * recorded owner: an orphaned child is re-parented (to init or a subreaper), so a recycled owner
 * pid is never mistaken for the owner. A pid file of one line (written before the owner was
 * recorded) counts the etcd as orphaned only when its parent is init.
 */

import { readFile, rm, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

/** How often a stopping stale etcd is checked for having exited, in milliseconds. */
const EXIT_POLL_MS = 50;
/** How long a SIGKILLed process may take to disappear, in milliseconds. */
const KILL_WAIT_MS = 5_000;

/** What a pid file records. */
export interface EtcdPidRecord {
  etcdPid: number;
  /** The owning server's pid; undefined in a one-line (older) pid file. */
  ownerPid?: number;
}

/** The etcd process a pid file names, found running on our data directory. */
export interface EtcdHolder {
  /** etcd's pid. */
  pid: number;
  /** The owner recorded in the pid file, if any. */
  ownerPid?: number;
  /** True while its owning server lives (it must not be touched); false: orphaned, stale. */
  ownerAlive: boolean;
}

/** The pid file's record; undefined when the file is missing or malformed. */
export async function readPidFile(pidFile: string): Promise<EtcdPidRecord | undefined> {
  let text: string;
  try {
    text = await readFile(pidFile, 'utf8');
  } catch {
    return undefined;
  }
  const [etcd, owner] = text.split('\n').map((l) => Number.parseInt(l, 10));
  if (!Number.isInteger(etcd) || etcd <= 0) return undefined;
  return Number.isInteger(owner) && owner > 0 ? { etcdPid: etcd, ownerPid: owner } : { etcdPid: etcd };
}

/**
 * The parent pid of a running process, read from `/proc/<pid>/stat` (Linux); undefined when it
 * is gone, a zombie or dead.
 */
export async function parentOf(pid: number): Promise<number | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // `pid (comm) state ppid …`; comm may hold spaces and parentheses: split after the last ')'.
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return state === 'Z' || state === 'X' ? undefined : Number(ppid);
  } catch {
    return undefined;
  }
}

/** Whether process `pid` runs with `--data-dir=<etcdDataDir>` on its command line. */
async function isEtcdOn(pid: number, etcdDataDir: string): Promise<boolean> {
  try {
    const commandLine = await readFile(`/proc/${pid}/cmdline`, 'utf8');
    return commandLine.split('\0').includes(`--data-dir=${etcdDataDir}`);
  } catch {
    return false;
  }
}

/**
 * The etcd named by `pidFile` if that process is alive and its command line names `etcdDataDir`
 * (so a recycled pid is not mistaken for etcd), with whether its owning server still lives;
 * undefined otherwise.
 */
export async function etcdHolder(pidFile: string, etcdDataDir: string): Promise<EtcdHolder | undefined> {
  const record = await readPidFile(pidFile);
  if (record === undefined) return undefined;
  const parent = await parentOf(record.etcdPid);
  if (parent === undefined || !(await isEtcdOn(record.etcdPid, etcdDataDir))) return undefined;
  const ownerAlive = record.ownerPid === undefined ? parent !== 1 : parent === record.ownerPid;
  return { pid: record.etcdPid, ...(record.ownerPid !== undefined && { ownerPid: record.ownerPid }), ownerAlive };
}

/** Waits up to `ms` for `pid` to leave `etcdDataDir` (exit, or become a zombie); true if it did. */
async function waitGone(pid: number, etcdDataDir: string, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if ((await parentOf(pid)) === undefined || !(await isEtcdOn(pid, etcdDataDir))) return true;
    if (Date.now() >= deadline) return false;
    await sleep(EXIT_POLL_MS);
  }
}

/**
 * Stops an orphaned etcd on `etcdDataDir` (not our child): SIGTERM, SIGKILL after `graceMs`
 * milliseconds. Resolves with the signal that ended it.
 * @throws Error when it is still running 5 s after SIGKILL.
 */
export async function stopStaleEtcd(pid: number, etcdDataDir: string, graceMs: number): Promise<'SIGTERM' | 'SIGKILL'> {
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(pid, s);
    } catch {
      // already gone
    }
  };
  signal('SIGTERM');
  if (await waitGone(pid, etcdDataDir, graceMs)) return 'SIGTERM';
  signal('SIGKILL');
  if (await waitGone(pid, etcdDataDir, KILL_WAIT_MS)) return 'SIGKILL';
  throw new Error(`stale etcd process ${pid} on ${etcdDataDir} did not exit after SIGKILL`);
}

/** Records etcd's pid and its owner's (default: this process) in `pidFile`. */
export async function writePidFile(pidFile: string, etcdPid: number, ownerPid = process.pid): Promise<void> {
  await writeFile(pidFile, `${etcdPid}\n${ownerPid}\n`, { mode: 0o644 });
}

/** Removes `pidFile` if present. */
export async function removePidFile(pidFile: string): Promise<void> {
  await rm(pidFile, { force: true });
}
