/**
 * Serialize-once for objects shared by many responses: a watch event fanned out to N watchers is
 * turned into JSON once, not N times. Objects handed out by storage are never mutated, so the
 * cached text stays valid for the object's lifetime (WeakMap: collected with the object).
 */

const cache = new WeakMap<object, string>();

/** `JSON.stringify(obj)`, computed once per object instance. */
export function cachedJSON(obj: object): string {
  let s = cache.get(obj);
  if (s === undefined) {
    s = JSON.stringify(obj);
    cache.set(obj, s);
  }
  return s;
}
