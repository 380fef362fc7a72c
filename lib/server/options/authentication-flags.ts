/**
 * The Authentication flags (spec 001 § Authentication): one entry per flag, applied to
 * `draft.authentication` (see authentication-options.ts); `flag-table.ts` lists them in its
 * Authentication section.
 */

import { BOOTSTRAP_TOKEN_SECRET_TYPE, DEFAULT_SERVICE_ACCOUNT_ISSUER, SYSTEM_NAMESPACE, vendorGroup } from '../../apis/vendor.js';
import { formatDuration, parseDuration } from '../../apimachinery/duration.js';
import { DEFAULT_WEBHOOK_CACHE_TTL_MS, DEFAULT_WEBHOOK_VERSION } from '../../authentication/webhook/authenticator.js';
import type { OIDCOptions } from '../../authentication/jwt/oidc-flags.js';
import type { FlagSpec } from './flag-table.js';
import { optionalPath, parseGoBool, parseStringSlice } from './flag-values.js';

/** The `--oidc-*` options whose `--oidc-signing-algs` was given: the first occurrence replaces the default. */
const signingAlgsGiven = new WeakSet<OIDCOptions>();

/** pflag's `mapStringString` without splitting (upstream `NewMapStringStringNoSplit`): one `key=value`, both trimmed. */
function parseKeyValue(text: string): [string, string] {
  const eq = text.indexOf('=');
  if (eq < 0) throw new Error('malformed pair, expect string=string');
  return [text.slice(0, eq).trim(), text.slice(eq + 1).trim()];
}

/** One `--oidc-*` flag: applies `set` to the OIDC options and records that an OIDC flag was given. */
function oidcFlag(name: string, valueType: string, defaultText: string, usage: string, set: (o: OIDCOptions, v: string) => void): FlagSpec {
  return {
    name,
    section: 'Authentication',
    valueType,
    defaultText,
    usage,
    apply: (d, v) => {
      set(d.authentication.oidc, v);
      d.authentication.oidc.flagsSet = true;
    },
  };
}

/** `--authentication-config` and the OpenID Connect flags (spec 001 § OpenID Connect flags, § Authentication configuration file). */
const JWT_FLAGS: readonly FlagSpec[] = [
  {
    name: 'authentication-config',
    section: 'Authentication',
    valueType: 'string',
    defaultText: '""',
    usage: 'File with Authentication Configuration to configure the JWT Token authenticator. Note: This feature is in Beta since v1.30. This flag is mutually exclusive with the --oidc-* flags.',
    apply: (d, v) => (d.authentication.authenticationConfig = optionalPath(v)),
  },
  oidcFlag('oidc-ca-file', 'string', '""', "If set, the OpenID server's certificate will be verified by one of the authorities in the oidc-ca-file, otherwise the host's root CA set will be used.", (o, v) => (o.caFile = optionalPath(v))),
  oidcFlag('oidc-client-id', 'string', '""', 'The client ID for the OpenID Connect client, must be set if oidc-issuer-url is set.', (o, v) => (o.clientID = v === '' ? undefined : v)),
  oidcFlag('oidc-groups-claim', 'string', '""', 'If provided, the name of a custom OpenID Connect claim for specifying user groups. The claim value is expected to be a string or array of strings.', (o, v) => (o.groupsClaim = v)),
  oidcFlag('oidc-groups-prefix', 'string', '""', 'If provided, all groups will be prefixed with this value to prevent conflicts with other authentication strategies.', (o, v) => (o.groupsPrefix = v)),
  oidcFlag('oidc-issuer-url', 'string', '""', 'The URL of the OpenID issuer, only HTTPS scheme will be accepted. If set, it will be used to verify the OIDC JSON Web Token (JWT).', (o, v) => (o.issuerURL = v === '' ? undefined : v)),
  oidcFlag('oidc-required-claim', 'mapStringString', '""', 'A key=value pair that describes a required claim in the ID Token. If set, the claim is verified to be present in the ID Token with a matching value. Repeat this flag to specify multiple claims.', (o, v) => {
    const [key, value] = parseKeyValue(v);
    o.requiredClaims[key] = value;
  }),
  oidcFlag('oidc-signing-algs', 'strings', '[RS256]', "Comma-separated list of allowed JOSE asymmetric signing algorithms. JWTs with a supported 'alg' header values are: RS256, RS384, RS512, ES256, ES384, ES512, PS256, PS384, PS512. Values are defined by RFC 7518 https://tools.ietf.org/html/rfc7518#section-3.1.", (o, v) => {
    o.signingAlgs = signingAlgsGiven.has(o) ? [...o.signingAlgs, ...parseStringSlice(v)] : parseStringSlice(v);
    signingAlgsGiven.add(o);
  }),
  oidcFlag('oidc-username-claim', 'string', '"sub"', "The OpenID claim to use as the user name. Note that claims other than the default ('sub') is not guaranteed to be unique and immutable.", (o, v) => (o.usernameClaim = v)),
  oidcFlag('oidc-username-prefix', 'string', '""', "If provided, all usernames will be prefixed with this value. If not provided, username claims other than 'email' are prefixed by the issuer URL to avoid clashes. To skip any prefixing, provide the value '-'.", (o, v) => (o.usernamePrefix = v)),
];

