/**
 * The `--oidc-*` flags (spec 001 § OpenID Connect flags) and their translation into one JWT
 * authenticator of an AuthenticationConfiguration, as upstream translates them: audience the
 * client ID; username from the claim with the issuer URL and `#` as prefix unless the claim is
 * `email` or a prefix is given (`-` disables prefixing); groups from the claim with the groups
 * prefix; each required claim a claim validation rule; the CA file's content the issuer's CA.
 */
import type { JWTAuthenticatorConfig } from './config.js';

/** The asymmetric algorithms upstream allows (its `allowedSigningAlgs`). */
export const ALL_SIGNING_ALGORITHMS: readonly string[] = ['ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512', 'RS256', 'RS384', 'RS512'];

/** The OIDC flags, one member per flag. */
export interface OIDCOptions {
  /** `--oidc-issuer-url`: the issuer, https only. */
  issuerURL?: string;
  /** `--oidc-client-id`: the audience every token must carry. */
  clientID?: string;
  /** `--oidc-username-claim` (default `sub`). */
  usernameClaim: string;
  /** `--oidc-username-prefix` ('' = the default rule; `-` = no prefix). */
  usernamePrefix: string;
  /** `--oidc-groups-claim` ('' = no groups from a claim). */
  groupsClaim: string;
  /** `--oidc-groups-prefix`. */
  groupsPrefix: string;
  /** `--oidc-required-claim` (repeatable `key=value`): claims that must be present with these values. */
  requiredClaims: Record<string, string>;
  /** `--oidc-ca-file`: the CA bundle of the provider's TLS certificate (default: the default trust store). */
  caFile?: string;
  /** `--oidc-signing-algs` (default `[RS256]`). */
  signingAlgs: string[];
  /** Whether any `--oidc-*` flag was given (upstream's FlagsSet): mixing them with `--authentication-config` is an error. */
  flagsSet: boolean;
}

/** The OIDC flags before any is given. */
export function defaultOIDCOptions(): OIDCOptions {
  return { usernameClaim: 'sub', usernamePrefix: '', groupsClaim: '', groupsPrefix: '', requiredClaims: {}, signingAlgs: ['RS256'], flagsSet: false };
}

/**
 * The JWT authenticator the flags configure (`issuerURL` and `clientID` set). `caContent`: the
 * content of `--oidc-ca-file`, when given.
 */
export function authenticatorFromOIDCOptions(o: OIDCOptions, caContent: string | undefined): JWTAuthenticatorConfig {
  const issuerURL = o.issuerURL ?? '';
  let usernamePrefix = o.usernamePrefix;
  if (usernamePrefix === '' && o.usernameClaim !== 'email') usernamePrefix = `${issuerURL}#`;
  if (usernamePrefix === '-') usernamePrefix = '';
  return {
    issuer: { url: issuerURL, discoveryURL: '', certificateAuthority: caContent ?? '', audiences: [o.clientID ?? ''], audienceMatchPolicy: '' },
    claimValidationRules: Object.keys(o.requiredClaims)
      .sort()
      .map((claim) => ({ claim, requiredValue: o.requiredClaims[claim]!, expression: '', message: '' })),
    claimMappings: {
      username: { claim: o.usernameClaim, prefix: usernamePrefix, expression: '' },
      groups: o.groupsClaim === '' ? { claim: '', expression: '' } : { claim: o.groupsClaim, prefix: o.groupsPrefix, expression: '' },
      uid: { claim: '', expression: '' },
      extra: [],
    },
    userValidationRules: [],
  };
}
