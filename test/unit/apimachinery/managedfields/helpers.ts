/**
 * Helpers of the managedfields tests: write an object through apply/update the way a handler
 * does (store the result with its entries and a uid), and read one manager's `fieldsV1`.
 */
import { expect } from 'chai';
import { apply, type ApplyOptions, type ApplySuccess, type ManagedFieldsEntry, update, type UpdateOptions } from '../../../../lib/apimachinery/managedfields/index.js';
import type { StructSchema } from '../../../../lib/apimachinery/schema/types.js';

export type Obj = Record<string, unknown>;

/** The fixed clock of the tests (entries keep seconds only). */
export const NOW = new Date('2024-05-01T10:00:00.500Z');
export const LATER = new Date('2024-05-01T11:00:00Z');

/** The stored form of an object: its managedFields set (or dropped) and a uid. */
export function stored(object: Obj, managedFields: ManagedFieldsEntry[] | undefined): Obj {
  const meta: Obj = { ...((object.metadata ?? {}) as Obj), uid: 'uid-1' };
  if (managedFields) meta.managedFields = managedFields;
  else delete meta.managedFields;
  return { ...object, metadata: meta };
}

/** Applies and expects success; returns the stored object. */
export function applied(schema: StructSchema, live: Obj | undefined, config: Obj, manager: string, extra: Partial<ApplyOptions> = {}): Obj {
  const r = apply({ live, config, manager, apiVersion: String(config.apiVersion), kind: String(config.kind), force: false, schema, now: NOW, ...extra });
  if (r.conflicts) expect.fail(`unexpected conflicts: ${JSON.stringify(r.conflicts)}`);
  return stored((r as ApplySuccess).object, (r as ApplySuccess).managedFields);
}

/** A non-apply write of `updated` over `live`; returns the stored object. */
export function updated(schema: StructSchema, live: Obj | undefined, next: Obj, manager: string, extra: Partial<UpdateOptions> = {}): Obj {
  const mf = update({ live, updated: next, manager, apiVersion: String(next.apiVersion), schema, now: NOW, ...extra });
  return stored(next, mf);
}

/** The entries of a stored object. */
export function entries(obj: Obj): ManagedFieldsEntry[] {
  return ((obj.metadata as Obj).managedFields ?? []) as ManagedFieldsEntry[];
}

/** The `fieldsV1` of `manager`'s entry (of `operation` when given), or undefined. */
export function fieldsOf(obj: Obj, manager: string, operation?: 'Apply' | 'Update'): unknown {
  return entries(obj).find((e) => e.manager === manager && (!operation || e.operation === operation))?.fieldsV1;
}

/** The map or struct at `key` of `o` (for edits in tests). */
export function at(o: Obj, ...keys: string[]): Obj {
  return keys.reduce((x, k) => x[k] as Obj, o);
}

/** `[manager, operation]` of each entry, in stored order. */
export function owners(obj: Obj): Array<[string | undefined, string | undefined]> {
  return entries(obj).map((e) => [e.manager, e.operation]);
}

/** A deep copy with `edit` applied (for PUT-like writes); managedFields are dropped as a client would. */
export function edited(obj: Obj, edit: (o: Obj) => void): Obj {
  const copy = structuredClone(obj);
  delete (copy.metadata as Obj).managedFields;
  edit(copy);
  return copy;
}
