/**
 * The storage interface: what the generic registry needs from a store of versioned objects.
 * Implemented by `etcd3/` (the source of truth) and by the watch cache (`cacher/`) wrapping it
 * (ARCHITECTURE.md § Core interfaces, § Storage rules; spec 000 § Resource versions).
 *
 * Keys are opaque strings chosen by the registry (`<prefix>/<group>/<resource>/<ns>/<name>`).
 * Objects are decoded JSON values; their `metadata.resourceVersion` is set by the storage from
 * the etcd modification revision and is never stored inside the value.
 */

/** A decoded API object. */
export type StoredObject = Record<string, unknown> & { metadata?: Record<string, unknown> };

/** Labels and selectable fields of an object, for selection predicates. */
export interface ObjectAttrs {
  labels: Record<string, string>;
  fields: Record<string, string>;
}

/** Label + field selection over objects (upstream SelectionPredicate). */
export interface SelectionPredicate {
  /** True when the predicate selects everything (no label and no field requirements). */
  empty(): boolean;
  /** Whether the object is selected. */
  matches(obj: StoredObject): boolean;
  /** When the predicate pins `metadata.name` to one value, that name (enables single-key reads). */
  matchesSingleName(): string | undefined;
  /** When the predicate's field selector pins `field` to one value (`field=value`), that value (indexes a watch: issue #24). */
  matchesSingleField(field: string): string | undefined;
}

/** Everything-matching predicate. */
export const EVERYTHING: SelectionPredicate = {
  empty: () => true,
  matches: () => true,
  matchesSingleName: () => undefined,
  matchesSingleField: () => undefined,
};

/** Options of `get` (spec 000 § Resource versions, Get semantics). */
export interface GetOptions {
  /** '' = most recent (quorum read); '0' = any; other = not older than. */
  resourceVersion?: string;
  /** Return null instead of throwing NotFound. */
  ignoreNotFound?: boolean;
  /**
   * A copy of the object the caller holds (the watch cache's): when the read finds the same
   * mod_revision, this object is returned instead of decoding the stored value.
   */
  cachedExisting?: StoredObject;
  /**
   * The caller never mutates the answer (it only encodes it, as the GET handler does): the
   * watch cache may then answer a quorum read with its own copy once etcd confirms it current.
   * Without it a quorum read answers a decoded object of the caller's own.
   */
  readOnlyResult?: boolean;
}

/** Options of `getList` and `watch` (spec 000 § Resource versions, § Chunked list parameters). */
export interface ListOptions {
  resourceVersion?: string;
  resourceVersionMatch?: '' | 'Exact' | 'NotOlderThan';
  /** Maximum items per chunk; 0/undefined = no limit. */
  limit?: number;
  /** Continue token from a previous chunk. */
  continue?: string;
  predicate: SelectionPredicate;
  /** For watch: emit BOOKMARK events. */
  allowWatchBookmarks?: boolean;
  /** For watch: stream synthetic ADDED events first (sendInitialEvents / unset or 0 RV). */
  sendInitialEvents?: boolean;
  /** For watch: the stream should be ended after this many milliseconds. */
  timeoutMs?: number;
}

