/**
 * Leader election (issue #16 item 1) with client-go's `tools/leaderelection` semantics: a
 * candidate tries to acquire the lock every retry period (with jitter) until the record's holder
 * is empty, is itself, or has not renewed for the lease duration as observed on this
 * candidate's own clock; the leader renews every retry period and, when a renewal does not succeed
 * within the renew deadline, stops leading. A new holder increments `leaseTransitions`; a
 * renewal keeps `acquireTime`. Writes go over the version last read (optimistic concurrency),
 * so two candidates can never both win the same term.
 *
 * Unlike client-go, whose `Run` returns after the first term (the controller manager then exits),
 * {@link LeaderElector.run} goes back to acquiring after a lost term, until its signal aborts:
 * `onStoppedLeading` is called at the end of every term (not when a candidate that never led stops).
 */
import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { isReason } from '../../apimachinery/errors.js';
import { formatMicroTime } from '../../apimachinery/schema/decode.js';
import type { LeaderElectionRecord, ResourceLock } from './lease-lock.js';

/** client-go's `JitterFactor` of the acquire loop. */
export const JITTER_FACTOR = 1.2;

/** What the elector calls (client-go `LeaderCallbacks`). */
export interface LeaderCallbacks {
  /** This candidate leads from now until `signal` aborts (the term ended). */
  onStartedLeading(signal: AbortSignal): void;
  /** The term ended (renewal failed, or the elector stopped). */
  onStoppedLeading(): void;
  /** Another (or this) candidate was observed to hold the lock. */
  onNewLeader?(identity: string): void;
}

/** The election's configuration (client-go `LeaderElectionConfig`; durations in milliseconds). */
export interface LeaderElectionConfig {
  lock: ResourceLock;
  /** How long a record stays valid after it was observed to change (default flag 15 s). */
  leaseDurationMs: number;
  /** How long the leader retries a renewal before it stops leading (default flag 10 s). */
  renewDeadlineMs: number;
  /** Pause between attempts (default flag 2 s). */
  retryPeriodMs: number;
  callbacks: LeaderCallbacks;
  /** Give the lock up (empty holder, 1 s duration) when the elector stops while leading. */
  releaseOnCancel?: boolean;
  /** Reports failed attempts (they are retried). */
  onError?: (err: unknown) => void;
  /** The clock (tests). */
  now?: () => number;
}

/**
 * Checks a configuration as client-go's `NewLeaderElector` does.
 * @returns the first problem, in client-go's wording, or undefined.
 */
export function validateLeaderElectionConfig(cfg: Pick<LeaderElectionConfig, 'leaseDurationMs' | 'renewDeadlineMs' | 'retryPeriodMs'>): string | undefined {
  if (cfg.leaseDurationMs <= cfg.renewDeadlineMs) return 'leaseDuration must be greater than renewDeadline';
  if (cfg.renewDeadlineMs <= JITTER_FACTOR * cfg.retryPeriodMs) return 'renewDeadline must be greater than retryPeriod*JitterFactor';
  if (cfg.leaseDurationMs < 1) return 'leaseDuration must be greater than zero';
  if (cfg.renewDeadlineMs < 1) return 'renewDeadline must be greater than zero';
  if (cfg.retryPeriodMs < 1) return 'retryPeriod must be greater than zero';
  return undefined;
}

/** A candidate in one election (module doc). */
export class LeaderElector {
  private observed: LeaderElectionRecord | undefined;
  private observedRaw = '';
  /** Local clock time the observed record last changed (ms). */
  private observedTime = 0;
  private reportedLeader = '';
  private readonly now: () => number;

  /** @throws Error with client-go's message when the timings are inconsistent or the identity is empty. */
  constructor(private readonly cfg: LeaderElectionConfig) {
    const problem = validateLeaderElectionConfig(cfg);
    if (problem) throw new Error(problem);
    if (cfg.lock.identity() === '') throw new Error('Lock identity is empty');
    this.now = cfg.now ?? Date.now;
  }

  /** Whether the last observed record names this candidate. */
  isLeader(): boolean {
    return this.observed !== undefined && this.observed.holderIdentity === this.cfg.lock.identity();
  }

  /** The holder of the last observed record ('' when none). */
  getLeader(): string {
    return this.observed?.holderIdentity ?? '';
  }

  /**
   * client-go's health check: a follower is healthy; a leader whose last successful renewal is
   * older than the lease duration plus `maxTolerableExpiredMs` is not.
   * @returns the error `failed election to renew leadership on lease <ns>/<name>`, or undefined.
   */
  check(maxTolerableExpiredMs: number): Error | undefined {
    if (!this.isLeader()) return undefined;
    if (this.now() - this.observedTime > this.cfg.leaseDurationMs + maxTolerableExpiredMs) {
      return new Error(`failed election to renew leadership on lease ${this.cfg.lock.describe()}`);
    }
    return undefined;
  }

