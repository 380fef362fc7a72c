/**
 * The Webhook mode (spec 001 § Webhook authorization mode, § Authorization configuration; § Limits):
 * asks a remote service with a SubjectAccessReview. `allowed: true` → Allow; `denied: true` → Deny;
 * neither → NoOpinion (a later mode may allow); the remote's `reason` is kept. Decisions are cached
 * per full request attributes: allowed ones for `authorizedTTL` (default 5 min), others for
 * `unauthorizedTTL` (default 30 s). Match conditions, when configured, decide first whether the
 * webhook is asked at all. A failed call (unreachable, timed out, an error status after upstream's
 * retries, a malformed answer) or a failed match condition gives the failure policy's decision
 * (NoOpinion, or Deny) with the failure as the result's `evaluationError`, and is not cached.
 */
import { type ClientConfig, loadKubeconfig } from '../../client/kubeconfig.js';
import { GenericWebhook, type RetryBackoff, WebhookCallError } from '../../client/webhook.js';
import type { UserInfo } from '../../request/user.js';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer, Decision, RuleResolver, RulesResult } from '../interface.js';
import type { MatchConditions } from './match-conditions.js';
import { type SubjectAccessReviewVersion, reviewFor, specFor, statusOf } from './subject-access-review.js';

/** Default cache time of allowed decisions (milliseconds): upstream's 5m0s. */
export const DEFAULT_AUTHORIZED_TTL_MS = 5 * 60_000;
/** Default cache time of other decisions (milliseconds): upstream's 30s. */
export const DEFAULT_UNAUTHORIZED_TTL_MS = 30_000;
/** Timeout of one call in the flag mode (milliseconds): upstream's 30s. */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 30_000;
/** Most cached decisions per webhook (upstream's LRU size). */
export const DECISION_CACHE_SIZE = 8192;

/** What to decide when the webhook cannot be asked or a match condition fails. */
export type FailurePolicy = 'NoOpinion' | 'Deny';

/** Options of a {@link WebhookAuthorizer}. */
export interface WebhookAuthorizerOptions {
  /** SubjectAccessReview version spoken (default v1beta1, as `--authorization-webhook-version`). */
  version?: SubjectAccessReviewVersion;
  /** Cache time of allowed decisions in milliseconds; 0 = not cached. */
  authorizedTTLMs?: number;
  /** Cache time of other decisions in milliseconds; 0 = not cached. */
  unauthorizedTTLMs?: number;
  /** Timeout of one call in milliseconds (default 30 s). */
  timeoutMs?: number;
  /** Decision on errors (default NoOpinion, the flag mode's). */
  failurePolicy?: FailurePolicy;
  /** Conditions deciding whether the webhook is asked. */
  matchConditions?: MatchConditions;
  /** Backoff between attempts of transient failures (default upstream's). */
  retryBackoff?: RetryBackoff;
  /** `User-Agent` of the calls. */
  userAgent?: string;
  /** Receives each failed call or condition (the server logs it). */
  onError?: (err: Error) => void;
}

/** Each attempt has its own timeout (`timeoutMs`); the retries as a whole are bounded by the backoff. */
const NEVER = new AbortController().signal;

/** A cached decision and when it expires (ms since the epoch). */
interface CacheEntry {
  result: AuthorizationResult;
  expires: number;
}

/** Asks one webhook. */
export class WebhookAuthorizer implements Authorizer, RuleResolver {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly version: SubjectAccessReviewVersion;
  private readonly authorizedTTLMs: number;
  private readonly unauthorizedTTLMs: number;
  private readonly onError: FailurePolicy;

  constructor(
    private readonly webhook: GenericWebhook,
    private readonly opts: WebhookAuthorizerOptions = {},
  ) {
    this.version = opts.version ?? 'v1beta1';
    this.authorizedTTLMs = opts.authorizedTTLMs ?? DEFAULT_AUTHORIZED_TTL_MS;
    this.unauthorizedTTLMs = opts.unauthorizedTTLMs ?? DEFAULT_UNAUTHORIZED_TTL_MS;
    this.onError = opts.failurePolicy ?? 'NoOpinion';
  }

  /**
   * The authorizer of the webhook a kubeconfig file names (its current context).
   * @throws KubeconfigError for a bad file.
   */
  static async fromKubeconfig(file: string, opts: WebhookAuthorizerOptions = {}): Promise<WebhookAuthorizer> {
    const config: ClientConfig = await loadKubeconfig(file);
    const webhook = new GenericWebhook(config, {
      requestTimeoutMs: opts.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS,
      ...(opts.retryBackoff && { retryBackoff: opts.retryBackoff }),
      ...(opts.userAgent && { userAgent: opts.userAgent }),
    });
    return new WebhookAuthorizer(webhook, opts);
  }

  async authorize(a: AuthorizationAttributes): Promise<AuthorizationResult> {
    const spec = specFor(a);
    if (this.opts.matchConditions) {
      let matched: boolean;
      try {
        matched = this.opts.matchConditions.matches(spec);
      } catch (err) {
        return this.failure(err as Error);
      }
      if (!matched) return { decision: 'NoOpinion', reason: '' };
    }
    const key = JSON.stringify(spec);
    const hit = this.cache.get(key);
    if (hit && hit.expires > Date.now()) return hit.result;
    if (hit) this.cache.delete(key);
    let answer: unknown;
    try {
      answer = await this.webhook.post(JSON.stringify(reviewFor(spec, this.version)), NEVER);
    } catch (err) {
      if (err instanceof WebhookCallError) return this.failure(new Error(`Failed to make webhook authorizer request: ${err.message}`));
      throw err;
    }
    let status;
    try {
      status = statusOf(answer, this.version);
    } catch (err) {
      return this.failure(err as Error);
    }
    const decision: Decision = status.allowed ? 'Allow' : status.denied ? 'Deny' : 'NoOpinion';
    const result: AuthorizationResult = { decision, reason: status.reason };
    const ttl = decision === 'Allow' ? this.authorizedTTLMs : this.unauthorizedTTLMs;
    if (ttl > 0) this.remember(key, result, ttl);
    return result;
  }

  /** A webhook cannot list rules (upstream's answer): incomplete, with the reason as the evaluation error. */
  async rulesFor(_user: UserInfo, _namespace: string): Promise<RulesResult> {
    return { resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: 'webhook authorizer does not support user rule resolution' };
  }

  /** Closes pooled connections to the webhook. */
  close(): void {
    this.webhook.close();
  }

  private failure(err: Error): AuthorizationResult {
    this.opts.onError?.(err);
    return { decision: this.onError, reason: '', evaluationError: err.message };
  }

  private remember(key: string, result: AuthorizationResult, ttlMs: number): void {
    if (this.cache.size >= DECISION_CACHE_SIZE) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.set(key, { result, expires: Date.now() + ttlMs });
  }
}
