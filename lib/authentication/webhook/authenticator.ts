/**
 * Webhook token authentication (spec 001 § Webhook token authentication): the server POSTs a
 * TokenReview with the bearer token to a remote service named by a client configuration file and
 * trusts its answer, as upstream's webhook token authenticator does:
 *
 * - Request: `{"kind":"TokenReview","apiVersion":"authentication.<vendor>/<version>",
 *   "metadata":{"creationTimestamp":null},"spec":{"token":…,"audiences":[…]},"status":{"user":{}}}`
 *   — the bytes upstream's encoder writes; `spec.audiences` only when the request asks for
 *   audiences.
 * - Answer: `status.authenticated`; on success `status.user` (`username` required, `uid`,
 *   `groups`, `extra`) and optional `status.audiences`, which must share one with the asked
 *   audiences (absent: the API audiences stand in). `authenticated: false` with `status.error`
 *   rejects the token with that text; without it the token is simply not known (→ the bearer
 *   authenticator's generic 401). `spec` in the answer is ignored.
 * - Decisions are cached for `--authentication-token-webhook-cache-ttl` (default 2 m), successes
 *   and plain failures alike, keyed by an HMAC of token and audiences; errors (the webhook
 *   unreachable, timing out, answering badly, or a failure with error text) are not cached, as
 *   upstream. Concurrent identical lookups share one call.
 * - Each call is bounded: one attempt at most `requestTimeoutMs` (upstream 30 s), transient
 *   failures retried with upstream's backoff, the whole lookup at most `lookupTimeoutMs`
 *   (upstream 30 s); a failed lookup rejects the token (→ 401) for that request only.
 */

import { canonicalGroup, vendorGroup } from '../../apis/vendor.js';
import { type ClientConfig, loadKubeconfig } from '../../client/kubeconfig.js';
import { GenericWebhook, type RetryBackoff, WebhookCallError } from '../../client/webhook.js';
import type { UserInfo } from '../../request/user.js';
import { intersectAudiences } from '../audiences.js';
import { type AuthResult, AuthenticationError, type TokenAuthenticator } from '../interface.js';
import { CachedTokenAuthenticator } from '../token-cache.js';

/** The TokenReview versions a webhook may speak (`--authentication-token-webhook-version`). */
export const WEBHOOK_VERSIONS = ['v1', 'v1beta1'] as const;
/** One of {@link WEBHOOK_VERSIONS}. */
export type WebhookVersion = (typeof WEBHOOK_VERSIONS)[number];
/** Default of `--authentication-token-webhook-version`. */
export const DEFAULT_WEBHOOK_VERSION: WebhookVersion = 'v1beta1';
/** Default of `--authentication-token-webhook-cache-ttl`: 2 minutes, in milliseconds. */
export const DEFAULT_WEBHOOK_CACHE_TTL_MS = 120_000;
/** Upstream's bound of one shared lookup, retries included (milliseconds). */
export const DEFAULT_WEBHOOK_LOOKUP_TIMEOUT_MS = 30_000;

/** The group of TokenReview (`authentication.<vendor>`). */
const AUTHENTICATION_GROUP = vendorGroup('authentication');

/**
 * Upstream's start-up error for a version other than `v1` and `v1beta1`, or undefined when
 * `version` is one of them.
 */
export function unsupportedVersionError(version: string): string | undefined {
  if ((WEBHOOK_VERSIONS as readonly string[]).includes(version)) return undefined;
  return `unsupported authentication webhook version ${JSON.stringify(version)}, supported versions are "v1", "v1beta1"`;
}

