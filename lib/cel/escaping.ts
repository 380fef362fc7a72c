/**
 * Property-name escaping between schema property names and expression identifiers.
 * spec 000 § Expression language (CEL) in fields: only names matching
 * `[a-zA-Z_.-/][a-zA-Z0-9_.-/]*` are accessible; a reserved word is written `__<word>__`, `-` as
 * `__dash__`, a literal `__` as `__underscores__`, and (upstream) `.` as `__dot__`, `/` as
 * `__slash__`.
 */

/** Words the expression language reserves; a property with such a name is escaped whole. */
export const RESERVED_WORDS: ReadonlySet<string> = new Set([
  'true', 'false', 'null', 'in',
  'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let',
  'loop', 'package', 'namespace', 'return', 'var', 'void', 'while',
]);

const ESCAPES: Readonly<Record<string, string>> = {
  __: '__underscores__',
  '.': '__dot__',
  '-': '__dash__',
  '/': '__slash__',
};
const UNESCAPES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(ESCAPES).map(([k, v]) => [v, k]),
);

const ACCESSIBLE = /^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*$/;
const PLAIN = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/**
 * The identifier under which property `name` is visible in expressions, or undefined when the
 * name is not accessible (empty, starts with a digit, or has characters outside the set).
 */
export function escapeProperty(name: string): string | undefined {
  if (!ACCESSIBLE.test(name)) return undefined;
  if (RESERVED_WORDS.has(name)) return `__${name}__`;
  if (PLAIN.test(name) && !name.includes('__')) return name;
  return name.replace(/__|[./-]/g, (m) => ESCAPES[m]!);
}

/**
 * The property name an escaped identifier stands for, or undefined when it holds an unknown
 * escape sequence (`__x__` with `x` other than underscores, dot, dash, slash or a reserved word).
 */
export function unescapeProperty(ident: string): string | undefined {
  if (ident.length > 4 && ident.startsWith('__') && ident.endsWith('__')) {
    const word = ident.slice(2, -2);
    if (RESERVED_WORDS.has(word)) return word;
  }
  let ok = true;
  const out = ident.replace(/__[^_]+__/g, (seq) => {
    const plain = UNESCAPES[seq];
    if (plain === undefined) ok = false;
    return plain ?? '';
  });
  return ok ? out : undefined;
}