/** Every Authentication flag, in help order. */
export const AUTHENTICATION_FLAGS: readonly FlagSpec[] = [
  ...JWT_FLAGS,
  {
    name: 'anonymous-auth',
    section: 'Authentication',
    valueType: '',
    defaultText: 'true',
    usage: 'Enables anonymous requests (user system:anonymous, group system:unauthenticated) to the secure port.',
    apply: (d, v) => (d.authentication.anonymousAuth = parseGoBool(v)),
  },
  {
    name: 'client-ca-file',
    section: 'Authentication',
    valueType: 'string',
    defaultText: '""',
    usage: 'If set, a client certificate signed by one of these authorities authenticates as its CommonName, with its Organizations as groups.',
    apply: (d, v) => (d.clientCaFile = optionalPath(v)),
  },
  {
    name: 'token-auth-file',
    section: 'Authentication',
    valueType: 'string',
    defaultText: '""',
    usage: 'If set, the CSV file (token,user,uid,"group1,group2") of static bearer tokens that authenticate requests.',
    apply: (d, v) => (d.authentication.tokenAuthFile = optionalPath(v)),
  },
  {
    name: 'enable-bootstrap-token-auth',
    section: 'Authentication',
    valueType: '',
    defaultText: 'false',
    usage: `Enable to allow secrets of type '${BOOTSTRAP_TOKEN_SECRET_TYPE}' in the '${SYSTEM_NAMESPACE}' namespace to be used for TLS bootstrapping authentication.`,
    apply: (d, v) => (d.authentication.enableBootstrapTokenAuth = parseGoBool(v)),
  },
  {
    name: 'api-audiences',
    section: 'Authentication',
    valueType: 'strings',
    defaultText: '[]',
    usage:
      'Identifiers of the API. The service account token authenticator will validate that tokens used against the API are bound to at least one of these audiences. If this flag is not set, it defaults to the service account issuers.',
    apply: (d, v) => d.authentication.apiAudiences.push(...parseStringSlice(v)),
  },
  {
    name: 'service-account-extend-token-expiration',
    section: 'Authentication',
    valueType: '',
    defaultText: 'true',
    usage:
      'Turns on projected service account expiration extension during token generation, which helps safe transition from legacy token to bound service account token feature. If this flag is enabled, admission injected tokens would be extended up to 1 year to prevent unexpected failure during transition, ignoring value of service-account-max-token-expiration.',
    apply: (d, v) => (d.authentication.serviceAccountExtendTokenExpiration = parseGoBool(v)),
  },
  {
    name: 'service-account-issuer',
    section: 'Authentication',
    valueType: 'stringArray',
    defaultText: `[${DEFAULT_SERVICE_ACCOUNT_ISSUER}]`,
    usage:
      'Identifier of the service account token issuer. The issuer will assert this identifier in "iss" claim of issued tokens. This value is a string or URI; it should be an https URL capable of serving OpenID discovery documents at {service-account-issuer}/.well-known/openid-configuration. When this flag is specified multiple times, the first is used to generate tokens and all are used to determine which issuers are accepted.',
    apply: (d, v) => d.authentication.serviceAccountIssuers.push(v),
  },
  {
    name: 'service-account-jwks-uri',
    section: 'Authentication',
    valueType: 'string',
    defaultText: '""',
    usage:
      "Overrides the URI for the JSON Web Key Set in the discovery doc served at /.well-known/openid-configuration. This flag is useful if the discovery doc and key set are served to relying parties from a URL other than the API server's own address.",
    apply: (d, v) => (d.authentication.serviceAccountJwksUri = optionalPath(v)),
  },
  {
    name: 'service-account-key-file',
    section: 'Authentication',
    valueType: 'stringArray',
    defaultText: '[]',
    usage:
      'File containing PEM-encoded x509 RSA or ECDSA private or public keys, used to verify ServiceAccount tokens. The specified file can contain multiple keys, and the flag can be specified multiple times with different files. If unspecified, --tls-private-key-file (or the generated serving key) is used. Must be specified when --service-account-signing-key-file is provided',
    apply: (d, v) => d.authentication.serviceAccountKeyFiles.push(v),
  },
  {
    name: 'service-account-lookup',
    section: 'Authentication',
    valueType: '',
    defaultText: 'true',
    usage: 'If true, validate ServiceAccount tokens exist in etcd as part of authentication.',
    apply: (d, v) => (d.authentication.serviceAccountLookup = parseGoBool(v)),
  },
  {
    name: 'service-account-max-token-expiration',
    section: 'Authentication',
    valueType: 'duration',
    defaultText: formatDuration(0),
    usage:
      'The maximum validity duration of a token created by the service account token issuer. If an otherwise valid TokenRequest with a validity duration larger than this value is requested, a token will be issued with a validity duration of this value.',
    apply: (d, v) => (d.authentication.serviceAccountMaxTokenExpirationMs = parseDuration(v)),
  },
  {
    name: 'service-account-signing-key-file',
    section: 'Authentication',
    valueType: 'string',
    defaultText: '""',
    usage:
      'Path to the file that contains the current private key of the service account token issuer. The issuer will sign issued ID tokens with this private key. If unspecified, the serving key is used.',
    apply: (d, v) => (d.authentication.serviceAccountSigningKeyFile = optionalPath(v)),
  },
  {
    name: 'authentication-token-webhook-cache-ttl',
    section: 'Authentication',
    valueType: 'duration',
    defaultText: formatDuration(DEFAULT_WEBHOOK_CACHE_TTL_MS),
    usage: 'The duration to cache responses from the webhook token authenticator.',
    apply: (d, v) => (d.authentication.tokenWebhookCacheTTLMs = parseDuration(v)),
  },
  {
    name: 'authentication-token-webhook-config-file',
    section: 'Authentication',
    valueType: 'string',
    defaultText: '""',
    usage:
      'File with webhook configuration for token authentication in kubeconfig format. The API server will query the remote service to determine authentication for bearer tokens.',
    apply: (d, v) => (d.authentication.tokenWebhookConfigFile = optionalPath(v)),
  },
  {
    name: 'authentication-token-webhook-version',
    section: 'Authentication',
    valueType: 'string',
    defaultText: JSON.stringify(DEFAULT_WEBHOOK_VERSION),
    usage: `The API version of the ${vendorGroup('authentication')} TokenReview to send to and expect from the webhook.`,
    apply: (d, v) => (d.authentication.tokenWebhookVersion = v),
  },
  {
    name: 'requestheader-allowed-names',
    section: 'Authentication',
    valueType: 'strings',
    defaultText: '[]',
    usage:
      'List of client certificate common names to allow to provide usernames in headers specified by --requestheader-username-headers. If empty, any client certificate validated by the authorities in --requestheader-client-ca-file is allowed.',
    apply: (d, v) => d.authentication.requestHeaderAllowedNames.push(...parseStringSlice(v)),
  },
  {
    name: 'requestheader-client-ca-file',
    section: 'Authentication',
    valueType: 'string',
    defaultText: '""',
    usage:
      'Root certificate bundle to use to verify client certificates on incoming requests before trusting usernames in headers specified by --requestheader-username-headers. WARNING: generally do not depend on authorization being already done for incoming requests.',
    apply: (d, v) => (d.authentication.requestHeaderClientCaFile = optionalPath(v)),
  },
  {
    name: 'requestheader-extra-headers-prefix',
    section: 'Authentication',
    valueType: 'strings',
    defaultText: '[]',
    usage: 'List of request header prefixes to inspect. X-Remote-Extra- is suggested.',
    apply: (d, v) => d.authentication.requestHeaderExtraHeadersPrefix.push(...parseStringSlice(v)),
  },
  {
    name: 'requestheader-group-headers',
    section: 'Authentication',
    valueType: 'strings',
    defaultText: '[]',
    usage: 'List of request headers to inspect for groups. X-Remote-Group is suggested.',
    apply: (d, v) => d.authentication.requestHeaderGroupHeaders.push(...parseStringSlice(v)),
  },
  {
    name: 'requestheader-username-headers',
    section: 'Authentication',
    valueType: 'strings',
    defaultText: '[]',
    usage: 'List of request headers to inspect for usernames. X-Remote-User is common.',
    apply: (d, v) => d.authentication.requestHeaderUsernameHeaders.push(...parseStringSlice(v)),
  },
];
