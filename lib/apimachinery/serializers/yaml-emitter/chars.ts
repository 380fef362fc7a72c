/**
 * Characters as go-yaml's emitter sees them: it walks UTF-8 runes, we walk UTF-16 units, so a
 * code point is read from its surrogate pair (a lone surrogate is U+FFFD, as it is written in
 * UTF-8). The break and printable tests follow go-yaml v2's yamlprivateh.go.
 */

/** go-yaml's is_break: a line feed, carriage return, NEL, LS or PS (code point `c`). */
export function isBreak(c: number): boolean {
  return c === 0x0a || c === 0x0d || c === 0x85 || c === 0x2028 || c === 0x2029;
}

/** go-yaml's is_printable on the UTF-8 form of code point `c`. */
export function isPrintable(c: number): boolean {
  return c === 0x0a || (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff);
}

/** How many UTF-16 units the code point last read by codePointAt takes (1 or 2). */
export let codeWidth = 1;

/**
 * The code point at `i` of `s` (a lone surrogate reads as U+FFFD, as it is written in UTF-8) and,
 * in `codeWidth`, how many UTF-16 units it takes.
 */
export function codePointAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  codeWidth = 1;
  if (c < 0xd800 || c > 0xdfff) return c;
  const d = c <= 0xdbff && i + 1 < s.length ? s.charCodeAt(i + 1) : 0;
  if (d < 0xdc00 || d > 0xdfff) return 0xfffd;
  codeWidth = 2;
  return 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
}

/** The number of characters (code points) in `s`. */
export function characters(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}
