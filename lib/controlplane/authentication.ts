/**
 * The authenticator union of our server, built from the Authentication flags: which methods run
 * and in which order (spec 001 § Authentication, § Methods, § Anonymous requests).
 */
import { SERVER_NAME } from '../apis/vendor.js';
import { audienceAgnosticRequest, audienceAgnosticToken } from '../authentication/audiences.js';
import { BearerTokenAuthenticator } from '../authentication/bearer-token.js';
import { BootstrapTokenAuthenticator, type SecretLister } from '../authentication/bootstrap/authenticator.js';
import type { RequestAuthenticator, TokenAuthenticator } from '../authentication/interface.js';
import { buildJWTAuthentication } from '../authentication/jwt/index.js';
import { RequestHeaderAuthenticator } from '../authentication/request-header/authenticator.js';
import { type ServiceAccountDeps, type ServiceAccounts, setupServiceAccounts } from '../authentication/serviceaccount/setup.js';
import { CachedTokenAuthenticator, UPSTREAM_TOKEN_CACHE } from '../authentication/token-cache.js';
import { TokenFileAuthenticator } from '../authentication/token-file/authenticator.js';
import { TokenUnion, UnionAuthenticator, anonymousAllowed } from '../authentication/union.js';
import { WebhookTokenAuthenticator } from '../authentication/webhook/authenticator.js';
import { X509Authenticator } from '../authentication/x509/authenticator.js';
import { parseCertificateBundle } from '../authentication/x509/verify.js';
import type { AuthenticationOptions } from '../server/options/authentication-options.js';
import type { Logger } from '../server/logging.js';
import type { ServerMetrics } from '../server/metrics.js';

/** The built authentication: the union the handler chain runs. */
export interface Authentication {
  authenticator: UnionAuthenticator;
  /**
   * PEM bundle of every CA whose client certificates some method trusts (`--client-ca-file`,
   * `--requestheader-client-ca-file`): the TLS listener asks for and verifies client certificates
   * against all of them, each method then against its own. Absent: none.
   */
  clientCertificateCAs?: string;
  /** Service accounts (issuer, audiences, TokenRequest issuer, discovery documents), when their deps were given. */
  serviceAccounts?: ServiceAccounts;
  /** Stops background work: the OIDC providers' key refresh and the `--authentication-config` watcher. */
  stop(): void;
}

/** What the authenticators read from the running server. */
export interface AuthenticationDeps {
  /** Secrets of the system namespace from an informer's cache (bootstrap tokens, `--enable-bootstrap-token-auth`). */
  systemSecrets?: SecretLister;
  /** The server's logger (rejected bootstrap tokens are logged at debug level, upstream's V(3)). */
  log?: Logger;
  /** PEM bundle of `--client-ca-file` (plus the generated CA); absent: no client-certificate users. */
  clientCAPem?: string;
  /** The serving key and the object reads of service-account tokens; absent: no service-account tokens. */
  serviceAccounts?: ServiceAccountDeps;
  /** The server's metrics: reloads of `--authentication-config` are recorded there. */
  metrics?: ServerMetrics;
  /** This server's identity hash, the reload metrics' `apiserver_id_hash` (lib/server/identity.ts). */
  apiServerIDHash?: string;
}

/**
 * Builds the authenticator union from `opts`: the authenticating proxy first, client
 * certificates next, then bearer tokens (static file, service accounts — legacy then bound, as
 * upstream orders them —, …, the token webhook last) as one token union, all but the static file
 * behind the token cache (upstream's 10 s for successes, failures not cached). Methods that do not check audiences are wrapped to answer for the API
 * audiences only. `authorizationModes` (the effective `--authorization-mode`, or the types of
 * `--authorization-config`) can switch anonymous requests off (see anonymousAllowed).
 * @throws Error when a configured file cannot be read or parsed (a start-up error).
 */
