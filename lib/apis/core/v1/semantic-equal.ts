/**
 * Equality of decoded objects with the upstream "semantic" rules used by update validation:
 * an absent field equals its zero value (`""`, `0`, `false`, `[]`, `{}`), as absent and zero
 * are the same in the Go types. Plus a line diff for the messages that show what changed.
 */

type Obj = Record<string, unknown>;

const isPlain = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** True for values equal to "not set": undefined, null, '', 0, false, [], {} (recursively). */
function isZero(v: unknown): boolean {
  if (v === undefined || v === null || v === '' || v === 0 || v === false) return true;
  if (Array.isArray(v)) return v.length === 0;
  return isPlain(v) && Object.values(v).every(isZero);
}

/** Deep equality where absent and zero values are the same. */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (isZero(a) && isZero(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => semanticEqual(x, b[i]));
  if (isPlain(a) && isPlain(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!semanticEqual(a[k], b[k])) return false;
    return true;
  }
  return a === b;
}

/** `- path: old` / `+ path: new` lines for every leaf that differs (semantically) under `prefix`. */
export function diffLines(before: unknown, after: unknown, prefix: string): string {
  const lines: string[] = [];
  const walk = (a: unknown, b: unknown, path: string): void => {
    if (semanticEqual(a, b)) return;
    if (isPlain(a) && isPlain(b)) {
      for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) walk(a[k], b[k], `${path}.${k}`);
      return;
    }
    if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
      a.forEach((x, i) => walk(x, b[i], `${path}[${i}]`));
      return;
    }
    if (!isZero(a)) lines.push(`- ${path}: ${JSON.stringify(a)}`);
    if (!isZero(b)) lines.push(`+ ${path}: ${JSON.stringify(b)}`);
  };
  walk(before, after, prefix);
  return lines.join('\n');
}
