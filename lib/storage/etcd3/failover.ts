/**
 * Surviving the loss of etcd members (issue #16 § HA replicas). The etcd3 package picks a random
 * member for every call; with its fault handling off (we must never retry a write that may have
 * been applied: LIBRARIES.md § etcd client) a dead member fails one call in N. Two measures:
 *
 * - per member, a circuit breaker that opens on the first connection-level failure (including a
 *   broken watch stream) and lets one trial call through after {@link HALF_OPEN_AFTER_MS}: while
 *   open, calls and new watch streams go to the other members;
 * - per call, another attempt on another member when retrying is safe: reads on any
 *   connection-level failure or leader change, writes only when gRPC reports that no connection
 *   was established (the request never left this process).
 */
import { circuitBreaker, ConsecutiveBreaker, handleWhen, isBrokenCircuitError, type IPolicy } from 'cockatiel';
import { type Etcd3, isRecoverableError } from 'etcd3';
import { setTimeout as sleep } from 'node:timers/promises';

/** How long a member stays skipped after a failure before one trial call goes to it, in milliseconds. */
export const HALF_OPEN_AFTER_MS = 2_000;
/** Attempts of one call (the first included). */
const MAX_ATTEMPTS = 5;
/** Pause before another attempt, in milliseconds, doubling (etcd elects a new leader within about a second). */
const RETRY_DELAY_MS = 100;

/** `service.method` pairs that only read: safe to send again. */
const READ_METHODS = new Set(['KV.range', 'Maintenance.status', 'Cluster.memberList', 'Lease.leaseTimeToLive', 'Lease.leaseLeases']);

/** Errors of a member in the middle of a leader election, after which a read may be sent again. */
const LEADER_TRANSITION = /etcdserver: (leader changed|no leader|request timed out)/;

/** The per-member fault policy: a breaker opened by one connection-level failure. */
export function memberPolicy(): IPolicy {
  return circuitBreaker(handleWhen(isRecoverableError), { halfOpenAfter: HALF_OPEN_AFTER_MS, breaker: new ConsecutiveBreaker(1) });
}

/** Whether the failure proves the request was never sent (no member to send it to, or no connection). */
function neverSent(err: unknown): boolean {
  return isBrokenCircuitError(err) || (err instanceof Error && err.message.includes('No connection established'));
}

/** Whether the call `key` (`service.method`) may be attempted again after `err`. */
export function retryable(key: string, err: unknown): boolean {
  if (neverSent(err)) return true;
  if (!READ_METHODS.has(key)) return false;
  return err instanceof Error && (isRecoverableError(err) || LEADER_TRANSITION.test(err.message));
}

type Exec = (service: string, method: string, payload: unknown, options?: unknown) => Promise<unknown>;

/**
 * Makes every unary call of `client` retry on another member when {@link retryable} says so,
 * at most {@link MAX_ATTEMPTS} times with a doubling pause; the last error is thrown as it was.
 * Mutates the client's connection pool (the package offers no hook for this).
 */
export function withFailover(client: Etcd3): Etcd3 {
  const pool = (client as unknown as { pool: { exec: Exec } }).pool;
  const exec: Exec = pool.exec.bind(pool);
  pool.exec = async (service, method, payload, options) => {
    const key = `${service}.${method}`;
    for (let attempt = 1; ; attempt++) {
      try {
        return await exec(service, method, payload, options);
      } catch (err) {
        if (attempt >= MAX_ATTEMPTS || !retryable(key, err)) throw err;
        await sleep(RETRY_DELAY_MS * 2 ** (attempt - 1));
      }
    }
  };
  return client;
}