/** Options of a {@link WebhookTokenAuthenticator}; times in milliseconds. */
export interface WebhookTokenAuthenticatorOptions {
  /** TokenReview version sent and expected (default {@link DEFAULT_WEBHOOK_VERSION}). */
  version?: string;
  /** How long decisions are cached (default {@link DEFAULT_WEBHOOK_CACHE_TTL_MS}); 0 or less: not cached. */
  cacheTTLMs?: number;
  /**
   * The audiences a token is valid for when the webhook names none (upstream: the API audiences,
   * `--api-audiences`).
   */
  implicitAudiences?: readonly string[];
  /** Absolute timeout of one attempt (default 30 s, upstream's). */
  requestTimeoutMs?: number;
  /** Bound of a whole lookup, retries included (default {@link DEFAULT_WEBHOOK_LOOKUP_TIMEOUT_MS}). */
  lookupTimeoutMs?: number;
  /** Backoff between attempts (default upstream's: 500 ms ×1.5, 5 attempts). */
  retryBackoff?: RetryBackoff;
  /** `User-Agent` of the calls. */
  userAgent?: string;
}

/** A lookup that failed: kept out of the cache, then reported as an AuthenticationError. */
class LookupFailure extends Error {
  override readonly name = 'LookupFailure';
}

type Obj = Record<string, unknown>;

/** Asks a remote service to review bearer tokens. */
export class WebhookTokenAuthenticator implements TokenAuthenticator {
  private readonly cached: CachedTokenAuthenticator;
  private readonly apiVersion: string;
  private readonly implicitAudiences: readonly string[];
  private readonly lookupTimeoutMs: number;

  /** @throws Error with upstream's message when `opts.version` is not `v1` or `v1beta1`. */
  constructor(
    private readonly webhook: GenericWebhook,
    opts: WebhookTokenAuthenticatorOptions = {},
  ) {
    const version = opts.version ?? DEFAULT_WEBHOOK_VERSION;
    const unsupported = unsupportedVersionError(version);
    if (unsupported) throw new Error(unsupported);
    this.apiVersion = `${AUTHENTICATION_GROUP}/${version}`;
    this.implicitAudiences = opts.implicitAudiences ?? [];
    this.lookupTimeoutMs = opts.lookupTimeoutMs ?? DEFAULT_WEBHOOK_LOOKUP_TIMEOUT_MS;
    const ttl = Math.max(0, opts.cacheTTLMs ?? DEFAULT_WEBHOOK_CACHE_TTL_MS);
    this.cached = new CachedTokenAuthenticator({ authenticateToken: (token, audiences) => this.review(token, audiences) }, { successTTLMs: ttl, failureTTLMs: ttl });
  }

  /**
   * An authenticator for the webhook the kubeconfig `file` names (its current context's cluster
   * and user).
   * @throws KubeconfigError for a bad file; Error for an unsupported version.
   */
  static async fromKubeconfig(file: string, opts: WebhookTokenAuthenticatorOptions = {}): Promise<WebhookTokenAuthenticator> {
    const config: ClientConfig = await loadKubeconfig(file);
    return new WebhookTokenAuthenticator(
      new GenericWebhook(config, {
        ...(opts.requestTimeoutMs !== undefined && { requestTimeoutMs: opts.requestTimeoutMs }),
        ...(opts.retryBackoff && { retryBackoff: opts.retryBackoff }),
        ...(opts.userAgent && { userAgent: opts.userAgent }),
      }),
      opts,
    );
  }

  /**
   * The webhook's (possibly cached) verdict on `token` for `audiences` (none asked: no audience
   * check, no `spec.audiences`).
   * @returns the user and the audiences it is valid for; null when the webhook does not
   *   authenticate the token (without error text) or it is valid for none of the audiences.
   * @throws AuthenticationError with the webhook's `status.error`, or why the call failed.
   */
  async authenticateToken(token: string, audiences: readonly string[]): Promise<AuthResult | null> {
    try {
      return await this.cached.authenticateToken(token, audiences);
    } catch (err) {
      if (err instanceof LookupFailure) throw new AuthenticationError(err.message);
      throw err;
    }
  }

  /** Closes pooled connections to the webhook. */
  close(): void {
    this.webhook.close();
  }

