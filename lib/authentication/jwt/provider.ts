/**
 * An OpenID provider's signing keys, kept current in the background (spec 001 § OpenID Connect
 * flags: "no contact with the identity service is needed per request (public keys found through
 * OIDC discovery)"). Discovery fetches `<issuer>/.well-known/openid-configuration` (or the
 * configured discovery URL) over HTTPS with the configured CA, checks that its `issuer` is the
 * issuer URL, then fetches its `jwks_uri`. Until that first succeeds the provider is not
 * initialised (tokens answer 401, as upstream) and discovery is retried every 10 s; afterwards the
 * key set is refreshed on an interval, and early — at most once per 10 s — when a token names a key
 * the set does not hold. No request ever waits on the network.
 */
import { type JsonWebKey, type KeyObject, createPublicKey } from 'node:crypto';
import { request as httpsRequest } from 'node:https';

/** Largest discovery or key-set document read, in bytes. */
const MAX_DOCUMENT_BYTES = 1024 * 1024;
/** Timeout of one discovery or key-set request, in milliseconds (upstream's HTTP client timeout). */
const REQUEST_TIMEOUT_MS = 30_000;

/** A verification key of the provider's key set. */
export interface ProviderKey {
  /** `kid`, or undefined when the key has none. */
  kid?: string;
  /** `alg` the key is restricted to, when the key set says. */
  alg?: string;
  key: KeyObject;
}

/** Timing of a provider's background work, in milliseconds; defaults are upstream's where it has them. */
export interface ProviderTiming {
  /** Retry interval of discovery until it first succeeds (default 10 s, as upstream). */
  initRetryMs?: number;
  /** Interval of the periodic key-set refresh after initialisation (default 5 min). */
  refreshIntervalMs?: number;
  /** Least time between two refreshes asked for by tokens naming an unknown key (default 10 s). */
  minRefreshIntervalMs?: number;
}

/** Where a provider lives and how to reach it. */
export interface ProviderOptions extends ProviderTiming {
  /** The issuer URL; the discovery document's `issuer` must equal it. */
  issuerURL: string;
  /** Where to fetch discovery from instead of `<issuerURL>/.well-known/openid-configuration` ('' = default). */
  discoveryURL?: string;
  /** PEM CA bundle trusted for the provider's TLS certificates (undefined = the default trust store). */
  ca?: string;
  /** Reports a failed discovery or refresh (the provider keeps trying). */
  onError?: (err: Error) => void;
}

/** The provider of one issuer: its current keys, refreshed in the background. */
export class OIDCProvider {
  private keys: readonly ProviderKey[] = [];
  private jwksURI: string | undefined;
  private initialized = false;
  private lastError: Error | undefined;
  private timer: NodeJS.Timeout | undefined;
  private refreshing: Promise<void> | undefined;
  private lastRefreshStart = 0;
  private stopped = false;
  private readonly aborter = new AbortController();
  private readonly waiters = new Set<() => void>();
  private readonly initRetryMs: number;
  private readonly refreshIntervalMs: number;
  private readonly minRefreshIntervalMs: number;

  constructor(private readonly opts: ProviderOptions) {
    this.initRetryMs = opts.initRetryMs ?? 10_000;
    this.refreshIntervalMs = opts.refreshIntervalMs ?? 5 * 60_000;
    this.minRefreshIntervalMs = opts.minRefreshIntervalMs ?? 10_000;
  }

  /** Starts discovery in the background; returns at once. */
  start(): void {
    void this.sync();
  }

  /** Stops every timer and aborts requests in flight; the keys stay readable. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.aborter.abort();
    for (const wake of this.waiters) wake();
    this.waiters.clear();
  }

  /** Whether discovery and the first key set succeeded. */
  get ready(): boolean {
    return this.initialized;
  }

  /** Why the provider is not ready (the last failure), if it is not. */
  get notReadyReason(): Error | undefined {
    return this.initialized ? undefined : (this.lastError ?? new Error(`oidc: authenticator for issuer ${JSON.stringify(this.opts.issuerURL)} is not initialized`));
  }

  /** The current key set (empty until initialised). */
  get currentKeys(): readonly ProviderKey[] {
    return this.keys;
  }

