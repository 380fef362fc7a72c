/**
 * The zero object of a kind: what upstream's typed empty object (`scheme.New(kind)`) serializes
 * to, the "before" of a create. Fields written even when empty (`omitEmpty: false`) are present:
 * structs as their own zero object, everything else as null (`creationTimestamp: null`,
 * `containers: null`). Comparing against it, a create owns `metadata.labels` as a new map
 * (`".": {}`) but not `spec`, as upstream.
 */
import { structFields, type StructSchema } from '../schema/types.js';

/** The zero object of a struct schema. */
export function zeroObject(schema: StructSchema): Record<string, unknown> {
  return zero(schema, new Set());
}

function zero(schema: StructSchema, seen: Set<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (seen.has(schema.id)) return out;
  seen.add(schema.id);
  for (const [name, f] of Object.entries(structFields(schema))) {
    if (f.omitEmpty !== false) continue;
    out[name] = f.schema.type === 'struct' ? zero(f.schema, seen) : null;
  }
  seen.delete(schema.id);
  return out;
}
