/**
 * Managed fields on every write (spec 000 § Managed-field entry, § Field ownership;
 * issue #5 items 2 and 3): the manager of a request (fieldManager, else the User-Agent prefix) and
 * the `metadata.managedFields` recorded for non-apply writes.
 */
import { type FieldSet, fieldSetOf, update } from '../../apimachinery/managedfields/index.js';
import { structFields } from '../../apimachinery/schema/types.js';
import type { KindDefinition, Obj } from '../../apis/define.js';
import type { Scope } from './scope.js';

/** Longest manager name taken from a User-Agent (upstream). */
const MAX_MANAGER_LENGTH = 128;

/**
 * The field manager of a write: the `fieldManager` parameter, else the User-Agent up to its first
 * `/` (non-printable characters dropped, at most 128 characters), as upstream.
 */
export function managerOf(fieldManager: string, userAgent: string): string {
  if (fieldManager) return fieldManager;
  let out = '';
  for (const ch of userAgent.split('/')[0] ?? '') {
    if (!/\P{C}/u.test(ch)) continue;
    if (out.length + ch.length > MAX_MANAGER_LENGTH) break;
    out += ch;
  }
  return out;
}

/**
 * The fields a write of `subresource` resets rather than sets (never owned, never in conflict):
 * `status` for main-resource writes of kinds with a status subresource; everything but `status`
 * for status writes.
 */
export function resetFieldsFor(kind: KindDefinition, subresource: string): FieldSet | undefined {
  if (subresource === 'status') {
    return fieldSetOf(Object.keys(structFields(kind.schema)).filter((f) => f !== 'status' && f !== 'apiVersion' && f !== 'kind' && f !== 'metadata').map((f) => [f]));
  }
  if (subresource === '' && kind.statusSubresource) return fieldSetOf([['status']]);
  return undefined;
}

/** Records a non-apply write by `manager` in `updated.metadata.managedFields` (from `live`, undefined on create). */
export function recordManagedFields(s: Scope, live: Obj | undefined, updated: Obj, manager: string): void {
  const kind = s.entry.kind;
  const entries = update({
    live,
    updated,
    manager,
    apiVersion: kind.apiVersion,
    subresource: s.subresource,
    schema: kind.schema,
    resetFields: resetFieldsFor(kind, s.subresource),
    now: new Date(),
  });
  const meta = (updated.metadata ??= {}) as Obj;
  if (entries === undefined) delete meta.managedFields;
  else meta.managedFields = entries;
}
