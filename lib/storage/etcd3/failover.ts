/**
 * Surviving the loss of etcd members, the raft leader included (issue #16 § HA replicas, issue
 * #19 item 2). The etcd3 package picks a random member for every call; with its fault handling
 * off (we must never retry a write that may have been applied: LIBRARIES.md § etcd client) a
 * dead member fails one call in N. Three measures:
 *
 * - per member, a circuit breaker that opens on the first connection-level failure (including a
 *   broken watch stream) and lets one trial call through after {@link HALF_OPEN_AFTER_MS}: while
 *   open, calls and new watch streams go to the other members. An `etcdserver: …` answer (leader
 *   changed, no leader, request timed out) comes from a live member reporting a cluster-wide
 *   election and opens no breaker: during an election every member says so, and skipping them
 *   all would fail calls at once (BrokenCircuitError) instead of after the election;
 * - per call, other attempts on any member while retrying is safe, for up to
 *   {@link RETRY_BUDGET_MS} and never past the call's gRPC `deadline` option;
 * - a write that may have been applied is marked (see {@link outcomeUnknown}) so that it is
 *   answered "may have succeeded" (504 Timeout) rather than "not done" (500 ServerTimeout).
 *
 * What each etcd failure proves about a write (etcd v3.4/3.5 server semantics):
 * - BrokenCircuitError, `14 UNAVAILABLE: No connection established`: never left this process → retried;
 * - `raft proposal dropped`: a follower with no leader refused the proposal before it entered
 *   the raft log → not applied, retried;
 * - `etcdserver: no leader` (the v3rpc interceptor, before the request is processed) and
 *   `etcdserver: too many requests` (refused before proposing when apply lags commit) → not
 *   applied, retried;
 * - `etcdserver: request timed out` (with or without "possibly due to previous leader failure"
 *   or "connection lost"), `etcdserver: leader changed`, DEADLINE_EXCEEDED, CANCELLED, a
 *   connection dropped after sending, anything else → the proposal may be in the log and may yet
 *   commit: outcome unknown, never retried (a retried create-if-absent would answer a false
 *   AlreadyExists, a retried compare-and-swap a false Conflict);
 * - any other answer (`etcdserver: request is too large`, a compacted revision…) is a definite refusal.
 * A read (Range, a transaction of ranges only, Status, member and lease listings) changes nothing
 * and is retried on every connection-level failure and every election answer.
 */
import { circuitBreaker, ConsecutiveBreaker, handleWhen, isBrokenCircuitError, type IPolicy } from 'cockatiel';
import { type Etcd3, isRecoverableError } from 'etcd3';
import { setTimeout as sleep } from 'node:timers/promises';

/** How long a member stays skipped after a failure before one trial call goes to it, in milliseconds. */
export const HALF_OPEN_AFTER_MS = 2_000;
/**
 * How long one call is retried, in milliseconds: longer than an etcd election after the leader's
 * loss (followers notice it after the 1 s election timeout, a linearizable read waiting on the
 * dead leader fails after ~1.7 s, then the vote: under 3 s in the drills) and well below
 * the default `--request-timeout` (60 s).
 */
export const RETRY_BUDGET_MS = 10_000;
/** First pause before another attempt, in milliseconds, doubling up to {@link MAX_RETRY_DELAY_MS}. */
const RETRY_DELAY_MS = 100;
const MAX_RETRY_DELAY_MS = 1_000;

/** `service.method` pairs that only read: safe to send again. */
const READ_METHODS = new Set(['KV.range', 'Maintenance.status', 'Cluster.memberList', 'Lease.leaseTimeToLive', 'Lease.leaseLeases']);

/** Answers of a live member during a leader election (or a lagging apply), after which a read may be sent again. */
const ELECTION = /etcdserver: (leader changed|no leader|not leader|request timed out|too many requests)/;

/** Answers proving that a write was refused before it entered the raft log. */
const WRITE_NOT_APPLIED = /raft proposal dropped|etcdserver: (no leader|too many requests)/;

/** The mark of a write whose outcome is unknown. */
const OUTCOME_UNKNOWN = Symbol('etcdWriteOutcomeUnknown');

/**
 * A refusal of a request for its size: etcd's own answer, its gRPC server's (past the limit +
 * 512 KiB), or this client's before sending (past `grpc.max_send_message_length`, grpc-js's wording).
 */
const TOO_LARGE = /etcdserver: request is too large|grpc: received message larger than max|Attempted to send message with a size larger than/;
/**
 * etcd's answers while an alarm is raised. The write that fills the database past its quota is
 * applied and answered `database space exceeded`, which raises the NOSPACE alarm; every later
 * write gets the same answer, refused before it is proposed, until an operator clears the alarm.
 */
const ALARM = /etcdserver: (mvcc: database space exceeded|corrupt cluster)/;
/** This client's refusal of a response past `grpc.max_receive_message_length` (grpc-js's wording). */
const RESPONSE_TOO_LARGE = /Received message larger than max/;

/**
 * Whether the request was refused for its size (etcd's `--max-request-bytes`, 1.5 MiB by
 * default): a definite refusal, neither applied nor worth another attempt.
 */
export function refusedAsTooLarge(err: unknown): boolean {
  return err instanceof Error && TOO_LARGE.test(err.message);
}

