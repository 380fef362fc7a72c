/**
 * The token cache in front of the bearer token authenticators (upstream's cached token
 * authenticator, issue #10 quality bars): a verdict per (audiences, token) kept for a short
 * time so a client sending the same token on every request pays for its verification once.
 *
 * - Keyed by a SHA-256 of a per-process random salt, the token and the audiences asked for,
 *   each length-prefixed (upstream: an HMAC-SHA-256 with a random key; a salted hash is as safe
 *   here, the digest never leaving the process, and costs half): the raw token is never kept.
 * - Successes live `successTTLMs` (upstream kube-apiserver: 10 s), never beyond the `exp` of a
 *   JWT-shaped token; failures `failureTTLMs` (upstream kube-apiserver: 0, not cached).
 * - Concurrent lookups of one key share one call of the wrapped authenticator.
 * - At most `maxEntries` verdicts, the least recently used evicted first.
 */
import { createHash, randomBytes } from 'node:crypto';
import { type AuthResult, AuthenticationError, type TokenAuthenticator } from './interface.js';

/** Options of the cache; times in milliseconds. */
export interface TokenCacheOptions {
  /** How long a success is kept (upstream kube-apiserver `TokenSuccessCacheTTL`: 10 s). */
  successTTLMs: number;
  /** How long a failure (unknown or rejected token) is kept (upstream kube-apiserver: 0, never). */
  failureTTLMs: number;
  /** Most verdicts kept (default 4096). */
  maxEntries?: number;
  /** The clock (ms since the epoch; default Date.now), for tests. */
  now?: () => number;
}

/** The cache settings of the upstream kube-apiserver. */
export const UPSTREAM_TOKEN_CACHE: TokenCacheOptions = { successTTLMs: 10_000, failureTTLMs: 0 };

const DEFAULT_MAX_ENTRIES = 4096;

/** A verdict of the wrapped authenticator: a result (null = unknown token) or a rejection. */
type Verdict = { result: AuthResult | null } | { error: AuthenticationError };

interface Entry {
  verdict: Verdict;
  /** ms since the epoch. */
  expiresAt: number;
}

/**
 * Milliseconds until the `exp` claim of a JWT-shaped token (three base64url parts whose middle
 * one is a JSON object with a numeric `exp`, in seconds); Infinity for any other token.
 */
export function msUntilExpiry(token: string, now: number): number {
  const first = token.indexOf('.');
  const second = first < 0 ? -1 : token.indexOf('.', first + 1);
  if (second < 0 || token.indexOf('.', second + 1) >= 0) return Infinity;
  try {
    const claims: unknown = JSON.parse(Buffer.from(token.slice(first + 1, second), 'base64url').toString('utf8'));
    const exp = (claims as { exp?: unknown } | null)?.exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 - now : Infinity;
  } catch {
    return Infinity;
  }
}

/** A copy of a result whose user the caller may change without touching the cached one. */
function copyOf(res: AuthResult | null): AuthResult | null {
  return res && { ...res, user: { ...res.user, groups: [...res.user.groups] } };
}

/** Caches the verdicts of `inner`. */
export class CachedTokenAuthenticator implements TokenAuthenticator {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<Verdict>>();
  private readonly salt = randomBytes(32);
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(
    private readonly inner: TokenAuthenticator,
    private readonly opts: TokenCacheOptions,
  ) {
    this.maxEntries = opts.maxEntries ?? DEFAULT_MAX_ENTRIES;
    this.now = opts.now ?? Date.now;
  }

  /** Number of verdicts held (expired ones included until they are next looked up or evicted). */
  get size(): number {
    return this.entries.size;
  }

  /**
   * The wrapped authenticator's verdict on `token` for `audiences`, from the cache when fresh.
   * @throws AuthenticationError as the wrapped authenticator does.
   */
  async authenticateToken(token: string, audiences: readonly string[]): Promise<AuthResult | null> {
    const key = this.keyOf(token, audiences);
    const entry = this.entries.get(key);
    let verdict: Verdict;
    if (entry && entry.expiresAt > this.now()) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      verdict = entry.verdict;
    } else {
      if (entry) this.entries.delete(key);
      verdict = await this.shared(key, token, audiences);
    }
    if ('error' in verdict) throw verdict.error;
    return copyOf(verdict.result);
  }

  /** The cache key: every UTF-16 code unit of token and audiences hashed, so distinct strings never share a key. */
  private keyOf(token: string, audiences: readonly string[]): string {
    let text = `${token.length}:${token};${audiences.length}`;
    for (const a of audiences) text += `;${a.length}:${a}`;
    return createHash('sha256').update(this.salt).update(text, 'utf16le').digest('base64');
  }

  /** One call of the wrapped authenticator per key at a time; later callers join it. */
  private shared(key: string, token: string, audiences: readonly string[]): Promise<Verdict> {
    let p = this.inflight.get(key);
    if (!p) {
      p = this.fetch(key, token, audiences).finally(() => this.inflight.delete(key));
      this.inflight.set(key, p);
    }
    return p;
  }

  private async fetch(key: string, token: string, audiences: readonly string[]): Promise<Verdict> {
    let verdict: Verdict;
    try {
      verdict = { result: await this.inner.authenticateToken(token, audiences) };
    } catch (err) {
      if (!(err instanceof AuthenticationError)) throw err;
      verdict = { error: err };
    }
    const now = this.now();
    const ttl = 'result' in verdict && verdict.result ? Math.min(this.opts.successTTLMs, msUntilExpiry(token, now)) : this.opts.failureTTLMs;
    if (ttl > 0) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, { verdict, expiresAt: now + ttl });
    }
    return verdict;
  }
}
