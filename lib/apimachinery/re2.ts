/**
 * Regular expressions with RE2 semantics, as upstream compiles them with Go's regexp package:
 * linear in the text matched (no backtracking a value can make run for hours), RE2 syntax
 * (`(?i)`, `(?P<name>…)`, `\z`; no lookaround, no backreferences). The `re2js` package is a port
 * of RE2; its syntax errors are worded here as Go prints them. Used by CEL's regex library and
 * by custom resources' `pattern`s.
 */
import { RE2JS, RE2JSException, RE2JSSyntaxException } from 're2js';

/**
 * Compiles `pattern` (RE2 syntax): the compiled pattern (its `test(text)` finds a match anywhere
 * in the text, as Go's MatchString), or, for an invalid pattern, Go's error text
 * (`error parsing regexp: missing closing ): `(abc``).
 * @throws Error only for a failure of the package that is not an error of the pattern.
 */
export function compileRE2(pattern: string): RE2JS | string {
  try {
    return RE2JS.compile(pattern);
  } catch (err) {
    // Go's regexp.Error always ends with the offending text, empty or not.
    if (err instanceof RE2JSSyntaxException) return `error parsing regexp: ${err.error}: \`${err.input ?? ''}\``;
    if (err instanceof RE2JSException) return err.message;
    throw err;
  }
}
