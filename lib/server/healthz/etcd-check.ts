/**
 * The etcd health checks of `/livez`, `/readyz` and `/healthz` (spec 000 § Health endpoints), as
 * upstream's storage factory makes them: `etcd` (every endpoint; `--etcd-healthcheck-timeout`)
 * and `etcd-readiness` (`/readyz` only; `--etcd-readycheck-timeout`), each a probe of etcd that
 * fails after its timeout, sent at most once per half of that timeout with a burst of one. A
 * check asked again before then answers what the last probe sent answered, so that load
 * balancers, kubelets and monitoring polling the health endpoints of every replica cost etcd at
 * most two requests a second per replica, not one per poll.
 *
 * One departure from upstream: a check asked while the very first probe is still out waits for
 * that probe, where upstream answers "etcd client connection not yet established" (a spurious
 * failure of every concurrent check of the first second).
 */
import { withDeadline } from '../../apimachinery/deadline.js';
import type { HealthCheck } from './checks.js';

/** Upstream's default of both timeouts (`storagebackend.DefaultHealthcheckTimeout`), in ms. */
export const DEFAULT_ETCD_CHECK_TIMEOUT_MS = 2_000;

/** A probe's answer: undefined when etcd answered, else the failure. */
type Outcome = Error | undefined;

/**
 * A health check named `name` over `probe` (one etcd request; rejects when etcd fails it).
 * `timeoutMs` (> 0): a probe not answered by then fails with `etcd did not answer within <s>s`;
 * probes go out at most once per `timeoutMs / 2`. A failure reads `error getting data from etcd:
 * <reason>`, as upstream's (the health endpoints withhold it from clients and log it). `now`
 * gives the time in ms (a parameter for tests).
 */
export function rateLimitedEtcdCheck(name: string, probe: () => Promise<unknown>, timeoutMs: number, now: () => number = Date.now): HealthCheck {
  const intervalMs = timeoutMs / 2;
  let nextProbeAt = -Infinity;
  /** The outcome of the last probe sent that has answered, with the time it was sent. */
  let last: { sentAt: number; outcome: Outcome } | undefined;
  let first: Promise<Outcome> | undefined;

  const send = async (): Promise<Outcome> => {
    const sentAt = now();
    nextProbeAt = sentAt + intervalMs;
    const outcome = await withDeadline(probe(), timeoutMs, () => new Error(`etcd did not answer within ${timeoutMs / 1000}s`)).then(
      () => undefined,
      (err: unknown) => new Error(`error getting data from etcd: ${err instanceof Error ? err.message : String(err)}`),
    );
    if (!last || sentAt >= last.sentAt) last = { sentAt, outcome };
    return outcome;
  };

  return {
    name,
    async check() {
      let outcome: Outcome;
      if (now() >= nextProbeAt) {
        const sent = send();
        first ??= sent;
        outcome = await sent;
      } else {
        outcome = last ? last.outcome : await first;
      }
      if (outcome) throw outcome;
    },
  };
}
