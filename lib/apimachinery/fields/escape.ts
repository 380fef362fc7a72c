/**
 * Escaping of field selector values: `\` → `\\`, `,` → `\,`, `=` → `\=` (upstream
 * `fields.EscapeValue`/`UnescapeValue`; spec 000 § Collections).
 */
import { FieldSelectorError } from './errors.js';

const SPECIAL = /[\\,=]/;
const SPECIAL_ALL = /[\\,=]/g;

/** Escapes a literal value for use in a field selector. */
export function escapeValue(value: string): string {
  return SPECIAL.test(value) ? value.replace(SPECIAL_ALL, '\\$&') : value;
}

/**
 * Returns the literal value of an escaped one. Throws FieldSelectorError
 * `invalid field selector: invalid escape sequence: \x` for a backslash not followed by `\`, `,`
 * or `=` (or ending the value), and `invalid field selector: unescaped character in value: 61`
 * (the code point, as upstream prints a rune) for a bare `=` or `,`.
 */
export function unescapeValue(escaped: string): string {
  if (!SPECIAL.test(escaped)) return escaped;
  let out = '';
  for (let i = 0; i < escaped.length; i++) {
    const c = escaped[i]!;
    if (c === '\\') {
      if (i + 1 === escaped.length) throw new FieldSelectorError('invalid field selector: invalid escape sequence: \\');
      const next = String.fromCodePoint(escaped.codePointAt(i + 1)!);
      if (next !== '\\' && next !== ',' && next !== '=')
        throw new FieldSelectorError(`invalid field selector: invalid escape sequence: \\${next}`);
      out += next;
      i++;
    } else if (c === ',' || c === '=') {
      throw new FieldSelectorError(`invalid field selector: unescaped character in value: ${c.charCodeAt(0)}`);
    } else {
      out += c;
    }
  }
  return out;
}