/** A list result. `resourceVersion` is the revision the list was read at. */
export interface ListResult {
  items: StoredObject[];
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

/** Conditions a write requires of the current object (DeleteOptions.preconditions). */
export interface Preconditions {
  uid?: string;
  resourceVersion?: string;
}

/**
 * What an update callback may return instead of an object: delete the object, under the same
 * compare on its revision as a write (a deletion decided from the object's current state).
 */
export const DELETE_OBJECT: unique symbol = Symbol('delete object');

/**
 * The update callback of `guaranteedUpdate`: receives a private copy of the current object (the
 * object itself, never to be modified, with {@link UpdateOptions.tryUpdateReadsOnly}) and
 * returns the object to write, or {@link DELETE_OBJECT}. Throwing aborts the update. It may be
 * called several times (on conflict, with the newer object; or first with the caller's
 * `cachedExisting` copy, which may be stale). Returning the same content as current makes the
 * update a no-op.
 */
export type UpdateFunc = (current: StoredObject) => Promise<StoredObject | typeof DELETE_OBJECT> | StoredObject | typeof DELETE_OBJECT;

/** Options of `guaranteedUpdate`. */
export interface UpdateOptions {
  /** When the key does not exist: call tryUpdate with `null`-like empty object (create on update). */
  ignoreNotFound?: boolean;
  preconditions?: Preconditions;
  /** Perform the whole computation but do not write (dryRun=All). */
  dryRun?: boolean;
  /**
   * A recent state of the object with its `metadata.resourceVersion` (e.g. the watch cache's;
   * upstream `cachedExistingObject`): the first attempt starts from it instead of reading etcd.
   * Nothing decided on it stands unless etcd confirms it current: the write compares its
   * revision; an error, a no-op or a dry run from it stands once a fresh read shows the same
   * revision, and is computed again from the fresh state otherwise. Never modified.
   */
  cachedExisting?: StoredObject;
  /**
   * The caller's `tryUpdate` never modifies the object it is given, nor keeps a part of it in
   * an object it then modifies: the storage hands it the current object without copying it
   * (which may be `cachedExisting` itself, shared with the watch cache's readers).
   */
  tryUpdateReadsOnly?: boolean;
}

/** Options of `delete`. */
export interface DeleteOptions {
  preconditions?: Preconditions;
  /** Called with the current object before deleting; throwing aborts (e.g. admission). */
  validateDeletion?: (current: StoredObject) => Promise<void> | void;
  dryRun?: boolean;
  /** As {@link UpdateOptions.cachedExisting}. */
  cachedExisting?: StoredObject;
}

/** Watch event types (spec 001 § Events). */
export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** One watch event; for ERROR the object is a Status. */
export interface WatchEvent {
  type: WatchEventType;
  object: StoredObject;
  /** The storage key of the object (set by storage implementations; absent on BOOKMARK/ERROR). */
  key?: string;
  /**
   * Makes the compact JSON body of `object` (`JSON.stringify` and a newline, UTF-8, in memory of
   * its own) from the bytes storage read it from, without serializing it: set on ADDED and
   * MODIFIED events by storage that can (etcd3: a value in the canonical form); undefined when it
   * cannot after all. It holds those bytes: call it while handling the event, never keep it.
   */
  storedJSONBody?: () => Buffer | undefined;
}

/** A running watch: an async stream of events. */
export interface Watcher extends AsyncIterable<WatchEvent> {
  /**
   * Ends the stream (idempotent). `graceful`: the client is being let go on purpose (timeout,
   * shutdown), so a watch that sends bookmarks sends a last one first.
   */
  stop(graceful?: boolean): void;
  /**
   * Resolves when the watch stops on the server's side (a cache watcher closed for not keeping
   * up, a timeout): a writer blocked on a socket that does not drain ends the stream then.
   */
  readonly done?: Promise<void>;
  /**
   * Takes the next event without waiting, for a consumer that batches several events into one
   * write (the watch handler, lib/endpoints/handlers/watch-stream.ts): the event; `undefined`
   * when none is ready yet; `null` once the stream has ended. Taking an event consumes it as
   * `next()` would (it leaves the watcher's bounded buffer). A consumer uses either this or the
   * async iterator, not both.
   */
  take(): WatchEvent | undefined | null;
  /**
   * Sets the one callback told, synchronously, whenever `take()` may return something new (an
   * event or the end). The callback must not call back into the watcher's producer.
   */
  onReadable(cb: () => void): void;
}

/** The storage interface. All methods reject with StorageError (storage/errors.ts) on failure. */
export interface StorageInterface {
  /** Creates `key`; rejects KeyExists if present. Returns the stored object with its resourceVersion. */
  create(key: string, obj: StoredObject, opts?: { dryRun?: boolean }): Promise<StoredObject>;
  /** Reads one object. */
  get(key: string, opts: GetOptions): Promise<StoredObject | null>;
  /** Reads the objects under `prefix` (a key ending in `/`), chunked and filtered. */
  getList(prefix: string, opts: ListOptions): Promise<ListResult>;
  /** Read-modify-write (or read-decide-delete) with optimistic concurrency, retried on conflict; returns the written object, or the last state of a deleted one. */
  guaranteedUpdate(key: string, opts: UpdateOptions, tryUpdate: UpdateFunc): Promise<StoredObject>;
  /** Deletes `key` (`guaranteedUpdate` with a callback returning {@link DELETE_OBJECT}); returns the last state of the object. */
  delete(key: string, opts: DeleteOptions): Promise<StoredObject>;
  /** Watches `key` (one object) or `prefix` (ending in `/`). */
  watch(keyOrPrefix: string, opts: ListOptions): Promise<Watcher>;
  /** Number of objects under `prefix`. */
  count(prefix: string): Promise<number>;
  /** The current store revision (a quorum read). */
  currentRevision(): Promise<string>;
  /**
   * At one consistent revision (returned): how many objects are under `prefix`, and how many of
   * them were written after `sinceRev`. A cache that holds `count` objects synced to `sinceRev`
   * and sees `changed === 0` knows it is current at `revision` without trusting watch ordering.
   */
  changesSince?(prefix: string, sinceRev: number): Promise<{ revision: number; count: number; changed: number }>;
}