  /**
   * Resolves true once initialised, false when `timeoutMs` passes first or the provider stops.
   * Used by a configuration reload, never by a request.
   */
  waitReady(timeoutMs: number): Promise<boolean> {
    if (this.initialized) return Promise.resolve(true);
    if (this.stopped) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(t);
        this.waiters.delete(done);
        resolve(this.initialized);
      };
      const t = setTimeout(done, timeoutMs);
      t.unref();
      this.waiters.add(done);
    });
  }

  /**
   * Asks for a key-set refresh in the background because a token named a key the set lacks;
   * ignored while one runs or within the minimum interval of the last. Never awaited by a request.
   */
  requestRefresh(): void {
    if (!this.initialized || this.stopped || this.refreshing) return;
    if (Date.now() - this.lastRefreshStart < this.minRefreshIntervalMs) return;
    void this.sync();
  }

  /** One discovery (until initialised) and key-set fetch; schedules the next. */
  private sync(): Promise<void> {
    if (this.refreshing) return this.refreshing;
    clearTimeout(this.timer);
    this.lastRefreshStart = Date.now();
    this.refreshing = (async () => {
      try {
        if (this.jwksURI === undefined) this.jwksURI = await this.discover();
        this.keys = await this.fetchKeys(this.jwksURI);
        this.initialized = true;
        this.lastError = undefined;
        for (const wake of [...this.waiters]) wake();
      } catch (err) {
        if (this.stopped) return;
        this.lastError = err as Error;
        this.opts.onError?.(err as Error);
      } finally {
        this.refreshing = undefined;
        if (!this.stopped) {
          this.timer = setTimeout(() => void this.sync(), this.initialized ? this.refreshIntervalMs : this.initRetryMs);
          this.timer.unref();
        }
      }
    })();
    return this.refreshing;
  }

  /** Fetches the discovery document; returns its `jwks_uri`. */
  private async discover(): Promise<string> {
    const url = this.opts.discoveryURL || `${this.opts.issuerURL.replace(/\/$/, '')}/.well-known/openid-configuration`;
    const body = await this.get(url);
    let doc: { issuer?: unknown; jwks_uri?: unknown };
    try {
      doc = JSON.parse(body) as typeof doc;
    } catch (err) {
      throw new Error(`oidc: failed to decode provider discovery object: ${(err as Error).message}`, { cause: err });
    }
    if (doc === null || typeof doc !== 'object') throw new Error('oidc: failed to decode provider discovery object: not an object');
    if (doc.issuer !== this.opts.issuerURL) {
      throw new Error(`oidc: issuer did not match the issuer returned by provider, expected ${JSON.stringify(this.opts.issuerURL)} got ${JSON.stringify(doc.issuer ?? '')}`);
    }
    if (typeof doc.jwks_uri !== 'string' || !doc.jwks_uri.startsWith('https://')) {
      throw new Error(`oidc: provider discovery object has no https jwks_uri: ${JSON.stringify(doc.jwks_uri ?? '')}`);
    }
    return doc.jwks_uri;
  }

  /** Fetches and imports the key set; keys that are not public RSA or EC keys are left out. */
  private async fetchKeys(uri: string): Promise<ProviderKey[]> {
    const body = await this.get(uri);
    let set: { keys?: unknown };
    try {
      set = JSON.parse(body) as typeof set;
    } catch (err) {
      throw new Error(`oidc: failed to decode keys: ${(err as Error).message}`, { cause: err });
    }
    if (set === null || typeof set !== 'object' || !Array.isArray(set.keys)) throw new Error('oidc: failed to decode keys: no "keys" list');
    const keys: ProviderKey[] = [];
    for (const jwk of set.keys as Array<Record<string, unknown>>) {
      if (jwk === null || typeof jwk !== 'object' || (jwk.kty !== 'RSA' && jwk.kty !== 'EC')) continue;
      if (jwk.use !== undefined && jwk.use !== 'sig') continue;
      const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...pub } = jwk;
      try {
        keys.push({
          kid: typeof jwk.kid === 'string' ? jwk.kid : undefined,
          alg: typeof jwk.alg === 'string' ? jwk.alg : undefined,
          key: createPublicKey({ key: pub as JsonWebKey, format: 'jwk' }),
        });
      } catch {
        // A key this server cannot use is skipped, as an unusable key it would never match.
      }
    }
    return keys;
  }

  /** GET over HTTPS with the provider's CA; resolves the body of a 200 answer. */
  private get(url: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const req = httpsRequest(url, { method: 'GET', ca: this.opts.ca, timeout: REQUEST_TIMEOUT_MS, signal: this.aborter.signal, headers: { Accept: 'application/json' } }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_DOCUMENT_BYTES) {
            req.destroy(new Error(`${url}: answer larger than ${MAX_DOCUMENT_BYTES} bytes`));
            return;
          }
          chunks.push(c);
        });
        res.on('error', reject);
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 200) reject(new Error(`${res.statusCode} ${res.statusMessage ?? ''}: ${body}`));
          else resolve(body);
        });
      });
      req.on('timeout', () => req.destroy(new Error(`Get ${JSON.stringify(url)}: timeout awaiting response`)));
      req.on('error', (err) => reject(new Error(`Get ${JSON.stringify(url)}: ${err.message}`)));
      req.end();
    });
  }
}
