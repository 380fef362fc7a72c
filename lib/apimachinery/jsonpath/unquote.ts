/**
 * Unquoting of JSONPath string literals (`"a\tb"`, `'x'`), as upstream `UnquoteExtend` does with
 * Go's `strconv.UnquoteChar`: the escapes `\a \b \f \n \r \t \v \\ \' \"` (the quote only when it
 * is the delimiter), `\xhh`, `\uhhhh`, `\Uhhhhhhhh` and octal `\ooo`. Pure.
 */

/** Go's one-letter escapes (and `\\`) by the character after the backslash: `n` → newline. */
export const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
};
const HEX_LENGTHS: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };
const HEX = /^[0-9a-fA-F]+$/;
const OCTAL = /^[0-7]{2}$/;

/** One escape at `s[i]` (the char after the backslash): the decoded text and the next index, or undefined. */
function unescape(s: string, i: number, quote: string): [string, number] | undefined {
  const c = s[i];
  if (c === undefined) return undefined;
  const simple = SIMPLE_ESCAPES[c];
  if (simple !== undefined) return [simple, i + 1];
  if (c === "'" || c === '"') return c === quote ? [c, i + 1] : undefined;
  const n = HEX_LENGTHS[c];
  if (n !== undefined) {
    const digits = s.slice(i + 1, i + 1 + n);
    if (digits.length < n || !HEX.test(digits)) return undefined;
    const v = parseInt(digits, 16);
    if (c === 'x') return [String.fromCharCode(v), i + 1 + n];
    if (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) return undefined;
    return [String.fromCodePoint(v), i + 1 + n];
  }
  if (c >= '0' && c <= '7') {
    const rest = s.slice(i + 1, i + 3);
    if (!OCTAL.test(rest)) return undefined;
    const v = parseInt(c + rest, 8);
    return v > 255 ? undefined : [String.fromCharCode(v), i + 3];
  }
  return undefined;
}

/**
 * The text of a quoted literal including its quotes (`"a\"b"` → `a"b`), or undefined for Go's
 * `invalid syntax` (unpaired quotes, a bad escape, a bare delimiter inside).
 */
export function unquoteExtend(literal: string): string | undefined {
  const n = literal.length;
  if (n < 2) return undefined;
  const quote = literal[0]!;
  if (quote !== literal[n - 1] || (quote !== '"' && quote !== "'")) return undefined;
  const s = literal.slice(1, n - 1);
  if (!s.includes('\\') && !s.includes(quote)) return s;
  let out = '';
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    if (c === quote) return undefined;
    if (c !== '\\') {
      out += c;
      i++;
      continue;
    }
    const step = unescape(s, i + 1, quote);
    if (step === undefined) return undefined;
    out += step[0];
    i = step[1];
  }
  return out;
}
