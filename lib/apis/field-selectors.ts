/**
 * Readers for field-selector values (upstream `SelectableFields`): a dotted path of the object
 * rendered as the string a selector compares with — '' for absent, `true`/`false` for booleans.
 */
import type { Obj } from './define.js';

/** Reads `a.b.c` of `obj` as a selector value. */
export function fieldValue(obj: Obj, path: string): string {
  let v: unknown = obj;
  for (const part of path.split('.')) {
    if (v === null || typeof v !== 'object') return '';
    v = (v as Obj)[part];
  }
  if (v === undefined || v === null) return '';
  return typeof v === 'object' ? '' : String(v);
}

/** Field selectors reading the given paths directly: `byPath('spec.nodeName', 'status.phase')`. */
export function byPath(...paths: string[]): Record<string, (obj: Obj) => string> {
  return Object.fromEntries(paths.map((p) => [p, (obj: Obj) => fieldValue(obj, p)]));
}
