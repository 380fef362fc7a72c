/**
 * Serving a kind under the upstream alias of its group (`--upstream-aliases`, issue #9): the
 * alias KindDefinition and the conversion between the stored spelling (the vendor group) and the
 * served one, applied as a version conversion is — `apiVersion` and the kind's group references
 * (`roleRef.apiGroup`, `subjects[].apiGroup`) are rewritten on the way in and on the way out.
 * Label and annotation keys, and every other field, are data and never rewritten.
 */
import type { KindDefinition, Obj } from './define.js';
import { canonicalGroup, upstreamAlias } from './vendor.js';

/** The conversion between the stored and the served spelling of one kind. */
export interface KindConversion {
  /** The kind as stored (the vendor group). */
  readonly storageKind: KindDefinition;
  /** The kind as served: the alias, or the stored kind itself for the vendor group. */
  readonly servedKind: KindDefinition;
  /**
   * Converts a decoded request object, in place, to the stored spelling: `apiVersion` of the
   * stored kind, group references in the vendor spelling (an upstream spelling written through
   * the vendor group is accepted too). Returns `obj`.
   */
  toStorage(obj: Obj): Obj;
  /**
   * The served spelling of a stored object, a `<Kind>List` (items converted) or a watch event's
   * object; a Status or an object of another kind passes unchanged. Copies only what differs and
   * never modifies `obj`; the copy of an object is memoized (objects handed out by storage are
   * never mutated), so a watch event fanned out to many watchers is converted, and encoded, once.
   */
  toServed(obj: Obj): Obj;
}

/** A compiled group-reference path: object keys, with `[]` for every element of a list. */
type RefPath = readonly string[];

function compilePaths(paths: readonly string[]): RefPath[] {
  return paths.map((p) => p.split('.').flatMap((seg) => (seg.endsWith('[]') ? [seg.slice(0, -2), '[]'] : [seg])));
}

/** `value` with the string at `path` mapped by `map`; shares everything it does not change. */
function rewriteAt(value: unknown, path: RefPath, i: number, map: (g: string) => string): unknown {
  if (i === path.length) return typeof value === 'string' ? map(value) : value;
  if (path[i] === '[]') {
    if (!Array.isArray(value)) return value;
    let out: unknown[] | undefined;
    for (let j = 0; j < value.length; j++) {
      const next = rewriteAt(value[j], path, i + 1, map);
      if (next !== value[j]) (out ??= [...value])[j] = next;
    }
    return out ?? value;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const key = path[i]!;
  const o = value as Obj;
  if (!Object.prototype.hasOwnProperty.call(o, key)) return value;
  const next = rewriteAt(o[key], path, i + 1, map);
  return next === o[key] ? value : { ...o, [key]: next };
}

function rewriteAll(obj: Obj, paths: readonly RefPath[], map: (g: string) => string): Obj {
  let out: unknown = obj;
  for (const p of paths) out = rewriteAt(out, p, 0, map);
  return out as Obj;
}

const toUpstream = (g: string) => upstreamAlias(g) ?? g;

/** The alias KindDefinition of a kind in a vendor group, or undefined when its group has none. */
export function aliasKindOf(kind: KindDefinition): KindDefinition | undefined {
  const group = upstreamAlias(kind.group);
  if (group === undefined) return undefined;
  return { ...kind, group, apiVersion: `${group}/${kind.version}` };
}

/**
 * The conversion of `storageKind` served as `servedKind` (its alias, or itself). Undefined when
 * there is nothing to convert: the served kind is the stored one and it has no group references.
 */
export function kindConversion(storageKind: KindDefinition, servedKind: KindDefinition): KindConversion | undefined {
  const aliased = servedKind.apiVersion !== storageKind.apiVersion;
  if (!aliased && storageKind.groupReferences.length === 0) return undefined;
  const paths = compilePaths(storageKind.groupReferences);
  const memo = new WeakMap<Obj, Obj>();
  const servedObject = (obj: Obj): Obj => {
    if (obj.kind !== undefined && obj.kind !== storageKind.kind) return obj;
    let out = memo.get(obj);
    if (out === undefined) {
      out = rewriteAll(obj, paths, toUpstream);
      if (out.apiVersion !== servedKind.apiVersion) out = { ...out, apiVersion: servedKind.apiVersion };
      memo.set(obj, out);
    }
    return out;
  };
  return {
    storageKind,
    servedKind,
    toStorage(obj) {
      const converted = rewriteAll(obj, paths, canonicalGroup);
      if (converted !== obj) Object.assign(obj, converted);
      if (obj.apiVersion === servedKind.apiVersion) obj.apiVersion = storageKind.apiVersion;
      return obj;
    },
    toServed(obj) {
      if (!aliased) return obj;
      if (obj.kind === storageKind.listKind && Array.isArray(obj.items)) {
        return { ...obj, apiVersion: servedKind.apiVersion, items: (obj.items as Obj[]).map(servedObject) };
      }
      return servedObject(obj);
    },
  };
}
