/**
 * The authentication options of one server process (spec 001 § Authentication): what the
 * Authentication flags say after parsing, one member per flag, with its unit. The control plane
 * builds the authenticator union from them (lib/controlplane/authentication.ts).
 */

import { ALL_SIGNING_ALGORITHMS, type OIDCOptions, defaultOIDCOptions } from '../../authentication/jwt/oidc-flags.js';
import { DEFAULT_WEBHOOK_CACHE_TTL_MS, DEFAULT_WEBHOOK_VERSION, unsupportedVersionError } from '../../authentication/webhook/authenticator.js';

/** Validated authentication options; each member names its flag. */
export interface AuthenticationOptions {
  /**
   * `--anonymous-auth`: requests without credentials run as `system:anonymous` (default true);
   * false → 401. As upstream, an `--authorization-mode` list containing `AlwaysAllow` switches
   * anonymous requests off whatever this says (authentication/union.ts `anonymousAllowed`).
   */
  anonymousAuth: boolean;
  /** The `--oidc-*` flags (spec 001 § OpenID Connect flags). */
  oidc: OIDCOptions;
  /** `--authentication-config`: the AuthenticationConfiguration file (spec 001 § Authentication configuration file); excludes the OIDC flags. */
  authenticationConfig?: string;
  /** `--token-auth-file`: CSV of static bearer tokens (`token,user,uid,"group1,group2"`). */
  tokenAuthFile?: string;
  /**
   * `--enable-bootstrap-token-auth` (default false): bearer tokens `<id>.<secret>` authenticate
   * against the `bootstrap-token-<id>` Secrets of the system namespace (spec 001 § Bootstrap tokens).
   */
  enableBootstrapTokenAuth: boolean;
  /**
   * `--service-account-key-file` (repeatable): PEM files of RSA or ECDSA keys (public, private or
   * certificates) that verify service-account tokens. Empty: the serving key
   * (`--tls-private-key-file` or the generated one).
   */
  serviceAccountKeyFiles: string[];
  /** `--service-account-signing-key-file`: the PEM private key tokens are signed with; unset: the serving key. */
  serviceAccountSigningKeyFile?: string;
  /**
   * `--service-account-issuer` (repeatable): the first is the `iss` of issued tokens, all are
   * accepted. Empty: DEFAULT_SERVICE_ACCOUNT_ISSUER (lib/apis/vendor.ts).
   */
  serviceAccountIssuers: string[];
  /** `--service-account-jwks-uri`: the `jwks_uri` of the issuer discovery document; unset: `https://<server address>/openid/v1/jwks`. */
  serviceAccountJwksUri?: string;
  /** `--service-account-lookup` (default true): legacy Secret-based tokens are checked against their Secret and service account. */
  serviceAccountLookup: boolean;
  /** `--service-account-max-token-expiration`, in milliseconds (0 = no cap): the longest lifetime a TokenRequest gets. */
  serviceAccountMaxTokenExpirationMs: number;
  /** `--service-account-extend-token-expiration` (default true): Pod-bound tokens asked for 3607 s live a year, warning after the hour. */
  serviceAccountExtendTokenExpiration: boolean;
  /** `--api-audiences`: the audiences of the API. Empty: the service-account issuers. */
  apiAudiences: string[];
  /**
   * `--authentication-token-webhook-config-file`: client configuration file (kubeconfig) of the
   * remote service that reviews bearer tokens (spec 001 § Webhook token authentication).
   */
  tokenWebhookConfigFile?: string;
  /** `--authentication-token-webhook-cache-ttl`, in milliseconds (default 120 000 = `2m0s`): how long webhook decisions are cached. */
  tokenWebhookCacheTTLMs: number;
  /** `--authentication-token-webhook-version`: TokenReview version sent to the webhook, `v1beta1` (default) or `v1`. */
  tokenWebhookVersion: string;
  /** `--requestheader-username-headers`: headers, in order, whose first non-empty value is the proxied username (spec 001 § Authenticating proxy flags). */
  requestHeaderUsernameHeaders: string[];
  /** `--requestheader-group-headers`: headers whose values are the proxied user's groups. */
  requestHeaderGroupHeaders: string[];
  /** `--requestheader-extra-headers-prefix`: header prefixes whose headers give the proxied user's extra. */
  requestHeaderExtraHeadersPrefix: string[];
  /** `--requestheader-client-ca-file`: PEM bundle of the CAs of the proxy's client certificate; unset: no authenticating proxy. */
  requestHeaderClientCaFile?: string;
  /** `--requestheader-allowed-names`: client certificate common names the proxy may have; empty: any the CA signed. */
  requestHeaderAllowedNames: string[];
}

