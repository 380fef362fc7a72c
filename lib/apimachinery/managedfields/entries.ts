/**
 * Entry bookkeeping shared by update and apply (upstream stripMeta and capManagers managers):
 * the fields no entry ever holds, and the cap on the number of Update entries.
 */
import { fieldSetOf } from './extract.js';
import { type Managed, managerIdentifier, timeSeconds } from './managed-fields.js';
import { compareStrings } from './path.js';

/**
 * Fields never tracked (upstream stripMeta): apiVersion, kind, `metadata` itself and its server-
 * or identity-owned fields. Removed as exact paths: fields below `metadata` stay.
 */
export const UNTRACKED_FIELDS = fieldSetOf([
  ['apiVersion'],
  ['kind'],
  ['metadata'],
  ['metadata', 'name'],
  ['metadata', 'namespace'],
  ['metadata', 'creationTimestamp'],
  ['metadata', 'selfLink'],
  ['metadata', 'uid'],
  ['metadata', 'clusterName'],
  ['metadata', 'generation'],
  ['metadata', 'managedFields'],
  ['metadata', 'resourceVersion'],
]);

/** Removes the untracked fields from entry `id` (dropping it when nothing is left). */
export function stripUntracked(managed: Managed, id: string): void {
  const m = managed.get(id);
  if (!m) return;
  const set = m.set.difference(UNTRACKED_FIELDS);
  if (set.isEmpty()) managed.delete(id);
  else managed.set(id, { ...m, set });
}

/** Upstream DefaultMaxUpdateManagers. */
export const MAX_UPDATE_MANAGERS = 10;
/** The manager name of the bucket entries old updates are merged into. */
export const ANCIENT_CHANGES_MANAGER = 'ancient-changes';

/**
 * Upstream capManagers: above `max` Update entries, the oldest are merged, per apiVersion, into an
 * `ancient-changes` entry (the first oldest entry of a version becomes the bucket when a second
 * one joins it), until at most `max` remain. Changes `managed` in place.
 */
export function capUpdateManagers(managed: Managed, max = MAX_UPDATE_MANAGERS): void {
  const updaters = [...managed.entries()].filter(([, m]) => m.operation === 'Update').map(([id]) => id);
  if (updaters.length <= max) return;
  updaters.sort((a, b) => timeSeconds(managed.get(a)!.time) - timeSeconds(managed.get(b)!.time) || compareStrings(a, b));
  const firstOfVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > max; i++) {
    const id = updaters[i]!;
    const m = managed.get(id)!;
    const first = firstOfVersion.get(m.apiVersion);
    if (first === undefined) {
      firstOfVersion.set(m.apiVersion, id);
      continue;
    }
    const bucketEntry = { manager: ANCIENT_CHANGES_MANAGER, operation: 'Update' as const, apiVersion: m.apiVersion, subresource: '' };
    const bucket = managerIdentifier(bucketEntry);
    let b = managed.get(bucket);
    if (!b) {
      b = { ...bucketEntry, set: managed.get(first)!.set };
      managed.delete(first);
    }
    const merged = { ...b, set: m.set.union(b.set) };
    if (m.time) merged.time = m.time;
    else delete merged.time;
    managed.delete(id);
    managed.set(bucket, merged);
    length--;
  }
}
