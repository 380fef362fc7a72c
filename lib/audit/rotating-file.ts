/**
 * A size-rotated append-only file, as the lumberjack logger upstream's log backend writes to:
 * past `maxSizeMB` (0: 100 MB) the file is renamed to `<name>-<UTC time>.<ext>` (time as
 * `2006-01-02T15-04-05.000`) and a new one started; old files beyond `maxBackups` or older than
 * `maxAgeDays` (by the time in their name; 0: keep) are removed, and with `compress` gzipped.
 * Writes are appended through a stream (never blocking the event loop); only opening and
 * renaming at start and rotation are synchronous.
 */
import { createReadStream, createWriteStream, fstatSync, mkdirSync, openSync, renameSync, type WriteStream } from 'node:fs';
import { readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';

/** Rotation settings (`--audit-log-maxsize`, `-maxbackup`, `-maxage`, `-compress`). */
export interface RotationOptions {
  maxSizeMB: number;
  maxBackups: number;
  maxAgeDays: number;
  compress: boolean;
}

const MB = 1024 * 1024;
const DEFAULT_MAX_SIZE_MB = 100;
const DAY_MS = 24 * 60 * 60 * 1000;

/** lumberjack's backup name: `dir/audit.log` at `t` → `dir/audit-2026-11-29T01-24-48.123.log`. */
export function backupName(file: string, t: Date): string {
  const ext = path.extname(file);
  const prefix = file.slice(0, file.length - ext.length);
  const stamp = t.toISOString().slice(0, -1).replace(/:/g, '-');
  return `${prefix}-${stamp}${ext}`;
}

/** The time encoded in a backup's name, or undefined when `name` is not a backup of `file`. */
export function backupTime(file: string, name: string): number | undefined {
  const ext = path.extname(file);
  const prefix = `${path.basename(file, ext)}-`;
  let rest = name.endsWith('.gz') ? name.slice(0, -3) : name;
  if (!rest.startsWith(prefix) || !rest.endsWith(ext)) return undefined;
  rest = rest.slice(prefix.length, rest.length - ext.length);
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})\.(\d{3})$/.exec(rest);
  if (!m) return undefined;
  const t = Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`);
  return Number.isNaN(t) ? undefined : t;
}

/** The rotated file; see the module comment. */
export class RotatingFile {
  private stream!: WriteStream;
  private size = 0;
  private readonly maxBytes: number;
  private lastError?: Error;
  private housekeeping: Promise<void> = Promise.resolve();

  /** @throws Error when the directory or the file cannot be created. */
  constructor(
    readonly file: string,
    private readonly opts: RotationOptions,
  ) {
    this.maxBytes = (opts.maxSizeMB > 0 ? opts.maxSizeMB : DEFAULT_MAX_SIZE_MB) * MB;
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o755 });
    this.open();
  }

  /**
   * Appends `text`, rotating first when it would not fit.
   * @throws Error when `text` alone exceeds the maximum size or an earlier write failed.
   */
  write(text: string): void {
    if (this.lastError) {
      const err = this.lastError;
      this.lastError = undefined;
      throw err;
    }
    const len = Buffer.byteLength(text);
    if (len > this.maxBytes) throw new Error(`write length ${len} exceeds maximum file size ${this.maxBytes}`);
    if (this.size + len > this.maxBytes) this.rotate();
    this.stream.write(text);
    this.size += len;
  }

  /** Flushes and closes the file; resolves once rotated files are compressed and pruned. */
  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.stream.end(resolve));
    await this.housekeeping;
  }

  private open(): void {
    // Opened synchronously so that the file exists for a rename right after (rotation is rare).
    const fd = openSync(this.file, 'a', 0o600);
    this.size = fstatSync(fd).size;
    this.stream = createWriteStream(this.file, { fd });
    this.stream.on('error', (err) => (this.lastError = err));
  }

  private rotate(): void {
    const old = this.stream;
    const closed = new Promise<void>((resolve) => old.end(resolve));
    const backup = backupName(this.file, new Date());
    renameSync(this.file, backup);
    this.open();
    this.housekeeping = this.housekeeping.then(() => closed.then(() => this.mill(backup))).catch((err: unknown) => {
      this.lastError = err as Error;
    });
  }

  /** Compresses the new backup and removes backups beyond the count or age limits. */
  private async mill(backup: string): Promise<void> {
    if (this.opts.compress) {
      await pipeline(createReadStream(backup), createGzip(), createWriteStream(`${backup}.gz`, { mode: 0o600 }));
      await unlink(backup);
    }
    if (this.opts.maxBackups <= 0 && this.opts.maxAgeDays <= 0) return;
    const dir = path.dirname(this.file);
    const backups = (await readdir(dir))
      .map((name) => ({ name, t: backupTime(this.file, name) }))
      .filter((b): b is { name: string; t: number } => b.t !== undefined)
      .sort((a, b) => b.t - a.t);
    const cutoff = Date.now() - this.opts.maxAgeDays * DAY_MS;
    const doomed = backups.filter((b, i) => (this.opts.maxBackups > 0 && i >= this.opts.maxBackups) || (this.opts.maxAgeDays > 0 && b.t < cutoff));
    await Promise.all(doomed.map((b) => unlink(path.join(dir, b.name)).catch(() => undefined)));
  }
}
