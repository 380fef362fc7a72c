/**
 * Parsing and verifying an OIDC ID token (a compact JWS) the way upstream's verifier does, in its
 * order and with its messages: the token is split and its claims decoded, then issuer, audience,
 * expiry (no leeway) and not-before (one minute of leeway; `iat` is not checked) are checked,
 * then the signing algorithm against the allow-list (`none` and HMAC are never in it), then the
 * signature with the provider's keys (jose), and last the audience match policy. Every failure is an Error whose message is
 * upstream's (`oidc: token is expired (Token Expiry: …)`).
 */
import { compactVerify } from 'jose';
import { goJSONTypeName } from '../../apimachinery/serializers/go-json-errors.js';
import type { ProviderKey } from './provider.js';

/** Leeway on `nbf`, in milliseconds (upstream's verifier allows one minute). */
export const NOT_BEFORE_LEEWAY_MS = 60_000;

/** A token split into its parts, its header and claims decoded (nothing verified yet). */
export interface ParsedToken {
  raw: string;
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
  /** The token's `aud`, as a list. */
  audiences: string[];
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** Go's RawURLEncoding: the URL alphabet without padding; undefined when `s` is not such text. */
function decodeBase64URL(s: string): Buffer | undefined {
  if (!BASE64URL.test(s) || s.length % 4 === 1) return undefined;
  return Buffer.from(s, 'base64url');
}

function decodeJSONObject(s: string): Record<string, unknown> | undefined {
  const bytes = decodeBase64URL(s);
  if (!bytes) return undefined;
  try {
    const v: unknown = JSON.parse(bytes.toString('utf8'));
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The token's `iss`, unverified, or undefined when the token is not a compact JWT whose payload
 * is a JSON object with a string `iss` — upstream's test of whether a token is for an issuer
 * (`accounts.google.com` reads as `https://accounts.google.com`).
 */
export function untrustedIssuer(token: string): string | undefined {
  if (token.trimStart().startsWith('{')) return undefined;
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const claims = decodeJSONObject(parts[1]!);
  if (!claims) return undefined;
  const iss = claims.iss ?? '';
  if (typeof iss !== 'string') return undefined;
  return iss === 'accounts.google.com' ? 'https://accounts.google.com' : iss;
}

/** Go's `%q` of a string list: `["a" "b"]`. */
export function goQuoteList(values: readonly string[]): string {
  return `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;
}

/** Go's default formatting of a time (`2024-05-01 10:00:00 +0000 UTC`). */
function goTime(ms: number): string {
  const iso = new Date(ms).toISOString();
  const fraction = iso.slice(20, 23).replace(/0+$/, '');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction ? `.${fraction}` : ''} +0000 UTC`;
}

/** The token's audiences: `aud` as a string or a list of strings. @throws Error for another type. */
function audiences(claims: Record<string, unknown>): string[] {
  const aud = claims.aud;
  if (aud === undefined || aud === null) return [];
  if (typeof aud === 'string') return [aud];
  if (Array.isArray(aud) && aud.every((a) => typeof a === 'string')) return aud as string[];
  throw new Error(`oidc: failed to unmarshal claims: json: cannot unmarshal ${goJSONTypeName(aud)} into Go value of type string`);
}

/** A numeric date claim in milliseconds (undefined when absent). @throws Error when it is not a number. */
function numericDate(claims: Record<string, unknown>, name: string): number | undefined {
  const v = claims[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number') throw new Error(`oidc: failed to unmarshal claims: json: cannot unmarshal ${goJSONTypeName(v)} into Go struct field idToken.${name} of type json.Number`);
  return v * 1000;
}

/** What a token must satisfy, besides its signature. */
export interface VerifyOptions {
  /** The issuer URL the token must name. */
  issuer: string;
  /** Accepted audiences; one must be in the token's `aud`. */
  audiences: readonly string[];
  /** Accepted `alg` values. */
  signingAlgs: readonly string[];
  /** The current time, in milliseconds since the epoch. */
  now: number;
}

/**
 * Parses and checks `raw` up to (not including) the signature, in upstream's order.
 * @throws Error with upstream's message for a malformed token, undecodable claims, a wrong
 *   issuer or audience, an expired or not-yet-valid token, or a disallowed algorithm.
 */
export function checkToken(raw: string, opts: VerifyOptions): ParsedToken {
  const parts = raw.split('.');
  if (parts.length !== 3) throw new Error('oidc: malformed jwt: square/go-jose: compact JWS format must have three parts');
  const header = decodeJSONObject(parts[0]!);
  if (!header || decodeBase64URL(parts[2]!) === undefined) throw new Error('oidc: malformed jwt: illegal base64 data or header');
  const claims = decodeJSONObject(parts[1]!);
  if (!claims) throw new Error('oidc: failed to unmarshal claims: invalid JSON object');
  for (const name of ['iss', 'sub', 'nonce', 'at_hash']) {
    const v = claims[name];
    if (v !== undefined && v !== null && typeof v !== 'string') {
      throw new Error(`oidc: failed to unmarshal claims: json: cannot unmarshal ${goJSONTypeName(v)} into Go struct field idToken.${name} of type string`);
    }
  }
  const aud = audiences(claims);
  const exp = numericDate(claims, 'exp') ?? 0;
  // `iat` must decode as a number, but upstream never compares it with the clock.
  numericDate(claims, 'iat');
  const nbf = numericDate(claims, 'nbf');

  let iss = (claims.iss as string | undefined) ?? '';
  if (iss === 'accounts.google.com' && opts.issuer === 'https://accounts.google.com') iss = opts.issuer;
  if (iss !== opts.issuer) throw new Error(`oidc: id token issued by a different provider, expected ${JSON.stringify(opts.issuer)} got ${JSON.stringify(iss)}`);
  if (opts.audiences.length === 1 && !aud.includes(opts.audiences[0]!)) {
    throw new Error(`oidc: expected audience ${JSON.stringify(opts.audiences[0])} got ${goQuoteList(aud)}`);
  }
  if (exp < opts.now) throw new Error(`oidc: token is expired (Token Expiry: ${goTime(exp)})`);
  if (nbf !== undefined && opts.now + NOT_BEFORE_LEEWAY_MS < nbf) {
    throw new Error(`oidc: current time ${goTime(opts.now)} before the nbf (not before) time: ${goTime(nbf)}`);
  }
  const alg = typeof header.alg === 'string' ? header.alg : '';
  if (!opts.signingAlgs.includes(alg)) {
    throw new Error(`oidc: id token signed with unsupported algorithm, expected ${goQuoteList(opts.signingAlgs)} got ${JSON.stringify(alg)}`);
  }
  return { raw, header, claims, audiences: aud };
}

/**
 * The audience check upstream makes after the signature (`audienceMatchPolicy: MatchAny`): one of
 * the token's audiences must be accepted.
 * @throws Error `oidc: expected audience in ["a" "b"] got ["c"]`.
 */
export function checkAudiences(token: ParsedToken, accepted: readonly string[]): void {
  if (!token.audiences.some((a) => accepted.includes(a))) {
    throw new Error(`oidc: expected audience in ${goQuoteList([...new Set(accepted)].sort())} got ${goQuoteList(token.audiences)}`);
  }
}

/** The outcome of a signature check: verified, or not and whether the key set lacked the token's key. */
export type SignatureResult = { ok: true } | { ok: false; unknownKey: boolean };

/**
 * Verifies the token's signature with the keys whose `kid` is the token's (every key when the
 * token names none) and that may sign with its algorithm.
 */
export async function verifySignature(token: ParsedToken, keys: readonly ProviderKey[]): Promise<SignatureResult> {
  const kid = typeof token.header.kid === 'string' ? token.header.kid : undefined;
  const alg = token.header.alg as string;
  const candidates = keys.filter((k) => (kid === undefined || k.kid === kid) && (k.alg === undefined || k.alg === alg));
  for (const k of candidates) {
    try {
      await compactVerify(token.raw, k.key, { algorithms: [alg] });
      return { ok: true };
    } catch {
      // Not this key; try the next.
    }
  }
  return { ok: false, unknownKey: candidates.length === 0 };
}