/** The options every flag starts from. */
export function defaultAuthenticationOptions(): AuthenticationOptions {
  return {
    anonymousAuth: true,
    oidc: defaultOIDCOptions(),
    enableBootstrapTokenAuth: false,
    serviceAccountKeyFiles: [],
    serviceAccountIssuers: [],
    serviceAccountLookup: true,
    serviceAccountMaxTokenExpirationMs: 0,
    serviceAccountExtendTokenExpiration: true,
    apiAudiences: [],
    tokenWebhookCacheTTLMs: DEFAULT_WEBHOOK_CACHE_TTL_MS,
    tokenWebhookVersion: DEFAULT_WEBHOOK_VERSION,
    requestHeaderUsernameHeaders: [],
    requestHeaderGroupHeaders: [],
    requestHeaderExtraHeadersPrefix: [],
    requestHeaderAllowedNames: [],
  };
}

/** Cross-flag checks of the authentication flags (upstream `BuiltInAuthenticationOptions.Validate`); one reason each. */
export function validateAuthenticationOptions(o: AuthenticationOptions): string[] {
  return [...validateOIDCOptions(o), ...validateServiceAccountOptions(o), ...validateTokenWebhookOptions(o), ...validateRequestHeaderOptions(o)];
}

/**
 * Upstream's OIDC checks (`validateOIDCOptions`, 1.30): without a configuration file, any OIDC
 * flag needs both the issuer URL and the client ID; with one, no OIDC flag may be given. The
 * signing algorithms must be ones upstream allows (checked when it builds the authenticator).
 */
function validateOIDCOptions(o: AuthenticationOptions): string[] {
  const problems: string[] = [];
  if (o.authenticationConfig === undefined) {
    if (o.oidc.flagsSet && (!o.oidc.issuerURL || !o.oidc.clientID)) {
      problems.push('oidc-issuer-url and oidc-client-id must be specified together when any oidc-* flags are set');
    }
    const unsupported = o.oidc.issuerURL ? o.oidc.signingAlgs.find((alg) => !ALL_SIGNING_ALGORITHMS.includes(alg)) : undefined;
    if (unsupported !== undefined) problems.push(`oidc: unsupported signing alg: ${JSON.stringify(unsupported)}`);
  } else if (o.oidc.flagsSet) {
    problems.push('authentication-config file and oidc-* flags are mutually exclusive');
  }
  return problems;
}

/**
 * The webhook's TokenReview version must be one upstream supports; upstream checks it when it
 * builds the webhook, so only with a config file.
 */
function validateTokenWebhookOptions(o: AuthenticationOptions): string[] {
  const unsupported = o.tokenWebhookConfigFile ? unsupportedVersionError(o.tokenWebhookVersion) : undefined;
  return unsupported ? [unsupported] : [];
}

/**
 * Upstream `RequestHeaderAuthenticationOptions.Validate` (no blank entry in the list flags), plus
 * the spec's rule that the username headers are required with the CA file.
 */
function validateRequestHeaderOptions(o: AuthenticationOptions): string[] {
  const problems: string[] = [];
  const lists: Array<[string, string[]]> = [
    ['requestheader-username-headers', o.requestHeaderUsernameHeaders],
    ['requestheader-group-headers', o.requestHeaderGroupHeaders],
    ['requestheader-extra-headers-prefix', o.requestHeaderExtraHeadersPrefix],
    ['requestheader-allowed-names', o.requestHeaderAllowedNames],
  ];
  for (const [flag, values] of lists) {
    if (values.some((v) => v.trim() === '')) problems.push(`empty value in ${JSON.stringify(flag)}`);
  }
  if (o.requestHeaderClientCaFile && o.requestHeaderUsernameHeaders.length === 0) {
    problems.push('--requestheader-username-headers must be specified when --requestheader-client-ca-file is set');
  }
  return problems;
}

