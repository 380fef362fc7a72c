/**
 * GET (and HEAD) of one object or subresource (spec 000 § Resource operations; § Resource versions,
 * Get), as the object, a Table or metadata only.
 */
import { chooseRepresentation, represent } from './representation.js';
import { type ObjectScope, writeRead } from './scope.js';

/** Serves `get`. */
export async function handleGet(s: ObjectScope): Promise<void> {
  const r = chooseRepresentation(s, 'object');
  const rv = s.query.get('resourceVersion') ?? '';
  const obj = await s.store.get(s.req, s.namespace, s.name, { resourceVersion: rv, readOnlyResult: true });
  const out = await represent(s, r, obj, 'object');
  // Unconverted and untransformed, the answer is storage's read-only object itself.
  await writeRead(s, out, r, out === obj);
}
