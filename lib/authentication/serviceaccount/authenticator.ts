/**
 * The service-account token authenticator (upstream `JWTTokenAuthenticator`, v1.30): a bearer
 * token that is a compact JWS whose unverified `iss` is one of ours is ours; anything else is
 * "not mine" (null). Ours is then verified with the service-account public keys, its issuer and
 * audiences checked (issue #10 item 9), and its claims handed to a validator (bound or legacy).
 * A token of ours that fails any check is rejected (AuthenticationError → 401).
 * spec 001 § Methods, "Service account token".
 */
import { compactVerify, errors as joseErrors } from 'jose';
import { intersectAudiences } from '../audiences.js';
import { type AuthResult, AuthenticationError, type TokenAuthenticator } from '../interface.js';
import type { RegisteredClaims, TokenClaims, TokenValidator } from './claims.js';
import type { ServiceAccountPublicKey, SigningAlgorithm } from './keys.js';
import { serviceAccountUser } from './util.js';

/** Algorithms a key of each kind verifies (go-jose accepts every RSA algorithm with an RSA key, the curve's one with an ECDSA key). */
const VERIFY_ALGORITHMS: Record<SigningAlgorithm, readonly string[]> = {
  RS256: ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'],
  ES256: ['ES256'],
  ES384: ['ES384'],
  ES512: ['ES512'],
};

/** go-jose's error texts, which upstream reports as they are. */
const ERR_CRYPTO = 'square/go-jose: error in cryptographic primitive';
const ERR_UNSUPPORTED_ALG = 'square/go-jose: unknown/unsupported algorithm';

/** Options of a service-account token authenticator. */
export interface ServiceAccountAuthenticatorOptions {
  /** The issuers whose tokens are ours (`--service-account-issuer`, or the legacy issuer). */
  issuers: readonly string[];
  /** The keys tokens may be signed with (`--service-account-key-file`). */
  keys: readonly ServiceAccountPublicKey[];
  /** The API audiences (`--api-audiences`): assumed for tokens without `aud`, and asked for when the caller names none. */
  implicitAudiences: readonly string[];
  validator: TokenValidator;
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** Go's `base64.RawURLEncoding.DecodeString`: strict alphabet, no padding; undefined when invalid. */
function decodeRawURL(part: string): Buffer | undefined {
  if (!BASE64URL.test(part) || part.length % 4 === 1) return undefined;
  return Buffer.from(part, 'base64url');
}

function parseJSONObject(bytes: Buffer): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(bytes.toString('utf8'));
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Go's `%q` of a string list: `["a" "b"]`. */
function goQuoteList(list: readonly string[]): string {
  return `[${list.map((s) => JSON.stringify(s)).join(' ')}]`;
}

/** Decodes the registered claims with go-jose's types (`aud` a string or a list of strings, times numbers). */
function registeredClaims(payload: Record<string, unknown>): RegisteredClaims {
  const bad = (name: string) => new AuthenticationError(`json: cannot unmarshal ${name} claim`);
  const c: RegisteredClaims = {};
  for (const k of ['iss', 'sub', 'jti'] as const) {
    const v = payload[k];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') throw bad(k);
    c[k] = v;
  }
  for (const k of ['exp', 'nbf', 'iat'] as const) {
    const v = payload[k];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'number' || !Number.isFinite(v)) throw bad(k);
    c[k] = Math.trunc(v);
  }
  const aud = payload.aud;
  if (typeof aud === 'string') c.aud = [aud];
  else if (Array.isArray(aud)) {
    if (!aud.every((a) => typeof a === 'string')) throw bad('aud');
    c.aud = aud as string[];
  } else if (aud !== undefined && aud !== null) throw bad('aud');
  return c;
}

/** Authenticates service-account JWTs of the configured issuers. */
export class ServiceAccountTokenAuthenticator implements TokenAuthenticator {
  private readonly issuers: ReadonlySet<string>;

  constructor(private readonly opts: ServiceAccountAuthenticatorOptions) {
    this.issuers = new Set(opts.issuers);
  }

  /**
   * null when the token is not a JWS of one of our issuers; otherwise the service account's user
   * and the audiences (the token's `aud` that were asked for).
   * @throws AuthenticationError for a token of ours that is invalid.
   */
  async authenticateToken(token: string, audiences: readonly string[]): Promise<AuthResult | null> {
    if (token.trimStart().startsWith('{')) return null;
    const parts = token.split('.');
    if (parts.length !== 3) return null;
    const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
    const payloadBytes = decodeRawURL(payloadPart);
    const payload = payloadBytes && parseJSONObject(payloadBytes);
    if (!payload) return null;
    // Unverified: only decides whether the token is ours.
    if (typeof payload.iss !== 'string' || !this.issuers.has(payload.iss)) return null;
    const headerBytes = decodeRawURL(headerPart);
    const header = headerBytes && parseJSONObject(headerBytes);
    if (!header || !decodeRawURL(signaturePart)) return null;

    await this.verifySignature(token, typeof header.kid === 'string' ? header.kid : '');
    const registered = registeredClaims(payload);
    const claims: TokenClaims = { ...registered, payload };
    if (!this.issuers.has(registered.iss ?? '')) throw new AuthenticationError(`token issuer ${JSON.stringify(registered.iss ?? '')} is invalid`);

    const implicit = this.opts.implicitAudiences;
    const tokenAudiences = registered.aud && registered.aud.length > 0 ? registered.aud : implicit;
    const requested = audiences.length > 0 ? audiences : implicit;
    const matched = intersectAudiences(tokenAudiences, requested);
    if (matched.length === 0 && implicit.length > 0) {
      throw new AuthenticationError(`token audiences ${goQuoteList(tokenAudiences)} is invalid for the target audiences ${goQuoteList(requested)}`);
    }

    const sa = await this.opts.validator.validate(token, claims);
    return { user: serviceAccountUser(sa), audiences: matched };
  }

  /**
   * Verifies the signature with the keys whose id is the token's `kid` first, then every other
   * key (upstream tries all keys, so rotated keys keep verifying).
   * @throws AuthenticationError with go-jose's message(s) when no key verifies it.
   */
  private async verifySignature(token: string, kid: string): Promise<void> {
    const keys = this.opts.keys;
    if (keys.length === 0) throw new AuthenticationError('invalid signature, no keys found');
    const ordered = kid ? [...keys.filter((k) => k.keyId === kid), ...keys.filter((k) => k.keyId !== kid)] : keys;
    const failures = new Set<string>();
    for (const k of ordered) {
      try {
        await compactVerify(token, k.key, { algorithms: [...VERIFY_ALGORITHMS[k.algorithm]] });
        return;
      } catch (err) {
        failures.add(err instanceof joseErrors.JOSEAlgNotAllowed || err instanceof joseErrors.JOSENotSupported ? ERR_UNSUPPORTED_ALG : ERR_CRYPTO);
      }
    }
    const list = [...failures];
    throw new AuthenticationError(list.length === 1 ? list[0]! : `[${list.join(', ')}]`);
  }
}