export async function buildAuthentication(opts: AuthenticationOptions, authorizationModes: readonly string[] = [], deps: AuthenticationDeps = {}): Promise<Authentication> {
  const serviceAccounts = deps.serviceAccounts && (await setupServiceAccounts(opts, deps.serviceAccounts));
  const apiAudiences: readonly string[] = serviceAccounts?.apiAudiences ?? opts.apiAudiences;
  const tokenAuthenticators: TokenAuthenticator[] = [];
  // The static token file answers from memory and never changes: it is asked before the cache
  // (same answers and order as behind it, without hashing each request's token).
  const tokenFile = opts.tokenAuthFile ? audienceAgnosticToken(apiAudiences, await TokenFileAuthenticator.fromFile(opts.tokenAuthFile)) : undefined;
  if (serviceAccounts) tokenAuthenticators.push(serviceAccounts.legacyAuthenticator, serviceAccounts.boundAuthenticator);
  if (opts.enableBootstrapTokenAuth) {
    if (!deps.systemSecrets) throw new Error('--enable-bootstrap-token-auth needs the system namespace Secrets informer');
    tokenAuthenticators.push(audienceAgnosticToken(apiAudiences, new BootstrapTokenAuthenticator(deps.systemSecrets, (reason) => deps.log?.debug(reason))));
  }
  // OpenID Connect (the --oidc-* flags or --authentication-config) after bootstrap tokens, as upstream.
  const jwt = await buildJWTAuthentication({
    oidc: opts.oidc,
    authenticationConfig: opts.authenticationConfig,
    disallowedIssuers: serviceAccounts?.issuers ?? opts.serviceAccountIssuers,
    log: deps.log ?? { info: () => undefined, error: () => undefined },
    onReload: (status) => deps.metrics?.authenticationConfigReload(status, deps.apiServerIDHash ?? ''),
  });
  if (jwt) tokenAuthenticators.push(audienceAgnosticToken(apiAudiences, jwt.authenticator));
  // Last, as upstream: a webhook is asked only about tokens no local method knows.
  const webhook =
    opts.tokenWebhookConfigFile &&
    (await WebhookTokenAuthenticator.fromKubeconfig(opts.tokenWebhookConfigFile, {
      version: opts.tokenWebhookVersion,
      cacheTTLMs: opts.tokenWebhookCacheTTLMs,
      implicitAudiences: apiAudiences,
      userAgent: SERVER_NAME,
    }));
  if (webhook) tokenAuthenticators.push(webhook);
  const methods: RequestAuthenticator[] = [];
  const clientCAs = deps.clientCAPem ? parseCertificateBundle(deps.clientCAPem, '--client-ca-file') : [];
  const proxy =
    opts.requestHeaderClientCaFile &&
    (await RequestHeaderAuthenticator.fromFlags({
      clientCAFile: opts.requestHeaderClientCaFile,
      usernameHeaders: opts.requestHeaderUsernameHeaders,
      groupHeaders: opts.requestHeaderGroupHeaders,
      extraHeaderPrefixes: opts.requestHeaderExtraHeadersPrefix,
      allowedNames: opts.requestHeaderAllowedNames,
    }));
  // First, as upstream: it also strips the identity headers from every request.
  if (proxy) methods.push(audienceAgnosticRequest(apiAudiences, proxy));
  if (clientCAs.length > 0) methods.push(new X509Authenticator(clientCAs));
  const cached = tokenAuthenticators.length > 0 ? [new CachedTokenAuthenticator(new TokenUnion(tokenAuthenticators), UPSTREAM_TOKEN_CACHE)] : [];
  const tokens: TokenAuthenticator[] = [...(tokenFile ? [tokenFile] : []), ...cached];
  if (tokens.length > 0) methods.push(new BearerTokenAuthenticator(tokens.length === 1 ? tokens[0]! : new TokenUnion(tokens)));
  jwt?.start();
  return {
    stop: () => {
      jwt?.stop();
      if (webhook) webhook.close();
    },
    authenticator: new UnionAuthenticator(methods, { anonymous: anonymousAllowed(opts.anonymousAuth, authorizationModes), apiAudiences }),
    ...((clientCAs.length > 0 || proxy) && { clientCertificateCAs: [...clientCAs, ...(proxy ? proxy.clientCA : [])].map((c) => c.toString()).join('') }),
    ...(serviceAccounts && { serviceAccounts }),
  };
}