/** etcd's text of an alarm's answer (`etcdserver: mvcc: database space exceeded`), or undefined for any other error. */
export function alarmRefusal(err: unknown): string | undefined {
  return err instanceof Error ? ALARM.exec(err.message)?.[0] : undefined;
}

/**
 * Whether the answer was larger than this client accepts (see client.ts
 * `MAX_RECEIVE_MESSAGE_BYTES`): the same request would get the same answer; a range asks for fewer keys.
 */
export function responseTooLarge(err: unknown): boolean {
  return err instanceof Error && RESPONSE_TOO_LARGE.test(err.message);
}

/** Whether `err` is a failure of the connection to one member (not an answer of a live member). */
export function connectionFailure(err: unknown): boolean {
  return err instanceof Error && isRecoverableError(err) && !err.message.includes('etcdserver:') && !refusedAsTooLarge(err) && !responseTooLarge(err);
}

/** The per-member fault policy: a breaker opened by one connection-level failure. */
export function memberPolicy(): IPolicy {
  return circuitBreaker(handleWhen(connectionFailure), { halfOpenAfter: HALF_OPEN_AFTER_MS, breaker: new ConsecutiveBreaker(1) });
}

/** Whether the failure proves the request was never sent (no member to send it to, or no connection). */
function neverSent(err: unknown): boolean {
  return isBrokenCircuitError(err) || (err instanceof Error && err.message.includes('No connection established'));
}

/** Whether the call `key` (`service.method`) with `payload` only reads (a transaction counts when all its operations are ranges). */
export function readOnly(key: string, payload?: unknown): boolean {
  if (READ_METHODS.has(key)) return true;
  if (key !== 'KV.txn' || payload === null || typeof payload !== 'object') return false;
  const txn = payload as { success?: object[]; failure?: object[] };
  const ops = [...(txn.success ?? []), ...(txn.failure ?? [])];
  return ops.every((op) => Object.keys(op).every((k) => k === 'request_range'));
}

/** Whether a write that failed with `err` certainly was not applied by etcd (see the module comment). */
export function writeNotApplied(err: unknown): boolean {
  return neverSent(err) || (err instanceof Error && WRITE_NOT_APPLIED.test(err.message));
}

/**
 * Whether a write that failed with `err` may have been applied: a transport failure or an election
 * answer after sending (a refusal for size, {@link refusedAsTooLarge}, is definite). An alarm's
 * answer ({@link alarmRefusal}) may come for a write etcd applied.
 */
function mayHaveApplied(err: unknown): boolean {
  if (!(err instanceof Error) || writeNotApplied(err) || refusedAsTooLarge(err)) return false;
  return isRecoverableError(err) || ELECTION.test(err.message);
}

/**
 * Whether the call `key` (`service.method`, with `payload`) may be attempted again after `err`:
 * a read after a connection failure or an election answer, a write only when not applied.
 */
export function retryable(key: string, err: unknown, payload?: unknown): boolean {
  if (!readOnly(key, payload)) return writeNotApplied(err);
  if (refusedAsTooLarge(err) || responseTooLarge(err)) return false;
  return neverSent(err) || (err instanceof Error && (isRecoverableError(err) || ELECTION.test(err.message)));
}

/**
 * Whether `err` is the failure of an etcd write that may have been applied (marked by
 * {@link withFailover}): the caller must not report "not done".
 */
export function outcomeUnknown(err: unknown): boolean {
  return err instanceof Error && OUTCOME_UNKNOWN in err;
}

/** The time (ms since the epoch) of a gRPC call's `deadline` option; Infinity without one. */
function deadlineOf(options: unknown): number {
  const d = (options as { deadline?: Date | number } | undefined)?.deadline;
  if (d === undefined) return Infinity;
  return d instanceof Date ? d.getTime() : d;
}

type Exec = (service: string, method: string, payload: unknown, options?: unknown) => Promise<unknown>;

/**
 * Makes every unary call of `client` retry on another member while {@link retryable} says so,
 * with a doubling pause (100 ms up to 1 s), for at most {@link RETRY_BUDGET_MS} and never past the
 * call's gRPC `deadline` option. The last error is thrown as it was; the failure of a write whose
 * outcome is unknown is first marked for {@link outcomeUnknown}. Mutates the client's connection
 * pool (the package offers no hook for this).
 */
export function withFailover(client: Etcd3): Etcd3 {
  const pool = (client as unknown as { pool: { exec: Exec } }).pool;
  const exec: Exec = pool.exec.bind(pool);
  pool.exec = async (service, method, payload, options) => {
    const key = `${service}.${method}`;
    const until = Math.min(Date.now() + RETRY_BUDGET_MS, deadlineOf(options));
    for (let attempt = 0; ; attempt++) {
      try {
        return await exec(service, method, payload, options);
      } catch (err) {
        const pause = Math.min(RETRY_DELAY_MS * 2 ** attempt, MAX_RETRY_DELAY_MS);
        if (retryable(key, err, payload) && Date.now() + pause < until) {
          await sleep(pause);
          continue;
        }
        if (!readOnly(key, payload) && mayHaveApplied(err)) Object.assign(err as Error, { [OUTCOME_UNKNOWN]: true });
        throw err;
      }
    }
  };
  return client;
}
