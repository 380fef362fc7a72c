/** GET (and HEAD) of one object or subresource (spec 000 § Resource operations; § Resource versions, Get). */
import { type Scope, writeObject } from './scope.js';

/** Serves `get`. */
export async function handleGet(s: Scope): Promise<void> {
  const rv = s.query.get('resourceVersion') ?? '';
  const obj = await s.store.get(s.req, s.namespace, s.name, { resourceVersion: rv });
  await writeObject(s, 200, obj);
}