/**
 * The reason Go's `url.Parse` rejects `text` (`parse "<text>": <why>`), or undefined when it parses.
 * Go accepts almost anything; it rejects control characters, a leading `:`, a colon in the first
 * segment of a scheme-less path, an unclosed `[` host and a non-numeric port.
 */
export function goURLParseError(text: string): string | undefined {
  const fail = (why: string) => `parse ${JSON.stringify(text)}: ${why}`;
  if ([...text].some((c) => c.charCodeAt(0) < 0x20 || c === '\x7f')) return fail('net/url: invalid control character in URL');
  const hash = text.indexOf('#');
  const beforeQuery = (hash < 0 ? text : text.slice(0, hash)).split('?')[0]!;
  const badEscape = /%(?![0-9A-Fa-f]{2})/.exec(beforeQuery + (hash < 0 ? '' : text.slice(hash)));
  if (badEscape) {
    const at = badEscape.index;
    const s = beforeQuery + (hash < 0 ? '' : text.slice(hash));
    return fail(`invalid URL escape ${JSON.stringify(s.slice(at, at + 3))}`);
  }
  const colon = text.search(/[^A-Za-z0-9+.-]/);
  if (colon === 0 && text[0] === ':') return fail('missing protocol scheme');
  const hasScheme = colon > 0 && text[colon] === ':' && /^[A-Za-z]/.test(text);
  if (!hasScheme) {
    const rest = text.split(/[?#]/)[0]!;
    if (!rest.startsWith('/') && rest.split('/')[0]!.includes(':')) return fail('first path segment in URL cannot contain colon');
    return undefined;
  }
  const afterScheme = text.slice(colon + 1).split(/[?#]/)[0]!;
  if (!afterScheme.startsWith('//')) return undefined;
  const authority = afterScheme.slice(2).split('/')[0]!;
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    if (close < 0) return fail("missing ']' in host");
    const port = host.slice(close + 1);
    if (port !== '' && !/^:[0-9]*$/.test(port)) return fail(`invalid port ${JSON.stringify(port)} after host`);
    return undefined;
  }
  const portAt = host.lastIndexOf(':');
  if (portAt >= 0 && !/^[0-9]*$/.test(host.slice(portAt + 1))) return fail(`invalid port ${JSON.stringify(host.slice(portAt))} after host`);
  return undefined;
}

/** Upstream's bounds of `--service-account-max-token-expiration` (ms): one hour to 2^32 seconds. */
const MAX_TOKEN_EXPIRATION_BOUNDS_MS = [3_600_000, 2 ** 32 * 1000] as const;

/**
 * The service-account flags, as upstream words their checks (kube-apiserver authentication
 * options `Validate` and `completeServiceAccountOptions`).
 */
function validateServiceAccountOptions(o: AuthenticationOptions): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const issuer of o.serviceAccountIssuers) {
    if (issuer.includes(':')) {
      const why = goURLParseError(issuer);
      if (why) {
        problems.push(`service-account-issuer ${JSON.stringify(issuer)} contained a ':' but was not a valid URL: ${why}`);
        continue;
      }
    }
    if (issuer === '') {
      problems.push('service-account-issuer should not be an empty string');
      continue;
    }
    if (seen.has(issuer)) {
      problems.push(`service-account-issuer ${JSON.stringify(issuer)} is already specified`);
      continue;
    }
    seen.add(issuer);
  }
  if (o.serviceAccountSigningKeyFile !== undefined && o.serviceAccountKeyFiles.length === 0) {
    problems.push('service-account-key-file is a required flag');
  }
  const jwks = o.serviceAccountJwksUri;
  if (jwks !== undefined) {
    const why = goURLParseError(jwks);
    if (why) problems.push(`service-account-jwks-uri must be a valid URL: ${why}`);
    else if (!/^https:/i.test(jwks)) problems.push(`service-account-jwks-uri requires https scheme, parsed as: ${jwks}`);
  }
  const max = o.serviceAccountMaxTokenExpirationMs;
  if (max !== 0 && (max < MAX_TOKEN_EXPIRATION_BOUNDS_MS[0] || max > MAX_TOKEN_EXPIRATION_BOUNDS_MS[1])) {
    problems.push('the service-account-max-token-expiration must be between 1 hour and 2^32 seconds');
  }
  return problems;
}
