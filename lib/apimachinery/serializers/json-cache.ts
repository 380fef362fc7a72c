/**
 * Serialize-once for objects shared by many responses: an object of the watch cache listed or got
 * by many requests is turned into JSON once, not once per request (json-list-chunks.ts,
 * handlers/get.ts). Objects handed out
 * by storage are never mutated, so the cached text stays valid for the object's lifetime (WeakMap:
 * collected with the object). Cost (issue #17 item 5, measured): the text of every listed cached
 * object is held besides the object, about 5 KB per 2 KiB-body Pod, 52 MB for 10,000 (the objects
 * themselves take several times that); listing them costs a third less CPU.
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

/** The compact JSON body of `obj` as encodeJSON writes it (trailing newline), its text computed once per object instance. */
export function cachedJSONBody(obj: object): Buffer {
  return Buffer.from(`${cachedJSON(obj)}\n`);
}
