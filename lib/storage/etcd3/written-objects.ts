/**
 * The objects this process writes to etcd, for its own watches of them: the event of a write
 * comes back from etcd with the very bytes this process encoded, so a watch takes the object the
 * write already holds instead of parsing those bytes again (issue #17 item 1: "the watch cache
 * decodes every event that the write path already holds as an object"). A change written by
 * another process (another worker or replica) is decoded as before.
 *
 * A write is kept before it is sent, because its event may reach the watch before its own
 * response reaches the writer. A put is matched by its bytes and a delete by the mod_revision of
 * the state it removed: either names one stored value exactly, so a watch takes an object only
 * when a decode of the event would give that same object. The objects are shared with
 * everything the watch feeds (the watch cache and its readers), which treat stored objects as
 * read-only already.
 */
import type { StoredObject } from '../interface.js';

/**
 * Writes kept at most, per storage: those whose events have not come back yet. A watch that
 * falls further behind decodes the oldest of its events, which is only slower.
 */
export const WRITTEN_OBJECTS_MAX = 1024;

/** A put of `value`, whose object is `obj` (without resourceVersion), or a delete of the state at `deletedRev`. */
type Written = { value: Buffer; obj: StoredObject } | { deletedRev: string; obj: StoredObject };

/** The latest write of each key, oldest first. */
export class WrittenObjects {
  private readonly entries = new Map<string, Written>();

  private keep(key: string, w: Written): void {
    const entries = this.entries;
    entries.delete(key);
    entries.set(key, w);
    if (entries.size > WRITTEN_OBJECTS_MAX) entries.delete(entries.keys().next().value!);
  }

  /** A put of `value` at `key` is about to be sent; `obj` is what `value` decodes to, without resourceVersion. */
  put(key: string, value: Buffer, obj: StoredObject): void {
    this.keep(key, { value, obj });
  }

  /** A delete of `key` is about to be sent; `obj` is its current state, at mod_revision `rev`. */
  delete(key: string, rev: string, obj: StoredObject): void {
    this.keep(key, { deletedRev: rev, obj });
  }

  /** The object a put event of `value` at `key` carries, when this storage wrote it (then forgotten); undefined otherwise. */
  takePut(key: string, value: Buffer): StoredObject | undefined {
    const w = this.entries.get(key);
    if (w === undefined || !('value' in w) || !w.value.equals(value)) return undefined;
    this.entries.delete(key);
    return w.obj;
  }

  /** The object a delete event of the state at mod_revision `prevRev` of `key` carries, when this storage deleted it (then forgotten); undefined otherwise. */
  takeDelete(key: string, prevRev: string): StoredObject | undefined {
    const w = this.entries.get(key);
    if (w === undefined || !('deletedRev' in w) || w.deletedRev !== prevRev) return undefined;
    this.entries.delete(key);
    return w.obj;
  }

  /** Writes kept (for tests). */
  get size(): number {
    return this.entries.size;
  }
}
