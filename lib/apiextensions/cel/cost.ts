/**
 * Estimated-cost bookkeeping of validation rules when a CustomResourceDefinition is written
 * (upstream apiextensions validation: `getExpressionCost`, `getCostErrorMessage`, the CEL schema
 * context's cardinality and TotalCost). spec 001 § Limits (expression cost). Costs are in CEL
 * cost units, held as doubles capped at 2^64 (upstream's uint64 saturation).
 */
import { MAX_REQUEST_SIZE_BYTES, STATIC_ESTIMATED_CRD_COST_LIMIT } from '../../cel/index.js';

/** Upstream's math.MaxUint64 as a double. */
export const MAX_COST = 2 ** 64;

/** `a * b` saturating at MAX_COST; 0 when `a` is 0 (an empty rule). */
export function multiplySaturating(a: number, b: number): number {
  if (a === 0) return 0;
  return Math.min(MAX_COST, a * b);
}

/**
 * How many times a value of at least `minSerializedSize` bytes can appear in one request
 * (upstream `maxCardinality`): the cardinality used when an enclosing list or map is unbounded.
 */
export function cardinalityFromMinSize(minSerializedSize: number): number {
  return Math.floor(MAX_REQUEST_SIZE_BYTES / (minSerializedSize + 1));
}

/**
 * The upstream cost message: `<name> exceeds budget by factor of <f> (try simplifying the rule,
 * or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are
 * declared)` with `<f>` as `more than 100x`, `1.234567x` below 1.5, else `2.5x`.
 */
export function costErrorMessage(costName: string, cost: number, limit: number): string {
  const factor = cost / limit;
  let text: string;
  if (factor > 100) text = 'more than 100x';
  else if (factor < 1.5) text = `${factor.toFixed(6)}x`;
  else text = `${factor.toFixed(1)}x`;
  return `${costName} exceeds budget by factor of ${text} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

/** One expression's contribution to the total: its field path and its cost. */
export interface ExpressionCost {
  readonly path: string;
  readonly cost: number;
}

const MOST_EXPENSIVE_KEPT = 4;

/**
 * The sum of the estimated costs of every rule and message expression of a schema, and the
 * four most expensive ones that contribute at least 1% of STATIC_ESTIMATED_CRD_COST_LIMIT
 * (most expensive first; equal costs keep their observation order).
 */
export class TotalCost {
  total = 0;
  readonly mostExpensive: ExpressionCost[] = [];

  /** Adds one expression's cost (saturating). */
  observe(path: string, cost: number): void {
    this.total = Math.min(MAX_COST, this.total + cost);
    if (cost < STATIC_ESTIMATED_CRD_COST_LIMIT / 100) return;
    let at = this.mostExpensive.findIndex((e) => e.cost < cost);
    if (at === -1) at = this.mostExpensive.length;
    if (at >= MOST_EXPENSIVE_KEPT) return;
    this.mostExpensive.splice(at, 0, { path, cost });
    if (this.mostExpensive.length > MOST_EXPENSIVE_KEPT) this.mostExpensive.pop();
  }
}
