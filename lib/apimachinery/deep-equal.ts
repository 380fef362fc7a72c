/**
 * Semantic equality of JSON values: objects compare by keys regardless of order, arrays by
 * position. Used for immutability checks and "did this write change anything" decisions.
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    if (!deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

/**
 * A deep copy of a JSON value (structuredClone is slower for small objects). An own `__proto__`
 * key stays an own key only in a process without the `__proto__` accessor (the server removes
 * it: lib/server/prototype-hardening.ts).
 */
export function deepCopy<T>(v: T): T {
  return copy(v, false);
}

/**
 * {@link deepCopy}, except that a frozen object it meets (a shared `fieldsV1` tree:
 * managedfields/shared.ts) is shared instead of copied, as it can never change. For a copy that
 * is changed only where no frozen object lies: a JSON merge patch replaces arrays whole, so it
 * never writes inside the managedFields entries that hold the shared trees.
 */
export function deepCopySharingFrozen<T>(v: T): T {
  return copy(v, true);
}

function copy<T>(v: T, shareFrozen: boolean): T {
  if (v === null || typeof v !== 'object') return v;
  if (shareFrozen && Object.isFrozen(v)) return v;
  if (Array.isArray(v)) {
    // slice() sizes the copy exactly: an array grown by push keeps room for 17 elements (a
    // 3-element array held 194 bytes instead of 83), and copies end up in the watch cache.
    const out: unknown[] = v.slice();
    for (let i = 0; i < out.length; i++) out[i] = copy(out[i], shareFrozen);
    return out as T;
  }
  // Indexed loops over Object.keys: Object.entries allocates a pair per key, ~4× slower on a Pod
  // (every update copies the stored object: storage/etcd3/store.ts guaranteedUpdate).
  const src = v as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const keys = Object.keys(src);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    out[k] = copy(src[k], shareFrozen);
  }
  return out as T;
}
