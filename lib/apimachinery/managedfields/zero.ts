/**
 * The zero object of a kind: what upstream's typed empty object (`scheme.New(kind)`) serializes
 * to, the "before" of a create: the canonical form of `{}` (lib/apimachinery/schema/canonical.ts),
 * so fields written even when empty are present with Go's zero values (`creationTimestamp: null`,
 * `containers: null`, `reportingComponent: ""`). Comparing against it, a create owns
 * `metadata.labels` as a new map (`".": {}`) but neither `spec` nor an empty string it left as it
 * was, as upstream.
 */
import { canonicalize } from '../schema/canonical.js';
import type { StructSchema } from '../schema/types.js';

/** The zero object of a struct schema. */
export function zeroObject(schema: StructSchema): Record<string, unknown> {
  return canonicalize(schema, {});
}
