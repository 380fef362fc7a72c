/**
 * The cacher's dispatch budget (upstream apiserver/pkg/storage/cacher/time_budget.go, v1.30): the
 * time a cacher grants watchers whose buffer is full before it closes them. It starts empty,
 * refills by 50 ms per second up to 100 ms; whoever takes it gets all of it and returns what it
 * did not use. Refilled lazily from the clock (no ticker), which amounts to the same budget.
 */

/** Refill rate of the budget: ms granted per second elapsed (upstream `refreshPerSecond`). */
export const BUDGET_REFRESH_MS_PER_SECOND = 50;
/** Largest budget (upstream `maxBudget`), ms. */
export const MAX_BUDGET_MS = 100;

/** A periodically refilled budget of time. */
export class TimeBudget {
  private budgetMs = 0;
  private refilledAt: number;

  /** `now` returns the clock in ms (tests pass a fake one). */
  constructor(private readonly now: () => number = Date.now) {
    this.refilledAt = now();
  }

  private refill(): void {
    const t = this.now();
    this.budgetMs = Math.min(MAX_BUDGET_MS, this.budgetMs + ((t - this.refilledAt) / 1000) * BUDGET_REFRESH_MS_PER_SECOND);
    this.refilledAt = t;
  }

  /** Takes the whole available budget (ms, 0–100) and leaves it empty. */
  takeAvailable(): number {
    this.refill();
    const out = this.budgetMs;
    this.budgetMs = 0;
    return out;
  }

  /** Gives back `unusedMs` of what was taken (negative amounts are ignored); capped at the maximum. */
  returnUnused(unusedMs: number): void {
    if (unusedMs < 0) return;
    this.refill();
    this.budgetMs = Math.min(MAX_BUDGET_MS, this.budgetMs + unusedMs);
  }
}
