/**
 * Pieces of Go's `%#v` of upstream's internal apiextensions types, which upstream prints as the
 * bad value of some CRD field errors (the schema printer is in schema/go-syntax.ts, the versions
 * printer in validation/go-syntax.ts). Go prints a non-nil pointer as its address, which differs
 * on every run and means nothing to a client; a fixed placeholder stands for it.
 */
import { GoSyntax } from '../apimachinery/field-errors.js';
import { goQuote } from '../apimachinery/go-quote.js';
import type { ValidationRule } from './types.js';

/** A validation rule as read from a schema: its members may have any type. */
type RuleLike = Partial<Record<keyof ValidationRule, unknown>>;

/** The Go package name of upstream's internal types (`apiextensions.JSONSchemaProps`). */
export const PKG = 'apiextensions';

/** The address printed for a non-nil pointer. */
const ADDRESS = '0xc000000000';

/** `%#v` of a string field: Go's `%q` of `v`, `""` when `v` is not a string. */
export const quote = (v: unknown): string => goQuote(typeof v === 'string' ? v : '');

/** `%#v` of a bool field: `true` only for `true`. */
export const bool = (v: unknown): string => String(v === true);

/** `%#v` of a pointer field of Go type `*type`: `(*type)(nil)` when absent, else `(*type)(0xc000000000)`. */
export const pointer = (type: string, v: unknown): string => `(*${type})(${v === undefined || v === null ? 'nil' : ADDRESS})`;

/**
 * `apiextensions.ValidationRule{Rule:"…", Message:"", MessageExpression:"",
 * Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}`
 * for a rule object (non-string members print as `""`).
 */
export function validationRuleText(rule: RuleLike): string {
  return (
    `${PKG}.ValidationRule{Rule:${quote(rule.rule)}, Message:${quote(rule.message)}, MessageExpression:${quote(rule.messageExpression)}, ` +
    `Reason:${pointer(`${PKG}.FieldValueErrorReason`, rule.reason)}, FieldPath:${quote(rule.fieldPath)}, OptionalOldSelf:${pointer('bool', rule.optionalOldSelf)}}`
  );
}

/** The bad value upstream prints for one validation rule (`%#v` of the internal `apiextensions.ValidationRule`). */
export function goValidationRule(rule: RuleLike): GoSyntax {
  return new GoSyntax(validationRuleText(rule));
}
