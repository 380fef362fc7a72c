/**
 * Which manager wrote a version of an object (issue #22 § History: the time line names the
 * manager that changed it), from the managedFields of the version and of the one before it.
 * Pure code, no imports: unit-tested.
 */

type Obj = Record<string, any>;

function entryId(m: Obj): string {
  return JSON.stringify([m.manager, m.operation, m.subresource ?? '']);
}

/**
 * Who wrote `object` over `previous` (every manager of the first version): the managers whose
 * managedFields entry is new or has a new time, and the latest such time. A manager that writes
 * twice within one second (times have second precision) leaves its entry as it was: then the
 * managers with the latest time are named, with `certain` false.
 * issue #22 § History.
 */
export function changedBy(object: Obj, previous: Obj | undefined): { managers: string[]; time: string; certain: boolean } {
  const entries = (object.metadata?.managedFields ?? []) as Obj[];
  const before = new Map(((previous?.metadata?.managedFields ?? []) as Obj[]).map((m) => [entryId(m), String(m.time ?? '')]));
  let changed = entries.filter((m) => before.get(entryId(m)) !== String(m.time ?? ''));
  const certain = changed.length > 0 || !previous;
  if (!certain) {
    const latest = entries.reduce((t, m) => (String(m.time ?? '') > t ? String(m.time) : t), '');
    changed = entries.filter((m) => String(m.time ?? '') === latest);
  }
  const time = changed.reduce((t, m) => (String(m.time ?? '') > t ? String(m.time) : t), '');
  const fallback = previous ? '' : String(object.metadata?.creationTimestamp ?? '');
  return { managers: [...new Set(changed.map((m) => String(m.manager ?? '')))], time: time || fallback, certain };
}
