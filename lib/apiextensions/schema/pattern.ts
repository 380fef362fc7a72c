/**
 * Compiling a schema's `pattern` (upstream ValidateStructural: `must be a valid regular
 * expression, but isn't: <error>`). Upstream compiles with Go's RE2; we scan the pattern for the
 * common RE2 syntax errors and the constructs RE2 refuses but JavaScript accepts (lookaround,
 * backreferences), reporting them with Go's text (`error parsing regexp: missing argument to
 * repetition operator: `+``), then compile with JavaScript's engine in unicode mode (as ajv does
 * when it validates values). Known differences: other syntax errors carry JavaScript's text, and
 * RE2-only syntax that JavaScript refuses (`(?i)`, `(?P<name>…)`, `\z`, a lone `{`, `^*`) is
 * reported as invalid here while upstream accepts it.
 */

const LOOKAROUND = ['(?=', '(?!', '(?<=', '(?<!'];

/** Index of the `]` closing the class opened at `open`, or -1 (Go: a leading `]` is literal). */
function classEnd(p: string, open: number): number {
  let j = open + 1;
  if (p[j] === '^') j++;
  if (p[j] === ']') j++;
  for (; j < p.length; j++) {
    if (p[j] === '\\') j++;
    else if (p[j] === ']') return j;
  }
  return -1;
}

/** Index of the last character of a group's `(?…` modifier starting at `open`, or `open`. */
function groupModifierEnd(p: string, open: number): number {
  if (p[open + 1] !== '?') return open;
  if (p[open + 2] === ':') return open + 2;
  if (p[open + 2] === '<' || (p[open + 2] === 'P' && p[open + 3] === '<')) {
    const close = p.indexOf('>', open);
    return close < 0 ? open : close;
  }
  const flags = /^[imsU-]*[:)]/.exec(p.slice(open + 2));
  return flags ? open + 1 + flags[0].length - (flags[0].endsWith(')') ? 1 : 0) : open;
}

/** Go's text for the first RE2 error the scanner recognizes, or undefined. */
function re2Error(p: string): string | undefined {
  let depth = 0;
  let prev: 'start' | 'atom' | 'repeat' = 'start';
  let repeatStart = 0;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    const look = LOOKAROUND.find((l) => p.startsWith(l, i));
    if (look) return `invalid or unsupported Perl syntax: \`${look.startsWith('(?<') ? '(?<' : look}\``;
    if (c === '\\') {
      if (i + 1 >= p.length) return 'trailing backslash at end of expression: ``';
      if (/[1-9k]/.test(p[i + 1])) return `invalid escape sequence: \`\\${p[i + 1]}\``;
      i++;
      prev = 'atom';
    } else if (c === '[') {
      const end = classEnd(p, i);
      if (end < 0) return `missing closing ]: \`${p.slice(i)}\``;
      i = end;
      prev = 'atom';
    } else if (c === '(') {
      depth++;
      i = groupModifierEnd(p, i);
      prev = 'start';
    } else if (c === ')') {
      if (depth === 0) return `unexpected ): \`${p}\``;
      depth--;
      prev = 'atom';
    } else if (c === '|') {
      prev = 'start';
    } else if (c === '*' || c === '+' || c === '?') {
      const end = p[i + 1] === '?' ? i + 2 : i + 1;
      if (prev === 'start') return `missing argument to repetition operator: \`${p.slice(i, end)}\``;
      if (prev === 'repeat') return `invalid nested repetition operator: \`${p.slice(repeatStart, end)}\``;
      prev = 'repeat';
      repeatStart = i;
      i = end - 1;
    } else {
      prev = 'atom';
    }
  }
  return depth > 0 ? `missing closing ): \`${p}\`` : undefined;
}

/**
 * Why `pattern` is not a valid regular expression (`error parsing regexp: …` as Go prints it for
 * the errors recognized above, otherwise the JavaScript engine's message), or undefined when it
 * compiles.
 */
export function patternError(pattern: string): string | undefined {
  const re2 = re2Error(pattern);
  if (re2 !== undefined) return `error parsing regexp: ${re2}`;
  try {
    new RegExp(pattern, 'u');
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}
