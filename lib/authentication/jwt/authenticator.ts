/**
 * JWT (OpenID Connect) bearer-token authentication (spec 001 § OpenID Connect flags,
 * § Authentication configuration file): one authenticator per configured issuer, and the set of
 * them the server asks. A token whose unverified `iss` names a configured issuer belongs to that
 * issuer's authenticator, which either returns the user or rejects it (401); any other token is
 * not the set's (null). The user carries exactly what upstream produces: the username (claim with
 * its prefix, or expression), uid, groups (claim — a string or list of strings — with its prefix,
 * or expression) and extra. A groups claim mapped by `claim` may be distributed (distributed-claims.ts).
 */
import { goJSONTypeName } from '../../apimachinery/serializers/go-json-errors.js';
import type { PreparedActivation } from '../../cel/index.js';
import type { UserInfo } from '../../request/user.js';
import { AuthenticationError, type AuthResult, type TokenAuthenticator } from '../interface.js';
import { CLAIMS_VARIABLE, USER_VARIABLE, claimsEnvironment, evaluate, stringList, userEnvironment } from './cel.js';
import { DistributedClaimResolver } from './distributed-claims.js';
import { OIDCProvider, type ProviderTiming } from './provider.js';
import { checkAudiences, checkToken, untrustedIssuer, verifySignature, type ParsedToken } from './token.js';
import type { CompiledJWTAuthenticator, CompiledRule } from './validation.js';

/** How an authenticator verifies tokens and reaches its provider. */
export interface JWTAuthenticatorOptions {
  /** Accepted signing algorithms (`--oidc-signing-algs`; every allowed one for a configuration file). */
  signingAlgs: readonly string[];
  /** Background timing of the provider (tests shorten it). */
  timing?: ProviderTiming;
  /** The clock, in milliseconds since the epoch (default Date.now). */
  now?: () => number;
  /** Reports a provider's failed discovery or key refresh. */
  onProviderError?: (issuer: string, err: Error) => void;
}

/** Go's `json.Unmarshal` of a claim into a string: the string, or the error upstream reports. */
function stringClaim(claims: Record<string, unknown>, name: string): string {
  if (!Object.hasOwn(claims, name)) throw new Error('claim not present');
  const v = claims[name];
  if (v === null) return '';
  if (typeof v !== 'string') throw new Error(`json: cannot unmarshal ${goJSONTypeName(v)} into Go value of type string`);
  return v;
}

/** Upstream's failure of a rule: the expression is false (or not a bool). */
function checkRules(rules: readonly CompiledRule[], results: readonly unknown[]): void {
  rules.forEach((rule, i) => {
    if (typeof results[i] !== 'boolean') throw new Error('validation expression must return a boolean');
    if (!results[i]) throw new Error(`validation expression '${rule.expression}' failed: ${rule.message}`);
  });
}

/** The authenticator of one issuer (`jwt[]` entry, or the `--oidc-*` flags). */
export class IssuerAuthenticator {
  readonly issuer: string;
  readonly provider: OIDCProvider;
  private readonly now: () => number;
  private readonly requiredClaims: ReadonlyArray<[string, string]>;
  /** Resolves a distributed groups claim (only when groups are mapped by claim). */
  private readonly resolver: DistributedClaimResolver | undefined;

  constructor(
    private readonly compiled: CompiledJWTAuthenticator,
    private readonly opts: JWTAuthenticatorOptions,
  ) {
    const issuer = compiled.config.issuer;
    this.issuer = issuer.url;
    this.now = opts.now ?? Date.now;
    this.requiredClaims = compiled.config.claimValidationRules.filter((r) => r.claim !== '').map((r) => [r.claim, r.requiredValue]);
    this.provider = new OIDCProvider({
      ...opts.timing,
      issuerURL: issuer.url,
      discoveryURL: issuer.discoveryURL,
      ca: issuer.certificateAuthority || undefined,
      onError: (err) => opts.onProviderError?.(issuer.url, err),
    });
    const groupsClaim = compiled.config.claimMappings.groups.claim;
    this.resolver =
      groupsClaim === ''
        ? undefined
        : new DistributedClaimResolver({
            claim: groupsClaim,
            audiences: issuer.audiences,
            signingAlgs: opts.signingAlgs,
            ca: issuer.certificateAuthority || undefined,
            timing: opts.timing,
            now: this.now,
            onProviderError: opts.onProviderError,
          });
  }

  /** Starts the provider's discovery and key refresh in the background. */
  start(): void {
    this.provider.start();
  }

