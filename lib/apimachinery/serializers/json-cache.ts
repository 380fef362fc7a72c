/**
 * Serialize-once for objects shared by many responses: an object of the watch cache listed or got
 * by many requests is turned into JSON bytes once, not once per request (json-list-chunks.ts,
 * handlers/get.ts). Objects handed out by storage are never mutated, so the cached bytes stay
 * valid for the object's lifetime (WeakMap: collected with the object). The bytes are UTF-8, as
 * written to the socket, so a GET answers them as they are and a list copies them into its chunks
 * (holding the text instead cost a UTF-8 encoding of it per answer, about 4% of a cached GET's CPU).
 * Each body has its own memory (never a slice of Node's shared 8 KiB pool, which one long-lived
 * object would keep whole). Cost (issue #17 item 5, measured with text, the same size for ASCII):
 * the JSON of every listed cached object is held besides the object, about 5 KB per 2 KiB-body Pod,
 * 52 MB for 10,000 (the objects themselves take several times that); listing them costs a third
 * less CPU.
 */

const cache = new WeakMap<object, Buffer>();

/**
 * `text` as UTF-8 bytes in memory of their own (never a slice of Node's shared 8 KiB pool, which
 * one long-lived small Buffer would keep whole): for bytes kept as long as an object is.
 */
export function ownUTF8(text: string): Buffer {
  const b = Buffer.allocUnsafeSlow(Buffer.byteLength(text, 'utf8'));
  b.write(text, 'utf8');
  return b;
}

/**
 * The compact JSON body of `obj` as encodeJSON writes it (`JSON.stringify` and a trailing newline,
 * UTF-8), computed once per object instance. The Buffer is shared: callers must not change it.
 */
export function cachedJSONBody(obj: object): Buffer {
  let b = cache.get(obj);
  if (b === undefined) {
    b = ownUTF8(`${JSON.stringify(obj)}\n`);
    cache.set(obj, b);
  }
  return b;
}

/** The body {@link cachedJSONBody} keeps for `obj`, if one was made; never makes one. */
export function memoizedJSONBody(obj: object): Buffer | undefined {
  return cache.get(obj);
}

/**
 * Carries the memoized body over from an object's old version to its new one (issue #24: the
 * Pods a full LIST serves every 15 s, each re-serialized after its status changed, and its old
 * version packed by the window): when `prev` has a body (it was served as JSON once, by a list or
 * a GET, so it is likely to be again), `next`, the object replacing it in a watch cache, gets the
 * one `make` returns, made from the bytes storage read `next` from (exactly what
 * {@link cachedJSONBody} would make, in memory of its own; etcd3/codec.ts `storedBody`) instead of
 * a serialization when first served. `make` is called at once or never (it holds etcd's response).
 */
export function carryJSONBody(prev: object, next: object, make: () => Buffer | undefined): void {
  if (!cache.has(prev) || cache.has(next)) return;
  const b = make();
  if (b !== undefined) cache.set(next, b);
}

/**
 * Drops the body {@link cachedJSONBody} keeps for `obj` (an object no longer current: issue #24
 * item 2) and returns it (undefined when none was made).
 */
export function forgetJSONBody(obj: object): Buffer | undefined {
  const b = cache.get(obj);
  cache.delete(obj);
  return b;
}

/** `JSON.stringify(obj)` as UTF-8 bytes (the {@link cachedJSONBody} without its newline, no copy). */
export function cachedJSON(obj: object): Buffer {
  const b = cachedJSONBody(obj);
  return b.subarray(0, b.length - 1);
}

/**
 * At most this many written objects keep the maker of their body (the oldest dropped first). A
 * response takes its maker within moments of the write; a maker no response takes (a protobuf
 * answer, a write made inside the server) must not keep the object's stored bytes for as long as
 * the watch cache holds the object.
 */
export const WRITTEN_BODIES_MAX = 1024;

/** How to make the JSON body of an object storage has just written (registered by the storage codec), oldest first. */
const written = new Map<object, () => Buffer>();

/**
 * Registers `make`, which returns the compact JSON body of `obj` (as {@link cachedJSONBody}
 * writes it) without serializing the object: storage makes it from the bytes it has just stored
 * (etcd3/codec.ts). For the objects a write answers with, which are not mutated once storage
 * handed them out. Kept until {@link writtenJSONBody} takes it, or until
 * {@link WRITTEN_BODIES_MAX} later writes have registered theirs.
 */
export function rememberWrittenBody(obj: object, make: () => Buffer): void {
  written.set(obj, make);
  if (written.size > WRITTEN_BODIES_MAX) written.delete(written.keys().next().value as object);
}

/**
 * The JSON body of `obj` when storage has just written it (a new Buffer, made without a
 * serialization: issue #17 item 1, a write no longer turns its object into JSON twice; not to be
 * kept beyond the response), else undefined. Taken once: a second call answers undefined.
 */
export function writtenJSONBody(obj: object): Buffer | undefined {
  const make = written.get(obj);
  if (make === undefined) return undefined;
  written.delete(obj);
  return make();
}
