/**
 * Bad values as upstream prints them with Go's `%#v` / `%q` (field errors of CRD validation
 * show the offending `apiextensions.ValidationRule` struct).
 */
import { GoSyntax } from '../../apimachinery/field-errors.js';
import type { ValidationRule } from '../types.js';

const ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
};

/** Go's `%q` of a string: double-quoted, with Go escapes for quotes and control characters. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const escaped = ESCAPES[ch];
    if (escaped !== undefined) {
      out += escaped;
      continue;
    }
    const code = ch.codePointAt(0)!;
    out += code < 0x20 || code === 0x7f ? `\\x${code.toString(16).padStart(2, '0')}` : ch;
  }
  return `${out}"`;
}

/**
 * Stands in for the address Go prints for a set pointer field; upstream's text carries a real
 * (run-dependent) address there.
 */
const POINTER = '0xc000000000';

/**
 * `%#v` of a validation rule as upstream's internal type prints it:
 * `apiextensions.ValidationRule{Rule:"…", Message:"", MessageExpression:"",
 * Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}`.
 */
export function goValidationRule(rule: ValidationRule): GoSyntax {
  const str = (v: unknown): string => goQuote(typeof v === 'string' ? v : '');
  const ptr = (type: string, v: unknown): string => `(*${type})(${v === undefined || v === null ? 'nil' : POINTER})`;
  return new GoSyntax(
    `apiextensions.ValidationRule{Rule:${str(rule.rule)}, Message:${str(rule.message)}, MessageExpression:${str(rule.messageExpression)}, ` +
      `Reason:${ptr('apiextensions.FieldValueErrorReason', rule.reason)}, FieldPath:${str(rule.fieldPath)}, OptionalOldSelf:${ptr('bool', rule.optionalOldSelf)}}`,
  );
}