  /** Stops the provider's background work. */
  stop(): void {
    this.provider.stop();
    this.resolver?.stop();
  }

  /**
   * Verifies a token of this issuer and maps it to a user.
   * @throws AuthenticationError with upstream's reason (`oidc: verify token: …`, `oidc: email not
   *   verified`, `oidc: error evaluating claim validation expression: …`) for any failure,
   *   including a provider that is not initialised yet.
   */
  async authenticate(raw: string): Promise<UserInfo> {
    try {
      return await this.authenticateOrThrow(raw);
    } catch (err) {
      throw err instanceof AuthenticationError ? err : new AuthenticationError((err as Error).message);
    }
  }

  private async authenticateOrThrow(raw: string): Promise<UserInfo> {
    if (!this.provider.ready) throw new Error('oidc: authenticator not initialized');
    const issuer = this.compiled.config.issuer;
    let token: ParsedToken;
    try {
      token = checkToken(raw, { issuer: issuer.url, audiences: issuer.audiences, signingAlgs: this.opts.signingAlgs, now: this.now() });
      const sig = await verifySignature(token, this.provider.currentKeys);
      if (!sig.ok) {
        this.provider.requestRefresh();
        throw new Error('failed to verify signature: failed to verify id token signature');
      }
      checkAudiences(token, issuer.audiences);
    } catch (err) {
      throw new Error(`oidc: verify token: ${(err as Error).message}`, { cause: err });
    }
    const claims = token.claims;
    if (this.resolver) {
      try {
        await this.resolver.expand(claims);
      } catch (err) {
        throw new Error(`oidc: could not expand distributed claims: ${(err as Error).message}`, { cause: err });
      }
    }
    const needsCEL = this.compiled.username || this.compiled.groups || this.compiled.uid || this.compiled.extra.length > 0 || this.compiled.claimValidationRules.length > 0;
    const activation = needsCEL ? claimsEnvironment().prepare({ [CLAIMS_VARIABLE]: claims }) : undefined;

    const user: UserInfo = { name: this.username(claims, activation), groups: this.groups(claims, activation) };
    const uid = this.uid(claims, activation);
    if (uid !== '') user.uid = uid;
    const extra = this.extra(activation);
    if (Object.keys(extra).length > 0) user.extra = extra;

    for (const [claim, want] of this.requiredClaims) {
      if (!Object.hasOwn(claims, claim)) throw new Error(`oidc: required claim ${claim} not present in ID token`);
      let got: string;
      try {
        got = stringClaim(claims, claim);
      } catch (err) {
        throw new Error(`oidc: parse claim ${claim}: ${(err as Error).message}`, { cause: err });
      }
      if (got !== want) throw new Error(`oidc: required claim ${claim} value does not match. Got = ${got}, want = ${want}`);
    }
    if (this.compiled.claimValidationRules.length > 0) {
      try {
        checkRules(this.compiled.claimValidationRules, this.compiled.claimValidationRules.map((r) => evaluate(r.program, activation!)));
      } catch (err) {
        throw new Error(`oidc: error evaluating claim validation expression: ${(err as Error).message}`, { cause: err });
      }
    }
    if (this.compiled.userValidationRules.length > 0) {
      const userActivation = userEnvironment().prepare({
        [USER_VARIABLE]: { username: user.name, uid: user.uid ?? '', groups: user.groups, extra: user.extra ?? {} },
      });
      try {
        checkRules(this.compiled.userValidationRules, this.compiled.userValidationRules.map((r) => evaluate(r.program, userActivation)));
      } catch (err) {
        throw new Error(`oidc: error evaluating user info validation rule: ${(err as Error).message}`, { cause: err });
      }
    }
    return user;
  }

  private username(claims: Record<string, unknown>, activation: PreparedActivation | undefined): string {
    const mapping = this.compiled.config.claimMappings.username;
    if (this.compiled.username) {
      let value: unknown;
      try {
        value = evaluate(this.compiled.username, activation!);
      } catch (err) {
        throw new Error(`oidc: error evaluating username claim expression: ${(err as Error).message}`, { cause: err });
      }
      if (typeof value !== 'string') throw new Error('oidc: error evaluating username claim expression: username claim expression must return a string');
      if (value === '') throw new Error('oidc: empty username via CEL expression is not allowed');
      return value;
    }
    let username: string;
    try {
      username = stringClaim(claims, mapping.claim);
    } catch (err) {
      throw new Error(`oidc: parse username claims ${JSON.stringify(mapping.claim)}: ${(err as Error).message}`, { cause: err });
    }
    if (mapping.claim === 'email' && Object.hasOwn(claims, 'email_verified')) {
      const verified = claims.email_verified;
      if (verified !== null && typeof verified !== 'boolean') {
        throw new Error(`oidc: parse 'email_verified' claim: json: cannot unmarshal ${goJSONTypeName(verified)} into Go value of type bool`);
      }
      if (!verified) throw new Error('oidc: email not verified');
    }
    return (mapping.prefix ?? '') + username;
  }

