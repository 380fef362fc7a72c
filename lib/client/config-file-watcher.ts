/**
 * Automatic reload of a configuration file the server reads (`--authentication-config`,
 * `--authorization-config`; spec 001 § Authentication configuration file, § Authorization), as
 * upstream reloads them: the file is watched (fs.watch on its directory, so an atomic replace is
 * seen too) and read again on an interval (upstream: every minute). Content equal to the last one
 * handled is ignored; reads never overlap. What new content means is the caller's: its handler
 * says whether the content is settled (applied, or rejected until the file changes again) or must
 * be tried again at the next check.
 */
import { type FSWatcher, watch } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** Options of a {@link ConfigFileWatcher}. */
export interface ConfigFileWatcherOptions {
  /** The file. */
  path: string;
  /** The content already in effect (not handed to the handler again). */
  initialData: string;
  /**
   * Called with content that differs from the last settled one. Resolves true when the content
   * is settled (applied, or invalid and to be ignored until it changes), false to try again.
   */
  onContent: (data: string) => Promise<boolean>;
  /** Called when the file cannot be read (tried again at the next check). */
  onReadError: (err: Error) => void;
  /** Called when watching the directory fails (polling goes on). */
  onWatchError?: (err: Error) => void;
  /** Interval of re-reading the file besides watching it, in milliseconds (default 60 s, as upstream). */
  pollIntervalMs?: number;
}

/** Delay between a file event and reading the file, in milliseconds: a burst of writes reads once. */
const EVENT_DELAY_MS = 50;

/** Watches and polls one file; hands each new content to the handler. */
export class ConfigFileWatcher {
  private tracked: string;
  private watcher: FSWatcher | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private eventTimer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly o: ConfigFileWatcherOptions) {
    this.tracked = o.initialData;
  }

  /** Whether {@link stop} was called (a handler in progress should not apply its result). */
  get isStopped(): boolean {
    return this.stopped;
  }

  /** Starts watching and polling. */
  start(): void {
    const file = path.basename(this.o.path);
    const onWatchError = (err: Error) => this.o.onWatchError?.(err);
    try {
      this.watcher = watch(path.dirname(this.o.path), { persistent: false }, (_event, name) => {
        if (name === null || name === file) this.schedule();
      });
      this.watcher.on('error', onWatchError);
    } catch (err) {
      onWatchError(err as Error);
    }
    this.pollTimer = setInterval(() => void this.check(), this.o.pollIntervalMs ?? 60_000);
    this.pollTimer.unref();
  }

  /** Stops watching and polling. */
  stop(): void {
    this.stopped = true;
    this.watcher?.close();
    clearInterval(this.pollTimer);
    clearTimeout(this.eventTimer);
  }

  private schedule(): void {
    if (this.stopped) return;
    clearTimeout(this.eventTimer);
    this.eventTimer = setTimeout(() => void this.check(), EVENT_DELAY_MS);
    this.eventTimer.unref();
  }

  /** Reads the file once and hands it over when it changed; checks never overlap. Resolves when done. */
  check(): Promise<void> {
    this.running = this.running.then(() => this.read());
    return this.running;
  }

  private async read(): Promise<void> {
    if (this.stopped) return;
    let data: string;
    try {
      data = await readFile(this.o.path, 'utf8');
    } catch (err) {
      this.o.onReadError(err as Error);
      return;
    }
    if (data === this.tracked) return;
    if (await this.o.onContent(data)) this.tracked = data;
  }
}
