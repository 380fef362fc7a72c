/**
 * How objects are held in etcd values: JSON, without `metadata.resourceVersion` (ARCHITECTURE.md
 * § Storage rules: the resourceVersion is the etcd mod_revision and never stored in the value).
 */
import { invalidObj } from '../errors.js';
import type { StoredObject } from '../interface.js';

/** The object without `metadata.resourceVersion` (the object itself when it has none). */
export function withoutResourceVersion(obj: StoredObject): StoredObject {
  if (!obj.metadata || obj.metadata.resourceVersion === undefined) return obj;
  const { resourceVersion: _rv, ...rest } = obj.metadata;
  return { ...obj, metadata: rest };
}

/** Serializes an object for storage, dropping its resourceVersion. */
export function encodeValue(obj: StoredObject): Buffer {
  return Buffer.from(JSON.stringify(withoutResourceVersion(obj)));
}

/** Parses a stored value and stamps `metadata.resourceVersion` with `modRevision`. */
export function decodeValue(key: string, value: Buffer, modRevision: string): StoredObject {
  let obj: StoredObject;
  try {
    obj = JSON.parse(value.toString('utf8')) as StoredObject;
  } catch (err) {
    throw invalidObj(key, `stored value is not valid JSON: ${(err as Error).message}`);
  }
  if (!obj || typeof obj !== 'object') throw invalidObj(key, 'stored value is not an object');
  obj.metadata = { ...(obj.metadata ?? {}), resourceVersion: modRevision };
  return obj;
}
