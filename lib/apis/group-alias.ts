/**
 * What a served resource's objects go through between the request and storage: the served
 * version's conversion (lib/apis/version-conversion.ts; issue #12) composed with the upstream
 * alias of its group (`--upstream-aliases`, issue #9). Under the alias, `apiVersion` and the
 * kind's group references (`roleRef.apiGroup`, `subjects[].apiGroup`) are rewritten on the way in
 * and on the way out. Label and annotation keys, and every other field, are data and never
 * rewritten by the alias.
 */
import type { KindDefinition, Obj } from './define.js';
import type { VersionConversion } from './version-conversion.js';
import { canonicalGroup, upstreamAlias } from './vendor.js';

/** The conversion between the stored kind and the kind served, in its spelling. */
export interface KindConversion {
  /** The kind as stored (the vendor group, the storage version). */
  readonly storageKind: KindDefinition;
  /** The kind as served: its version's kind, under the upstream alias or the vendor group. */
  readonly servedKind: KindDefinition;
  /** `servedKind` is spelled in the upstream alias of its vendor group. */
  readonly aliased: boolean;
  /** The conversion of a served version other than the stored one (issue #12), if any. */
  readonly version?: VersionConversion;
  /**
   * Converts a decoded request object to the stored kind: `apiVersion` of the stored kind, group
   * references in the vendor spelling (an upstream spelling written through the vendor group is
   * accepted too), then the version conversion. Returns `obj` (changed in place) when no version
   * conversion applies, else a new object.
   */
  toStorage(obj: Obj): Obj;
  /**
   * The served form of a stored object, a `<Kind>List` (items converted) or a watch event's
   * object; a Status or an object of another kind passes unchanged. Copies only what differs and
   * never modifies `obj`; the copy of an object is memoized (objects handed out by storage are
   * never mutated), so a watch event fanned out to many watchers is converted, and encoded, once.
   */
  toServed(obj: Obj): Obj;
  /** toServed of an object that may still change (a request's object on its way in): never memoized. */
  toServedUncached(obj: Obj): Obj;
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
 * The conversion of `storageKind` served as `servedKind`: the stored kind itself, its upstream
 * alias, or a served version (`version.servedKind`) in either spelling. Undefined when there is
 * nothing to convert: the stored kind is served as it is and has no group references.
 */
export function kindConversion(storageKind: KindDefinition, servedKind: KindDefinition, version?: VersionConversion): KindConversion | undefined {
  const vendorKind = version?.servedKind ?? storageKind;
  const aliased = servedKind.apiVersion !== vendorKind.apiVersion;
  if (!aliased && version === undefined && vendorKind.groupReferences.length === 0) return undefined;
  const paths = compilePaths(vendorKind.groupReferences);
  const memo = new WeakMap<Obj, Obj>();
  const servedObject = (obj: Obj): Obj => {
    let out = obj;
    if (version) {
      // Only stored objects convert; a BOOKMARK's bare metadata gets its type meta from the watch.
      if (obj.kind !== storageKind.kind) return obj;
      out = version.toServed(obj);
    } else if (obj.kind !== undefined && obj.kind !== storageKind.kind) return obj;
    if (!aliased) return out;
    out = rewriteAll(out, paths, toUpstream);
    return out.apiVersion === servedKind.apiVersion ? out : { ...out, apiVersion: servedKind.apiVersion };
  };
  const cached = (obj: Obj): Obj => {
    let out = memo.get(obj);
    if (out === undefined) memo.set(obj, (out = servedObject(obj)));
    return out;
  };
  const converts = aliased || version !== undefined;
  return {
    storageKind,
    servedKind,
    aliased,
    ...(version ? { version } : {}),
    toStorage(obj) {
      const converted = rewriteAll(obj, paths, canonicalGroup);
      if (converted !== obj) Object.assign(obj, converted);
      if (obj.apiVersion === servedKind.apiVersion) obj.apiVersion = vendorKind.apiVersion;
      return version ? version.toStorage(obj) : obj;
    },
    toServed(obj) {
      if (!converts) return obj;
      if (obj.kind === storageKind.listKind && Array.isArray(obj.items)) {
        return { ...obj, apiVersion: servedKind.apiVersion, items: (obj.items as Obj[]).map(cached) };
      }
      return cached(obj);
    },
    toServedUncached: (obj) => (converts ? servedObject(obj) : obj),
  };
}