  /** One uncached review; LookupFailure for every error (so it is not cached). */
  private async review(token: string, audiences: readonly string[]): Promise<AuthResult | null> {
    const body = JSON.stringify({
      kind: 'TokenReview',
      apiVersion: this.apiVersion,
      metadata: { creationTimestamp: null },
      spec: { token, ...(audiences.length > 0 && { audiences }) },
      status: { user: {} },
    });
    let answer: unknown;
    try {
      answer = await this.webhook.post(body, AbortSignal.timeout(this.lookupTimeoutMs));
    } catch (err) {
      if (err instanceof WebhookCallError) throw new LookupFailure(`Failed to make webhook authenticator request: ${err.message}`);
      throw err;
    }
    const status = this.statusOf(answer);
    let found: string[] | undefined;
    if (audiences.length > 0) {
      const got = status.audiences.length > 0 ? status.audiences : this.implicitAudiences;
      found = intersectAudiences(audiences, got);
      if (found.length === 0) return null;
    }
    if (!status.authenticated) {
      if (status.error) throw new LookupFailure(status.error);
      return null;
    }
    if (!status.user.name) throw new LookupFailure('webhook authenticated the token without status.user.username');
    return { user: status.user, ...(found && { audiences: found }) };
  }

  /**
   * The `status` of a TokenReview answer, checked as upstream's decoder would: a JSON object of
   * the expected apiVersion and kind (either may be absent; the upstream spelling of the group
   * is accepted) whose fields have the right types.
   * @throws LookupFailure for anything else.
   */
  private statusOf(answer: unknown): { authenticated: boolean; user: UserInfo; audiences: string[]; error: string } {
    const bad = (why: string) => new LookupFailure(`webhook answered with an invalid TokenReview: ${why}`);
    if (!isObject(answer)) throw bad('not a JSON object');
    if (answer.apiVersion !== undefined && answer.apiVersion !== '') {
      const [group, version] = typeof answer.apiVersion === 'string' ? answer.apiVersion.split('/') : [];
      if (`${canonicalGroup(group ?? '')}/${version}` !== this.apiVersion) throw bad(`apiVersion ${JSON.stringify(answer.apiVersion)}, expected ${this.apiVersion}`);
    }
    if (answer.kind !== undefined && answer.kind !== '' && answer.kind !== 'TokenReview') throw bad(`kind ${JSON.stringify(answer.kind)}, expected TokenReview`);
    const status = optional(answer, 'status', isObject, 'an object', bad) ?? {};
    const user = optional(status, 'user', isObject, 'an object', bad) ?? {};
    const extra = optional(user, 'extra', isObject, 'an object', bad);
    const extraOut: Record<string, string[]> = {};
    for (const [k, v] of Object.entries(extra ?? {})) {
      if (v !== null && !isStringList(v)) throw bad(`status.user.extra[${JSON.stringify(k)}] is not a list of strings`);
      extraOut[k] = v === null ? [] : [...v];
    }
    const name = optional(user, 'username', isString, 'a string', bad) ?? '';
    const uid = optional(user, 'uid', isString, 'a string', bad) ?? '';
    const groups = optional(user, 'groups', isStringList, 'a list of strings', bad) ?? [];
    return {
      authenticated: optional(status, 'authenticated', isBoolean, 'true or false', bad) ?? false,
      user: { name, ...(uid && { uid }), groups: [...groups], ...(extra && { extra: extraOut }) },
      audiences: [...(optional(status, 'audiences', isStringList, 'a list of strings', bad) ?? [])],
      error: optional(status, 'error', isString, 'a string', bad) ?? '',
    };
  }
}

function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
function isString(v: unknown): v is string {
  return typeof v === 'string';
}
function isBoolean(v: unknown): v is boolean {
  return typeof v === 'boolean';
}
function isStringList(v: unknown): v is string[] {
  return Array.isArray(v) && v.every(isString);
}

/** `o[key]` when present and not null; it must pass `check` (named `what` in the message). */
function optional<T>(o: Obj, key: string, check: (v: unknown) => v is T, what: string, bad: (why: string) => Error): T | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (!check(v)) throw bad(`${key} is not ${what}`);
  return v;
}
