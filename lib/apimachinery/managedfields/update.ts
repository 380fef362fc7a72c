/**
 * Managed fields of a non-apply write (create, PUT, JSON / merge / strategic patches, status
 * writes): spec 000 § Field ownership rows "update (PUT) or non-apply patch" and "value actually
 * changes", and the reset rule. Follows upstream's FieldManager.Update chain: the entries come
 * from the request (unless it is a subresource write, or it sends none or undecodable ones: then
 * from the live object); an object that exists without entries stays untracked; the writer's
 * Update entry for this apiVersion takes the changed fields; at most 10 Update entries are kept.
 */
import { formatTime } from '../schema/decode.js';
import type { StructSchema } from '../schema/types.js';
import { capUpdateManagers, stripUntracked } from './entries.js';
import { decodeManagedFields, encodeManagedFields, isResetManagedFields, type Managed, type ManagedFieldsEntry, managerIdentifier } from './managed-fields.js';
import { FieldSet } from './set.js';
import { updaterUpdate } from './updater.js';
import { zeroObject } from './zero.js';

/** A decoded object. */
export type Obj = Record<string, unknown>;

/** Input of update(). */
export interface UpdateOptions {
  /** The stored object; undefined for a create (compared as the kind's zero object). */
  live: Obj | undefined;
  /** The object about to be stored, with the `metadata.managedFields` the client sent. */
  updated: Obj;
  /** The field manager (fieldManager, else the User-Agent prefix). */
  manager: string;
  /** The apiVersion of the request (`apps/v1`). */
  apiVersion: string;
  /** `''` for the main resource, else the subresource (`status`, `scale`). */
  subresource?: string;
  /** The kind's object schema. */
  schema: StructSchema;
  /** Fields the write resets (e.g. `status` on the main resource); never owned. */
  resetFields?: FieldSet;
  /** The time of the write (entries record it to the second). */
  now: Date;
}

/** The object without `metadata.managedFields` (shallow copies; inputs unchanged). */
export function withoutManagedFields(obj: Obj): Obj {
  const meta = obj.metadata;
  if (typeof meta !== 'object' || meta === null || !('managedFields' in meta)) return obj;
  const { managedFields: _dropped, ...rest } = meta as Obj;
  return { ...obj, metadata: rest };
}

/** The entries of an object's `metadata.managedFields`, or none when they cannot be decoded. */
export function managedOf(obj: Obj | undefined): Managed {
  try {
    return decodeManagedFields((obj?.metadata as Obj | undefined)?.managedFields);
  } catch {
    return new Map();
  }
}

/** Identifier used for the write being recorded before it is merged into the writer's entry. */
const CURRENT_OPERATION = 'current-operation';

/**
 * The `metadata.managedFields` to store after a non-apply write: a list sorted as upstream, or
 * undefined when the object is (or stays) untracked. Never a conflict. A request sending `[{}]`
 * clears every entry first; the writer then owns what it changed in the same request.
 */
export function update(o: UpdateOptions): ManagedFieldsEntry[] | undefined {
  const subresource = o.subresource ?? '';
  const reset = subresource === '' && isResetManagedFields((o.updated.metadata as Obj | undefined)?.managedFields);
  let managed: Managed = new Map();
  if (subresource !== '') managed = managedOf(o.live);
  else if (!reset) {
    managed = managedOf(o.updated);
    if (managed.size === 0) managed = managedOf(o.live);
  }
  const uid = (o.live?.metadata as Obj | undefined)?.uid;
  if (managed.size === 0 && !reset && o.live !== undefined && typeof uid === 'string' && uid !== '') return undefined;
  return encodeManagedFields(recordUpdate(managed, o.live ?? zeroObject(o.schema), o.updated, o));
}

/**
 * Records an Update by `o.manager` from `before` to `after` into `managed` (upstream
 * managedFieldsUpdater + stripMeta + capManagers); returns the new entries.
 */
export function recordUpdate(managed: Managed, before: Obj, after: Obj, o: Pick<UpdateOptions, 'manager' | 'apiVersion' | 'subresource' | 'schema' | 'resetFields' | 'now'>): Managed {
  const entry = { manager: o.manager, operation: 'Update' as const, apiVersion: o.apiVersion, subresource: o.subresource ?? '' };
  const id = managerIdentifier(entry);
  const owned = managed.get(id)?.set;
  const ctx = { schema: o.schema, ignored: o.resetFields ?? new FieldSet() };
  const out = updaterUpdate(withoutManagedFields(before), withoutManagedFields(after), managed, CURRENT_OPERATION, entry, ctx);
  stripUntracked(out, CURRENT_OPERATION);
  const current = out.get(CURRENT_OPERATION);
  if (current) {
    out.delete(CURRENT_OPERATION);
    const previous = out.get(id);
    const set = previous ? current.set.union(previous.set) : current.set;
    // A write that changed only fields its manager owned leaves the entry's set as it was read,
    // so that the entry keeps its encoded form (fieldsv1.ts) instead of being encoded again.
    out.set(id, { ...entry, time: formatTime(o.now), set: owned !== undefined && set.equals(owned) ? owned : set });
  }
  capUpdateManagers(out);
  return out;
}
