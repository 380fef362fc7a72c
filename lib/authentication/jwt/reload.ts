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
import { ConfigFileWatcher } from '../../client/config-file-watcher.js';
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

/** Watches the configuration file and swaps the authenticators when it changes. */
export class AuthenticationConfigController {
  private readonly watcher: ConfigFileWatcher;

  constructor(private readonly o: AuthenticationConfigControllerOptions) {
    this.watcher = new ConfigFileWatcher({
      path: o.path,
      initialData: o.initialData,
      pollIntervalMs: o.pollIntervalMs,
      onContent: (data) => this.reload(data),
      onReadError: (err) => {
        o.log.error({ err }, 'failed to read authentication config file');
        this.report('failure');
      },
      onWatchError: (err) => o.log.error({ err }, 'watching authentication config file'),
    });
  }

  /** Starts watching and polling. */
  start(): void {
    this.watcher.start();
  }

  /** Stops watching; a reload in progress finishes without swapping. */
  stop(): void {
    this.watcher.stop();
  }

  /** Reads the file once and reloads when it changed; attempts never overlap. Resolves when done. */
  check(): Promise<void> {
    return this.watcher.check();
  }

  /** Applies new content; true when it is settled (applied, or invalid until the file changes). */
  private async reload(data: string): Promise<boolean> {
    const { log } = this.o;
    let compiled;
    try {
      const result = validateAuthenticationConfiguration(decodeAuthenticationConfiguration(data), this.o.disallowedIssuers);
      if (result.errors.length > 0) {
        log.error({ err: new Error(aggregateMessage(result.errors)) }, 'failed to validate authentication config');
        this.report('failure');
        return true;
      }
      compiled = result.authenticators;
    } catch (err) {
      log.error({ err }, 'failed to load authentication config');
      this.report('failure');
      return true;
    }
    const next = compiled.map((c) => new IssuerAuthenticator(c, this.o.authenticatorOptions));
    for (const a of next) a.start();
    const ready = await Promise.all(next.map((a) => a.provider.waitReady(this.o.healthTimeoutMs ?? 60_000)));
    if (this.watcher.isStopped || ready.includes(false)) {
      for (const a of next) a.stop();
      if (this.watcher.isStopped) return false;
      const reasons = next.filter((a) => !a.provider.ready).map((a) => `oidc: authenticator for issuer ${JSON.stringify(a.issuer)} is not healthy: ${a.provider.notReadyReason?.message}`);
      log.error({ err: new Error(reasons.length === 1 ? reasons[0]! : `[${reasons.join(', ')}]`) }, 'failed to update authentication config');
      this.report('failure');
      return false;
    }
    for (const a of this.o.set.replace(next)) a.stop();
    log.info({ path: this.o.path }, 'reloaded authentication config');
    this.report('success');
    return true;
  }

  private report(status: ReloadStatus): void {
    this.o.onReload?.(status);
  }
}