  private groups(claims: Record<string, unknown>, activation: PreparedActivation | undefined): string[] {
    const mapping = this.compiled.config.claimMappings.groups;
    if (mapping.claim !== '' && Object.hasOwn(claims, mapping.claim)) {
      const v = claims[mapping.claim];
      let groups: string[];
      if (v === null) groups = [];
      else if (typeof v === 'string') groups = [v];
      else if (Array.isArray(v) && v.every((g) => typeof g === 'string')) groups = [...(v as string[])];
      else throw new Error(`oidc: parse groups claim ${JSON.stringify(mapping.claim)}: json: cannot unmarshal ${goJSONTypeName(v)} into Go value of type string`);
      const prefix = mapping.prefix ?? '';
      return prefix === '' ? groups : groups.map((g) => prefix + g);
    }
    if (!this.compiled.groups) return [];
    try {
      return stringList(evaluate(this.compiled.groups, activation!));
    } catch (err) {
      throw new Error(`oidc: error evaluating group claim expression: ${(err as Error).message}`, { cause: err });
    }
  }

  private uid(claims: Record<string, unknown>, activation: PreparedActivation | undefined): string {
    const claim = this.compiled.config.claimMappings.uid.claim;
    if (claim !== '') {
      try {
        return stringClaim(claims, claim);
      } catch (err) {
        throw new Error(`oidc: parse uid claim ${JSON.stringify(claim)}: ${(err as Error).message}`, { cause: err });
      }
    }
    if (!this.compiled.uid) return '';
    let value: unknown;
    try {
      value = evaluate(this.compiled.uid, activation!);
    } catch (err) {
      throw new Error(`oidc: error evaluating uid claim expression: ${(err as Error).message}`, { cause: err });
    }
    if (typeof value !== 'string') throw new Error('oidc: error evaluating uid claim expression: uid claim expression must return a string');
    return value;
  }

  private extra(activation: PreparedActivation | undefined): Record<string, string[]> {
    const extra: Record<string, string[]> = {};
    for (const mapping of this.compiled.extra) {
      const value = evaluate(mapping.program, activation!);
      let values: string[];
      try {
        values = stringList(value);
      } catch (err) {
        throw new Error(`oidc: error evaluating extra claim expression: ${mapping.program.expression}: ${(err as Error).message}`, { cause: err });
      }
      if (values.length > 0) extra[mapping.key] = values;
    }
    return extra;
  }
}

/**
 * The JWT authenticators of the server, by issuer, swappable as a whole (a configuration reload
 * replaces them atomically). A token is checked against its issuer's own audiences only; like
 * upstream's, the set is audience-agnostic towards the audiences a request asks for (the control
 * plane wraps it so its tokens stand for the API audiences).
 */
export class JWTAuthenticatorSet implements TokenAuthenticator {
  private byIssuer: ReadonlyMap<string, IssuerAuthenticator>;

  constructor(authenticators: readonly IssuerAuthenticator[]) {
    this.byIssuer = new Map(authenticators.map((a) => [a.issuer, a]));
  }

  /** The current authenticators. */
  get authenticators(): IssuerAuthenticator[] {
    return [...this.byIssuer.values()];
  }

  /** Replaces every authenticator at once; returns the ones replaced (the caller stops them). */
  replace(authenticators: readonly IssuerAuthenticator[]): IssuerAuthenticator[] {
    const old = this.authenticators;
    this.byIssuer = new Map(authenticators.map((a) => [a.issuer, a]));
    return old;
  }

  /** null for a token that is not a JWT of a configured issuer; else the user, or AuthenticationError. */
  async authenticateToken(token: string): Promise<AuthResult | null> {
    const iss = untrustedIssuer(token);
    const authenticator = iss === undefined ? undefined : this.byIssuer.get(iss);
    return authenticator ? { user: await authenticator.authenticate(token) } : null;
  }
}
