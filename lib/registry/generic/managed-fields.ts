/**
 * Recording non-apply writes in `metadata.managedFields` (spec 000 § Managed-field entry, § Field
 * ownership) — for the API handlers and for the server's own writes (bootstrap, controllers),
 * so every object is tracked as upstream tracks it.
 */
import { type FieldSet, fieldSetOf, TypedValueError, update } from '../../apimachinery/managedfields/index.js';
import { structFields } from '../../apimachinery/schema/types.js';
import type { KindDefinition, Obj } from '../../apis/define.js';

/** resetFieldsFor's answers, per kind and subresource (a kind's definition does not change). */
const resetFieldsMemo = new WeakMap<KindDefinition, Map<string, FieldSet | undefined>>();

/**
 * The fields a write of `subresource` resets rather than sets (never owned, never in conflict):
 * `status` for main-resource writes of kinds with a status subresource; everything but `status`
 * for status writes; or what the kind declares for the subresource (`KindSpec.resetFields`).
 * One set per kind and subresource, shared by every write: not to be modified.
 */
export function resetFieldsFor(kind: KindDefinition, subresource: string): FieldSet | undefined {
  let byKind = resetFieldsMemo.get(kind);
  if (!byKind) resetFieldsMemo.set(kind, (byKind = new Map()));
  if (byKind.has(subresource)) return byKind.get(subresource);
  const set = computeResetFields(kind, subresource);
  byKind.set(subresource, set);
  return set;
}

function computeResetFields(kind: KindDefinition, subresource: string): FieldSet | undefined {
  const declared = kind.resetFields?.[subresource];
  if (declared) return fieldSetOf(declared);
  if (subresource === 'status') {
    return fieldSetOf(Object.keys(structFields(kind.schema)).filter((f) => f !== 'status' && f !== 'apiVersion' && f !== 'kind' && f !== 'metadata').map((f) => [f]));
  }
  if (subresource === '' && kind.statusSubresource) return fieldSetOf([['status']]);
  return undefined;
}

/**
 * Records a non-apply write by `manager` in `updated.metadata.managedFields` (`live` undefined on
 * create). An object the field sets cannot be computed for (a keyed list item without its key,
 * TypedValueError) is written without managed fields, as upstream's FieldManager.UpdateNoErrors
 * does: the write itself never fails for it.
 */
export function recordManagedFields(kind: KindDefinition, subresource: string, live: Obj | undefined, updated: Obj, manager: string): void {
  let entries: ReturnType<typeof update>;
  try {
    entries = update({
      live,
      updated,
      manager,
      apiVersion: kind.apiVersion,
      subresource,
      schema: kind.schema,
      resetFields: resetFieldsFor(kind, subresource),
      now: new Date(),
    });
  } catch (err) {
    if (!(err instanceof TypedValueError)) throw err;
    entries = undefined;
  }
  const meta = (updated.metadata ??= {}) as Obj;
  if (entries === undefined) delete meta.managedFields;
  else meta.managedFields = entries;
}
