/**
 * JWT / OpenID Connect authentication of the server (spec 001 § OpenID Connect flags,
 * § Authentication configuration file), built from either the `--oidc-*` flags or the
 * `--authentication-config` file — never both — the way upstream builds it at start: the file is
 * read, decoded and validated (its expressions compiled) or the flags translated into one
 * authenticator and validated likewise; any problem stops the server. Once started, providers
 * initialise in the background and the file, when given, is watched and reloaded.
 */
import { readFile } from 'node:fs/promises';
import { IssuerAuthenticator, type JWTAuthenticatorOptions, JWTAuthenticatorSet } from './authenticator.js';
import { type AuthenticationConfiguration, decodeAuthenticationConfiguration } from './config.js';
import { ALL_SIGNING_ALGORITHMS, authenticatorFromOIDCOptions, type OIDCOptions } from './oidc-flags.js';
import type { ProviderTiming } from './provider.js';
import { AuthenticationConfigController, type ReloadLog, type ReloadStatus } from './reload.js';
import { aggregateMessage, validateAuthenticationConfiguration } from './validation.js';

export { JWTAuthenticatorSet, IssuerAuthenticator } from './authenticator.js';
export { AuthenticationConfigController, type ReloadStatus, type ReloadLog } from './reload.js';
export { ALL_SIGNING_ALGORITHMS, defaultOIDCOptions, type OIDCOptions } from './oidc-flags.js';

/** What the JWT authentication is built from. */
export interface JWTAuthenticationOptions {
  /** The `--oidc-*` flags. */
  oidc: OIDCOptions;
  /** `--authentication-config`: the configuration file, when given. */
  authenticationConfig?: string;
  /** Issuer URLs no JWT authenticator may use: the service-account issuers. */
  disallowedIssuers?: readonly string[];
  log: ReloadLog;
  /** Reports each automatic reload of the file (metrics). */
  onReload?: (status: ReloadStatus) => void;
  /** Re-read interval of the file, in milliseconds (default 60 s). */
  reloadIntervalMs?: number;
  /** How long a reload waits for new providers, in milliseconds (default 60 s). */
  reloadHealthTimeoutMs?: number;
  /** Background timing of the providers (default: upstream's). */
  timing?: ProviderTiming;
}

/** The built JWT authentication: the token authenticator to put in the union, and its background work. */
export interface JWTAuthentication {
  authenticator: JWTAuthenticatorSet;
  /** The file watcher, when the configuration comes from a file. */
  controller?: AuthenticationConfigController;
  /** Starts the providers' discovery and the file watcher (nothing runs before). */
  start(): void;
  /** Stops the providers and the watcher. */
  stop(): void;
}

/**
 * Builds the JWT authentication, or undefined when neither the OIDC flags (issuer and client ID)
 * nor a configuration file configure it.
 * @throws Error with a start-up message: `failed to load authentication configuration from file
 *   "<path>": <reason>`, `invalid authentication configuration: <field errors>`, `oidc:
 *   unsupported signing alg: "HS256"`, or the reason `--oidc-ca-file` cannot be read.
 */
export async function buildJWTAuthentication(opts: JWTAuthenticationOptions): Promise<JWTAuthentication | undefined> {
  let config: AuthenticationConfiguration;
  let signingAlgs: readonly string[];
  let data: string | undefined;
  if (opts.authenticationConfig !== undefined) {
    try {
      data = await readFile(opts.authenticationConfig, 'utf8');
      config = decodeAuthenticationConfiguration(data);
    } catch (err) {
      throw new Error(`failed to load authentication configuration from file ${JSON.stringify(opts.authenticationConfig)}: ${(err as Error).message}`, { cause: err });
    }
    signingAlgs = ALL_SIGNING_ALGORITHMS;
  } else if (opts.oidc.issuerURL && opts.oidc.clientID) {
    for (const alg of opts.oidc.signingAlgs) {
      if (!ALL_SIGNING_ALGORITHMS.includes(alg)) throw new Error(`oidc: unsupported signing alg: ${JSON.stringify(alg)}`);
    }
    const ca = opts.oidc.caFile === undefined ? undefined : await readFile(opts.oidc.caFile, 'utf8');
    config = { jwt: [authenticatorFromOIDCOptions(opts.oidc, ca)] };
    signingAlgs = opts.oidc.signingAlgs.length > 0 ? opts.oidc.signingAlgs : ['RS256'];
  } else {
    return undefined;
  }
  const disallowedIssuers = opts.disallowedIssuers ?? [];
  const result = validateAuthenticationConfiguration(config, disallowedIssuers);
  if (result.errors.length > 0) throw new Error(`invalid authentication configuration: ${aggregateMessage(result.errors)}`);

  const authenticatorOptions: JWTAuthenticatorOptions = {
    signingAlgs,
    timing: opts.timing,
    onProviderError: (issuer, err) => opts.log.error({ err, issuer }, 'oidc authenticator: initializing plugin'),
  };
  const authenticators = result.authenticators.map((c) => new IssuerAuthenticator(c, authenticatorOptions));
  const set = new JWTAuthenticatorSet(authenticators);
  let controller: AuthenticationConfigController | undefined;
  if (opts.authenticationConfig !== undefined) {
    controller = new AuthenticationConfigController({
      path: opts.authenticationConfig,
      initialData: data!,
      set,
      disallowedIssuers,
      authenticatorOptions,
      log: opts.log,
      onReload: opts.onReload,
      pollIntervalMs: opts.reloadIntervalMs,
      healthTimeoutMs: opts.reloadHealthTimeoutMs,
    });
  }
  return {
    authenticator: set,
    controller,
    start() {
      for (const a of authenticators) a.start();
      controller?.start();
    },
    stop() {
      controller?.stop();
      for (const a of set.authenticators) a.stop();
    },
  };
}
