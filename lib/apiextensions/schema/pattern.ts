/**
 * Compiling a schema's `pattern` with RE2 syntax, as upstream does with Go's regexp package
 * (ValidateStructural: `must be a valid regular expression, but isn't: <error>`). The `re2js`
 * package is a port of RE2: it accepts what Go accepts (`(?i)`, `(?P<name>…)`, `\z`, a lone
 * `{`), refuses what Go refuses (lookaround, backreferences), and matches in time linear in the
 * value, so a pattern such as `^(a+)+$` cannot be made to backtrack for minutes by a value
 * (JavaScript's engine took 286 ms for 26 characters, doubling with each one more).
 */
import { RE2JS, RE2JSSyntaxException } from 're2js';

/**
 * Compiles `pattern` (RE2 syntax).
 * @returns the compiled pattern; its `test(value)` finds a match anywhere in the value, as Go's
 *   `MatchString`.
 * @throws RE2JSSyntaxException for an invalid pattern (see {@link patternError}).
 */
export function compilePattern(pattern: string): RE2JS {
  return RE2JS.compile(pattern);
}

/**
 * Why `pattern` is not a valid RE2 regular expression, as Go prints it (`error parsing regexp:
 * missing closing ): `(abc``), or undefined when it compiles.
 */
export function patternError(pattern: string): string | undefined {
  try {
    compilePattern(pattern);
    return undefined;
  } catch (e) {
    if (!(e instanceof RE2JSSyntaxException)) throw e;
    return `error parsing regexp: ${e.error}: \`${e.input ?? ''}\``;
  }
}
