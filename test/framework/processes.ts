/**
 * Small helpers for tests that start, kill and inspect processes (managed etcd, drills).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { EtcdLogger } from '../../lib/server/etcd/managed-etcd.js';
import { parentOf } from '../../lib/server/etcd/pid-file.js';

const execFileAsync = promisify(execFile);

/**
 * Whether `pid` is a running process (Linux `/proc`). A killed orphan stays a zombie until
 * whoever adopted it reaps it, which may take a while: a zombie counts as gone.
 */
export async function processAlive(pid: number): Promise<boolean> {
  return (await parentOf(pid)) !== undefined;
}

/** etcdctl (v3 API) against `endpoint`; resolves with its stdout. @throws when etcdctl fails. */
export async function etcdctlAt(endpoint: string, ...args: string[]): Promise<string> {
  const { stdout } = await execFileAsync('etcdctl', [`--endpoints=${endpoint}`, ...args], { env: { ...process.env, ETCDCTL_API: '3' } });
  return stdout;
}

/** One line a {@link recordingEtcdLogger} kept. */
export interface RecordedLogEntry {
  level: string;
  fields: Record<string, unknown>;
  message: string;
}

/** A managed-etcd logger (lib/server/etcd/managed-etcd.ts `EtcdLogger`) that keeps every line in `entries`. */
export function recordingEtcdLogger(): EtcdLogger & { entries: RecordedLogEntry[] } {
  const entries: RecordedLogEntry[] = [];
  const at = (level: string) => (fields: object, message: string) => entries.push({ level, fields: fields as Record<string, unknown>, message });
  return { entries, info: at('info'), warn: at('warn'), error: at('error') };
}
