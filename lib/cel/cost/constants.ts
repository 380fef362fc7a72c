/**
 * Cost units. spec 001 § Limits (expression cost): "A comparison costs 1; a list literal has base
 * cost 40; regex functions are estimated as the regex length times the input length." The other
 * figures are upstream's.
 */

import type { ComprehensionArgs } from '../ast.js';

/** Reading a variable or selecting a field. */
export const SELECT_AND_IDENT_COST = 1;
/** Reading a constant. */
export const CONST_COST = 0;
/** Any function call or operator without a size-dependent cost (comparisons included). */
export const CALL_COST = 1;
/** Creating a list (spec figure; upstream's implementation uses 10). */
export const LIST_CREATE_BASE_COST = 40;
/** Creating a map. */
export const MAP_CREATE_BASE_COST = 30;
/** Traversing one unit (character, byte) of a string or bytes value. */
export const STRING_TRAVERSAL_COST_FACTOR = 0.1;
/** One authorization check; sized so that two checks fit in one expression's budget. */
export const AUTHORIZATION_CHECK_COST = 350_000;

/**
 * Loop overhead of one comprehension iteration: the loop condition and accumulator reads, and
 * for map and filter steps the list they build.
 */
export function iterationOverhead(c: ComprehensionArgs): number {
  return c.kind === 'quantifier' ? 3 : 2 + LIST_CREATE_BASE_COST;
}
