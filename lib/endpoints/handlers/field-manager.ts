/**
 * Managed fields on every write (spec 000 § Managed-field entry, § Field ownership;
 * issue #5 items 2 and 3): the manager of a request (fieldManager, else the User-Agent prefix) and
 * the `metadata.managedFields` recorded for non-apply writes.
 */
import type { Obj } from '../../apis/define.js';
import { recordManagedFields as recordWrite } from '../../registry/generic/managed-fields.js';
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

/** Records a non-apply write by `manager` in `updated.metadata.managedFields` (from `live`, undefined on create). */
export function recordManagedFields(s: Scope, live: Obj | undefined, updated: Obj, manager: string): void {
  recordWrite(s.entry.kind, s.subresource, live, updated, manager);
}
