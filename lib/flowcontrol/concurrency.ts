/**
 * Seat arithmetic of API Priority and Fairness (upstream v1.30 apf_controller.go,
 * `digestConfigObjects` and `updateBorrowingLocked`; KEP-1040 § Borrowing): each priority level's
 * nominal limit is its share of the server's concurrency limit (`--max-requests-inflight` +
 * `--max-mutating-requests-inflight`), it may lend `lendablePercent` of that and borrow up to
 * `borrowingLimitPercent` of it; every adjustment period the levels' current limits are
 * re-allocated by their seat demand ({@link allocateConcurrency}).
 */

/** What a priority level contributes to the arithmetic. */
export interface LevelShares {
  /** `nominalConcurrencyShares` (0 allowed). */
  shares: number;
  /** `lendablePercent`, 0–100. */
  lendablePercent: number;
  /** `borrowingLimitPercent`; absent: no limit (a Limited level), or none at all (an Exempt level, which never borrows). */
  borrowingLimitPercent?: number;
  exempt: boolean;
}

/** A level's seat limits, in seats. */
export interface LevelLimits {
  /** ceil(serverLimit × shares / Σ shares). */
  nominal: number;
  /** round(nominal × lendablePercent / 100). */
  lendable: number;
  /** nominal − lendable: the level keeps at least this. */
  min: number;
  /** nominal + round(nominal × borrowingLimitPercent / 100), or the server limit when unlimited; the nominal for an exempt level. */
  max: number;
}

/**
 * The limits of each level (same order as `levels`) under a server limit of `serverLimit`
 * seats. Σ shares 0 (no level has shares) gives every level a nominal limit of 0.
 */
export function computeLimits(serverLimit: number, levels: readonly LevelShares[]): LevelLimits[] {
  const sum = levels.reduce((s, l) => s + l.shares, 0);
  return levels.map((l) => {
    const nominal = sum > 0 ? Math.ceil((serverLimit * l.shares) / sum) : 0;
    const lendable = Math.round((nominal * l.lendablePercent) / 100);
    let max: number;
    if (l.exempt) max = nominal;
    else if (l.borrowingLimitPercent === undefined) max = Math.max(nominal, serverLimit);
    else max = nominal + Math.round((nominal * l.borrowingLimitPercent) / 100);
    return { nominal, lendable, min: nominal - lendable, max };
  });
}

/** One level in the allocation problem: bounds and the seats it would like (its smoothed demand). */
export interface AllocationClass {
  lower: number;
  upper: number;
  target: number;
}

/**
 * Upstream `computeConcurrencyAllocation`: finds the fair fraction f such that
 * Σ clamp(target × f, lower, upper) = required, and returns each level's allocation rounded to
 * whole seats. When even the lower bounds exceed `required`, the lower bounds; when even the
 * upper bounds fall short, the upper bounds.
 */
export function allocateConcurrency(required: number, classes: readonly AllocationClass[]): number[] {
  const sumLower = classes.reduce((s, c) => s + c.lower, 0);
  const sumUpper = classes.reduce((s, c) => s + c.upper, 0);
  if (sumLower >= required) return classes.map((c) => c.lower);
  if (sumUpper <= required) return classes.map((c) => c.upper);
  const at = (f: number) => classes.reduce((s, c) => s + Math.min(c.upper, Math.max(c.lower, c.target * f)), 0);
  let hi = 1;
  // Every class reaches its upper bound once f ≥ upper / target; classes with no target stay at their lower bound.
  for (const c of classes) if (c.target > 0) hi = Math.max(hi, c.upper / c.target);
  if (at(hi) < required) {
    // Demand cannot absorb the seats: what is left goes to the levels with room, in proportion to their room.
    const alloc = classes.map((c) => Math.min(c.upper, Math.max(c.lower, c.target * hi)));
    const spare = required - at(hi);
    const room = classes.reduce((s, c, i) => s + (c.upper - alloc[i]!), 0);
    return alloc.map((a, i) => Math.round(a + (spare * (classes[i]!.upper - a)) / room));
  }
  let lo = 0;
  for (let i = 0; i < 64; i++) {
    const mid = (lo + hi) / 2;
    if (at(mid) < required) lo = mid;
    else hi = mid;
  }
  return classes.map((c) => Math.round(Math.min(c.upper, Math.max(c.lower, c.target * hi))));
}

/**
 * Upstream's per-level cap on the seats one request may take (`maxSeats`): max(1, min(ceil(0.15 ×
 * nominal), floor(nominal / handSize))), at most `limit` (10); `limit` for a level that does not queue.
 */
export function maxSeatsOf(nominal: number, handSize: number | undefined, limit = 10): number {
  if (handSize === undefined) return limit;
  return Math.min(limit, Math.max(1, Math.min(Math.ceil(0.15 * nominal), Math.floor(nominal / handSize))));
}