  /** Acquires, leads until a renewal fails, and again, until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      if (!(await this.acquire(signal))) return;
      const term = new AbortController();
      // Every leader-elected controller and its informers listen on the term: no leak at 11.
      setMaxListeners(0, term.signal);
      const end = () => term.abort();
      signal.addEventListener('abort', end, { once: true });
      try {
        this.cfg.callbacks.onStartedLeading(term.signal);
        await this.renew(signal);
      } finally {
        signal.removeEventListener('abort', end);
        term.abort();
        if (signal.aborted && this.cfg.releaseOnCancel) await this.release();
        this.cfg.callbacks.onStoppedLeading();
      }
    }
  }

  /** Tries every retry period (jittered) until this candidate holds the lock; false when `signal` aborted first. */
  private async acquire(signal: AbortSignal): Promise<boolean> {
    while (!signal.aborted) {
      const ok = await this.tryAcquireOrRenew();
      this.maybeReportTransition();
      if (ok && !signal.aborted) return true;
      const wait = this.cfg.retryPeriodMs * (1 + Math.random() * JITTER_FACTOR);
      await sleep(wait, undefined, { signal, ref: false }).catch(() => undefined);
    }
    return false;
  }

  /** Renews every retry period; returns when a renewal did not succeed within the renew deadline, or `signal` aborted. */
  private async renew(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const deadline = this.now() + this.cfg.renewDeadlineMs;
      let renewed = false;
      while (!signal.aborted && this.now() < deadline) {
        renewed = await this.withDeadline(this.tryAcquireOrRenew(), deadline - this.now());
        if (renewed) break;
        const wait = Math.min(this.cfg.retryPeriodMs, deadline - this.now());
        if (wait > 0) await sleep(wait, undefined, { signal, ref: false }).catch(() => undefined);
      }
      this.maybeReportTransition();
      if (!renewed) return;
      await sleep(this.cfg.retryPeriodMs, undefined, { signal, ref: false }).catch(() => undefined);
    }
  }

  /** `attempt`'s outcome, or false when it has not settled within `ms`. */
  private async withDeadline(attempt: Promise<boolean>, ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), Math.max(0, ms));
      timer.unref();
    });
    try {
      return await Promise.race([attempt, expired]);
    } finally {
      clearTimeout(timer);
    }
  }

  private setObserved(record: LeaderElectionRecord, raw = JSON.stringify(record)): void {
    this.observed = record;
    this.observedRaw = raw;
    this.observedTime = this.now();
  }

  private isLeaseValid(now: number): boolean {
    return this.observed !== undefined && this.observedTime + this.observed.leaseDurationSeconds * 1000 > now;
  }

  /** One attempt (client-go `tryAcquireOrRenew`): true when this candidate holds the lock afterwards. */
  private async tryAcquireOrRenew(): Promise<boolean> {
    const nowMs = this.now();
    const now = formatMicroTime(new Date(nowMs));
    const record: LeaderElectionRecord = {
      holderIdentity: this.cfg.lock.identity(),
      leaseDurationSeconds: Math.max(1, Math.floor(this.cfg.leaseDurationMs / 1000)),
      renewTime: now,
      acquireTime: now,
      leaderTransitions: 0,
    };
    // Fast path: the leader updates the version it wrote last.
    if (this.isLeader() && this.isLeaseValid(nowMs)) {
      const old = this.observed!;
      const renewal = { ...record, acquireTime: old.acquireTime, leaderTransitions: old.leaderTransitions };
      try {
        await this.cfg.lock.update(renewal);
        this.setObserved(renewal);
        return true;
      } catch (err) {
        // Falls back to the slow path (a conflict: someone else wrote the lock).
        if (!isReason(err, 'Conflict')) this.cfg.onError?.(err);
      }
    }
    let current: { record: LeaderElectionRecord; raw: string };
    try {
      current = await this.cfg.lock.get();
    } catch (err) {
      if (!isReason(err, 'NotFound')) {
        this.cfg.onError?.(err);
        return false;
      }
      try {
        await this.cfg.lock.create(record);
      } catch (createErr) {
        if (!isReason(createErr, 'AlreadyExists')) this.cfg.onError?.(createErr);
        return false;
      }
      this.setObserved(record);
      return true;
    }
    if (current.raw !== this.observedRaw) this.setObserved(current.record, current.raw);
    if (current.record.holderIdentity !== '' && this.isLeaseValid(this.now()) && !this.isLeader()) return false;
    const next = this.isLeader()
      ? { ...record, acquireTime: current.record.acquireTime, leaderTransitions: current.record.leaderTransitions }
      : { ...record, leaderTransitions: current.record.leaderTransitions + 1 };
    try {
      await this.cfg.lock.update(next);
    } catch (err) {
      if (!isReason(err, 'Conflict')) this.cfg.onError?.(err);
      return false;
    }
    this.setObserved(next);
    return true;
  }

  /** Gives the lock up when holding it (client-go `release`). */
  private async release(): Promise<void> {
    if (!this.isLeader()) return;
    const now = formatMicroTime(new Date(this.now()));
    const released: LeaderElectionRecord = { holderIdentity: '', leaseDurationSeconds: 1, renewTime: now, acquireTime: now, leaderTransitions: this.observed!.leaderTransitions };
    try {
      await this.cfg.lock.update(released);
      this.setObserved(released);
    } catch (err) {
      this.cfg.onError?.(err);
    }
  }

  private maybeReportTransition(): void {
    const leader = this.getLeader();
    if (this.observed === undefined || leader === this.reportedLeader) return;
    this.reportedLeader = leader;
    this.cfg.callbacks.onNewLeader?.(leader);
  }
}
