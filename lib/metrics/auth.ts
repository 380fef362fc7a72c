/**
 * Authentication and authorization filter metrics (upstream apiserver/pkg/endpoints/filters
 * metrics.go, v1.30): the attempts and durations of authenticating and of authorizing a request
 * by result, and the authenticated requests by a compressed user name (a few known identities,
 * `email_id` for anything with an `@`, else `other`: bounded, and no user name leaks).
 */
import type { Counter, Histogram } from 'prom-client';
import type { HistogramDeclaration, MetricDeclaration, StabilityRegistry } from './registry.js';

/** Upstream's ExponentialBuckets(0.001, 2, 15): 1 ms to about 16 s. */
export const AUTH_DURATION_BUCKETS: readonly number[] = Array.from({ length: 15 }, (_, i) => 0.001 * 2 ** i);

const RESULT = ['result'] as const;
const AUTHENTICATED_USER = { name: 'authenticated_user_requests', help: 'Counter of authenticated requests broken out by username.', labelNames: ['username'], stabilityLevel: 'ALPHA' } as const satisfies MetricDeclaration<string>;
const AUTHENTICATION_ATTEMPTS = { name: 'authentication_attempts', help: 'Counter of authenticated attempts.', labelNames: RESULT, stabilityLevel: 'ALPHA' } as const satisfies MetricDeclaration<string>;
const AUTHENTICATION_DURATION = {
  name: 'authentication_duration_seconds',
  help: 'Authentication duration in seconds broken out by result.',
  labelNames: RESULT,
  buckets: [...AUTH_DURATION_BUCKETS],
  stabilityLevel: 'ALPHA',
} as const satisfies HistogramDeclaration<string>;
const AUTHORIZATION_ATTEMPTS = {
  name: 'authorization_attempts_total',
  help: "Counter of authorization attempts broken down by result. It can be either 'allowed', 'denied', 'no-opinion' or 'error'.",
  labelNames: RESULT,
  stabilityLevel: 'ALPHA',
} as const satisfies MetricDeclaration<string>;
const AUTHORIZATION_DURATION = {
  name: 'authorization_duration_seconds',
  help: 'Authorization duration in seconds broken out by result.',
  labelNames: RESULT,
  buckets: [...AUTH_DURATION_BUCKETS],
  stabilityLevel: 'ALPHA',
} as const satisfies HistogramDeclaration<string>;

const AUTHORIZATION_DECISIONS = {
  name: 'apiserver_authorization_decisions_total',
  help: 'Total number of terminal decisions made by an authorizer split by authorizer type, name, and decision.',
  labelNames: ['type', 'name', 'decision'],
  stabilityLevel: 'ALPHA',
} as const satisfies MetricDeclaration<string>;

/** Outcome of authenticating one request: a user, no user (rejected), or an error (failed, or audiences not acceptable). */
export type AuthenticationResult = 'success' | 'failure' | 'error';
/** Outcome of authorizing one request. */
export type AuthorizationResultLabel = 'allowed' | 'denied' | 'no-opinion' | 'error';

/** The filter metrics of one server. */
export class AuthMetrics {
  private readonly users: Counter<'username'>;
  private readonly authnAttempts: Counter<'result'>;
  private readonly authnDuration: Histogram<'result'>;
  private readonly authzAttempts: Counter<'result'>;
  private readonly authzDuration: Histogram<'result'>;
  private readonly authzDecisions: Counter<'type' | 'name' | 'decision'>;

  /**
   * `knownUsers`: the identities reported by name (upstream: `admin`, `client`, `kube_proxy`,
   * `kubelet` and the system namespace's `default` service account).
   */
  constructor(
    r: StabilityRegistry,
    private readonly knownUsers: ReadonlySet<string>,
  ) {
    this.users = r.counter(AUTHENTICATED_USER);
    this.authnAttempts = r.counter(AUTHENTICATION_ATTEMPTS);
    this.authnDuration = r.histogram(AUTHENTICATION_DURATION);
    this.authzAttempts = r.counter(AUTHORIZATION_ATTEMPTS);
    this.authzDuration = r.histogram(AUTHORIZATION_DURATION);
    this.authzDecisions = r.counter(AUTHORIZATION_DECISIONS);
  }

  /** Upstream compressUsername: a known identity as is, `email_id` when it has an `@`, else `other`. */
  compressUsername(name: string): string {
    if (this.knownUsers.has(name)) return name;
    return name.includes('@') ? 'email_id' : 'other';
  }

  /** One authentication that started at `startNs` (process.hrtime.bigint()); `user` the name on success. */
  authentication(result: AuthenticationResult, startNs: bigint, user?: string): void {
    if (result === 'success' && user !== undefined) this.users.inc({ username: this.compressUsername(user) });
    const labels = { result };
    this.authnAttempts.inc(labels);
    this.authnDuration.observe(labels, Number(process.hrtime.bigint() - startNs) / 1e9);
  }

  /** One authorization that started at `startNs` (process.hrtime.bigint()). */
  authorization(result: AuthorizationResultLabel, startNs: bigint): void {
    const labels = { result };
    this.authzAttempts.inc(labels);
    this.authzDuration.observe(labels, Number(process.hrtime.bigint() - startNs) / 1e9);
  }

  /**
   * One terminal decision of one authorizer of the chain (upstream 1.30 authorization
   * configuration metrics): `type` as configured (`RBAC`, `Webhook`…), `name` its name in the
   * configuration (`rbac`, or the webhook's name).
   */
  authorizationDecision(type: string, name: string, decision: 'allowed' | 'denied'): void {
    this.authzDecisions.inc({ type, name, decision });
  }
}
