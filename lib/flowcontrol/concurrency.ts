/**
 * Seat arithmetic of API Priority and Fairness (upstream v1.30 apf_controller.go,
 * `digestConfigObjects` and `updateBorrowingLocked`; KEP-1040 § Borrowing): each priority level's
 * nominal limit is its share of the server's concurrency limit (`--max-requests-inflight` +
 * `--max-mutating-requests-inflight`), it may lend `lendablePercent` of that and borrow up to
 * `borrowingLimitPercent` of it; every adjustment period the levels' current limits are
 * re-allocated by their seat demand ({@link computeConcurrencyAllocation}).
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
  /** nominal + round(nominal × borrowingLimitPercent / 100), or nominal + the server limit when unlimited; the nominal for an exempt level. */
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
    else if (l.borrowingLimitPercent === undefined) max = nominal + serverLimit;
    else max = nominal + Math.round((nominal * l.borrowingLimitPercent) / 100);
    return { nominal, lendable, min: nominal - lendable, max };
  });
}

/** One level in the allocation problem (upstream `allocProblemItem`): bounds and the seats it would like. */
export interface AllocationClass {
  lower: number;
  upper: number;
  target: number;
}

/** The solution of an allocation problem: each class's seats (not rounded) and the fair fraction. */
export interface Allocation {
  allocs: number[];
  fairFrac: number;
}

/** Upstream's `MinTarget`: a smaller target counts as this (no division by zero). */
export const MIN_TARGET = 0.001;
const EPSILON = 0.0000001;
const MAX_FLOAT32 = 3.4028234663852886e38;

/**
 * Upstream `computeConcurrencyAllocation`: the unique fair fraction f and allocations with
 * Σ allocs = `required`, each alloc = clamp(f × target, lower, upper). When the lower bounds
 * already sum to `required`, the lower bounds (f = the least lower/target); when the upper bounds
 * do, the upper bounds (f = the greatest upper/target); `required` 0 gives zeros and f = 0.
 * @throws Error (upstream's wording) when `required` is negative, a lower bound is negative, a
 *   target is below its lower bound, an upper bound below its lower bound, or the bounds cannot
 *   sum to `required`.
 */
export function computeConcurrencyAllocation(required: number, classes: readonly AllocationClass[]): Allocation {
  if (required < 0) throw new Error('negative sums are not supported');
  let lowSum = 0;
  let highSum = 0;
  let targetSum = 0;
  // Upstream's ranges start at (MaxFloat32, 0).
  let lbMin = MAX_FLOAT32;
  let lbMax = 0;
  let ubMin = MAX_FLOAT32;
  let ubMax = 0;
  const targets: number[] = [];
  const rel: { lower: number; upper: number }[] = [];
  classes.forEach((c, i) => {
    if (c.lower < 0) throw new Error(`lower bound ${i} is ${c.lower} but negative lower bounds are not allowed`);
    if (c.target < c.lower) throw new Error(`target ${i} is ${c.target}, which is below its lower bound of ${c.lower}`);
    if (c.upper < c.lower) throw new Error(`upper bound ${i} is ${c.upper} but should not be less than the lower bound ${c.lower}`);
    const target = Math.max(c.target, MIN_TARGET);
    lowSum += c.lower;
    highSum += c.upper;
    targetSum += target;
    const r = { lower: c.lower / target, upper: c.upper / target };
    lbMin = Math.min(lbMin, r.lower);
    lbMax = Math.max(lbMax, r.lower);
    ubMin = Math.min(ubMin, r.upper);
    ubMax = Math.max(ubMax, r.upper);
    targets.push(target);
    rel.push(r);
  });
  if (lbMax > 1) throw new Error(`lbRange.max-1=${lbMax - 1}, which is impossible because lbRange.max can not be greater than 1`);
  if (lowSum - required > EPSILON) throw new Error(`lower bounds sum to ${lowSum}, which is higher than the required sum of ${required}`);
  if (required - highSum > EPSILON) throw new Error(`upper bounds sum to ${highSum}, which is lower than the required sum of ${required}`);
  if (required === 0) return { allocs: classes.map(() => 0), fairFrac: 0 };
  if (lowSum - required > -EPSILON) return { allocs: classes.map((c) => c.lower), fairFrac: lbMin };
  if (required - highSum > -EPSILON) return { allocs: classes.map((c) => c.upper), fairFrac: ubMax };
  let fair = required / targetSum;
  if (lbMax <= fair && fair <= ubMin) return { allocs: targets.map((t) => t * fair), fairFrac: fair };
  // Some bounds matter: walk the relative bounds upwards from the least lower one, tracking the
  // classes whose allocation follows f between consecutive bounds.
  const bounds = rel.flatMap((r, i) => [
    { at: r.lower, item: i, lower: true },
    { at: r.upper, item: i, lower: false },
  ]);
  bounds.sort((a, b) => a.at - b.at);
  let sumSoFar = lowSum;
  fair = lbMin;
  let sensitiveTargetSum = 0;
  let deltaTargetSum = 0;
  let sensitive = 0;
  let deltaSensitive = 0;
  let next = 0;
  while (sumSoFar < required) {
    let nextBound: number;
    for (;;) {
      sensitiveTargetSum += deltaTargetSum;
      sensitive += deltaSensitive;
      if (next >= bounds.length) throw new Error('impossible: ran out of bounds to consider in bound-constrained problem');
      const b = bounds[next++]!;
      nextBound = b.at;
      deltaSensitive = b.lower ? 1 : -1;
      deltaTargetSum = b.lower ? targets[b.item]! : -targets[b.item]!;
      if (nextBound > fair) break;
    }
    if (sensitive === 0) {
      fair = nextBound;
      continue;
    }
    const nextFair = fair + (required - sumSoFar) / sensitiveTargetSum;
    if (nextFair <= nextBound) {
      fair = nextFair;
      break;
    }
    sumSoFar += (nextBound - fair) * sensitiveTargetSum;
    fair = nextBound;
  }
  return { allocs: classes.map((c, i) => Math.max(c.lower, Math.min(c.upper, fair * targets[i]!))), fairFrac: fair };
}

/**
 * Upstream's per-level cap on the seats one request may take (`maxSeats`): max(1, min(ceil(0.15 ×
 * nominal), floor(nominal / handSize))), at most `limit` (10); `limit` for a level that does not queue.
 */
export function maxSeatsOf(nominal: number, handSize: number | undefined, limit = 10): number {
  if (handSize === undefined) return limit;
  return Math.min(limit, Math.max(1, Math.min(Math.ceil(0.15 * nominal), Math.floor(nominal / handSize))));
}
