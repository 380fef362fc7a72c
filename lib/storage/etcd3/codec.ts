/**
 * How objects are held in etcd values: JSON, without `metadata.resourceVersion` (ARCHITECTURE.md
 * § Storage rules: the resourceVersion is the etcd mod_revision and never stored in the value).
 */
import { invalidObj } from '../errors.js';
import type { StoredObject } from '../interface.js';

/** Serializes an object for storage, dropping its resourceVersion. */
export function encodeValue(obj: StoredObject): Buffer {
  const meta = obj.metadata;
  if (meta && meta.resourceVersion !== undefined) {
    const { resourceVersion: _rv, ...rest } = meta;
    return Buffer.from(JSON.stringify({ ...obj, metadata: rest }));
  }
  return Buffer.from(JSON.stringify(obj));
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
