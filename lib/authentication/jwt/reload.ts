/**
 * Automatic reload of the `--authentication-config` file (spec 001 § Authentication
 * configuration file: "Reloaded automatically on change"), as upstream reloads it: the file is
 * watched (fs.watch on its directory, so an atomic replace is seen too) and read again on an
 * interval (upstream: every minute). Content equal to the last one handled is ignored. A new
 * valid file is compiled, its providers started and — once every one is initialised — its
 * authenticators replace the old ones at once. A file that cannot be read is retried; one that
 * does not decode or validate is reported and kept out (the old configuration stays) until the
 * file changes again; new providers that do not initialise within the health timeout are
 * reported and retried. Each outcome is reported as `success` or `failure`.
 */
import { type FSWatcher, watch } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { IssuerAuthenticator, type JWTAuthenticatorOptions, type JWTAuthenticatorSet } from './authenticator.js';
import { decodeAuthenticationConfiguration } from './config.js';
import { aggregateMessage, validateAuthenticationConfiguration } from './validation.js';

/** The logger the controller reports to (a pino logger fits). */
export interface ReloadLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Outcome of one automatic reload attempt. */
export type ReloadStatus = 'success' | 'failure';

/** What the controller needs. */
export interface AuthenticationConfigControllerOptions {
  /** The configuration file. */
  path: string;
  /** The content the current authenticators were built from. */
  initialData: string;
  /** The authenticators a successful reload replaces. */
  set: JWTAuthenticatorSet;
  /** Issuer URLs no authenticator may use (the service-account issuers). */
  disallowedIssuers: readonly string[];
  /** Options of the authenticators built from a new file. */
  authenticatorOptions: JWTAuthenticatorOptions;
  log: ReloadLog;
  /** Called once per reload attempt that got past an unchanged file (metrics). */
  onReload?: (status: ReloadStatus) => void;
  /** Interval of re-reading the file besides watching it, in milliseconds (default 60 s, as upstream). */
  pollIntervalMs?: number;
  /** How long new providers may take to initialise before a reload fails, in milliseconds (default 60 s, as upstream). */
  healthTimeoutMs?: number;
}

/** Delay between a file event and reading the file, in milliseconds: a burst of writes reads once. */
const EVENT_DELAY_MS = 50;

/** Watches the configuration file and swaps the authenticators when it changes. */
export class AuthenticationConfigController {
  private tracked: string;
  private watcher: FSWatcher | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private eventTimer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly o: AuthenticationConfigControllerOptions) {
    this.tracked = o.initialData;
  }

  /** Starts watching and polling. */
  start(): void {
    const file = path.basename(this.o.path);
    try {
      this.watcher = watch(path.dirname(this.o.path), { persistent: false }, (_event, name) => {
        if (name === null || name === file) this.schedule();
      });
      this.watcher.on('error', (err) => this.o.log.error({ err }, 'watching authentication config file'));
    } catch (err) {
      this.o.log.error({ err }, 'watching authentication config file');
    }
    this.pollTimer = setInterval(() => void this.check(), this.o.pollIntervalMs ?? 60_000);
    this.pollTimer.unref();
  }

  /** Stops watching; a reload in progress finishes without swapping. */
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

  /** Reads the file once and reloads when it changed; attempts never overlap. Resolves when done. */
  check(): Promise<void> {
    this.running = this.running.then(() => this.reload());
    return this.running;
  }

  private async reload(): Promise<void> {
    if (this.stopped) return;
    const { log } = this.o;
    let data: string;
    try {
      data = await readFile(this.o.path, 'utf8');
    } catch (err) {
      log.error({ err }, 'failed to read authentication config file');
      this.report('failure');
      return;
    }
    if (data === this.tracked) return;
    let compiled;
    try {
      const result = validateAuthenticationConfiguration(decodeAuthenticationConfiguration(data), this.o.disallowedIssuers);
      if (result.errors.length > 0) {
        log.error({ err: new Error(aggregateMessage(result.errors)) }, 'failed to validate authentication config');
        this.tracked = data;
        this.report('failure');
        return;
      }
      compiled = result.authenticators;
    } catch (err) {
      log.error({ err }, 'failed to load authentication config');
      this.tracked = data;
      this.report('failure');
      return;
    }
    const next = compiled.map((c) => new IssuerAuthenticator(c, this.o.authenticatorOptions));
    for (const a of next) a.start();
    const ready = await Promise.all(next.map((a) => a.provider.waitReady(this.o.healthTimeoutMs ?? 60_000)));
    if (this.stopped || ready.includes(false)) {
      for (const a of next) a.stop();
      if (this.stopped) return;
      const reasons = next.filter((a) => !a.provider.ready).map((a) => `oidc: authenticator for issuer ${JSON.stringify(a.issuer)} is not healthy: ${a.provider.notReadyReason?.message}`);
      log.error({ err: new Error(reasons.length === 1 ? reasons[0]! : `[${reasons.join(', ')}]`) }, 'failed to update authentication config');
      this.report('failure');
      return;
    }
    for (const a of this.o.set.replace(next)) a.stop();
    this.tracked = data;
    log.info({ path: this.o.path }, 'reloaded authentication config');
    this.report('success');
  }

  private report(status: ReloadStatus): void {
    this.o.onReload?.(status);
  }
}
