/**
 * Go's `%q` of a string (`strconv.Quote`), the quoting upstream's messages use for names, paths
 * and values (`"a\tb"`, `"\x00"`, `"\u00a0"`); and the time package's own, simpler quoting of
 * the values in its parse errors.
 */

/** The characters Go writes as a backslash and one character (`\a \b \f \n \r \t \v \\ \"`). */
export const GO_QUOTE_ESCAPES: Readonly<Record<string, string>> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '\\': '\\\\',
  '"': '\\"',
};

/** Go's `unicode.IsPrint` for a non-ASCII rune: letters, marks, numbers, punctuation, symbols. */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

/** A UTF-16 surrogate code unit standing alone (it has no rune in Go). */
const isSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdfff;

/**
 * Go's `strconv.Quote(s)`: `s` in double quotes with `"` and `\` escaped, the seven control
 * characters that have letter escapes as `\a`…`\v`, other ASCII control characters as `\xNN`,
 * non-printable runes as `\uNNNN` / `\UNNNNNNNN` and printable runes as themselves. A lone
 * surrogate (which Go's JSON decoder turns into U+FFFD) prints as U+FFFD `�`. Never throws.
 */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const escaped = GO_QUOTE_ESCAPES[ch];
    if (escaped !== undefined) {
      out += escaped;
      continue;
    }
    const code = ch.codePointAt(0)!;
    if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code < 0x7f) out += ch;
    else if (isSurrogate(code)) out += '\ufffd';
    else if (PRINTABLE.test(ch)) out += ch;
    else if (code < 0x10000) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += `\\U${code.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}

/** Go's `quote` of the time package: `"` and `\` escaped, bytes outside printable ASCII as `\xNN`. */
export function goTimeQuote(s: string): string {
  let out = '"';
  for (const b of Buffer.from(s, 'utf8')) {
    if (b < 0x20 || b >= 0x80) out += `\\x${b.toString(16).padStart(2, '0')}`;
    else {
      const c = String.fromCharCode(b);
      out += c === '"' || c === '\\' ? `\\${c}` : c;
    }
  }
  return `${out}"`;
}
