/**
 * Expression cost limits, with the upstream values. spec 001 § Limits (expression cost): a
 * runtime budget per expression, a total across the expressions of one object, and a limit on
 * the worst-case estimate that some kinds enforce when an expression is written.
 */

/** Runtime cost limit of one expression evaluation (≈ 0.1 s of CPU). */
export const PER_CALL_LIMIT = 1_000_000;

/** Runtime budget shared by all expressions validating one object (≈ 1 s of CPU). */
export const RUNTIME_CEL_COST_BUDGET = 10_000_000;

/** Runtime budget of the match conditions evaluated for one object. */
export const RUNTIME_CEL_COST_BUDGET_MATCH_CONDITIONS = 2_500_000;

/** Largest worst-case estimated cost one expression may have when it is written. */
export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000;

/** Largest total estimated cost of all validation expressions of one resource definition. */
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000;

/** Largest request the server accepts; bounds lists, maps and strings without schema limits. */
export const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;

/** Largest string a message expression may produce. */
export const MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES = 5 * 1024;
