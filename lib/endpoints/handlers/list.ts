/** GET of a collection (spec 000 § Resource operations, § Collections, § Chunked list parameters). */
import { newSelectionPredicate } from '../../registry/generic/predicate.js';
import { parseListParams } from './list-options.js';
import { type Scope, writeObject } from './scope.js';

/** Serves `list`. */
export async function handleList(s: Scope): Promise<void> {
  const p = parseListParams(s.query, false, s.entry.selectableFields, s.watchList);
  const list = await s.store.list(s.req, s.namespace, {
    predicate: newSelectionPredicate(p.label, p.field, s.store.strategy),
    resourceVersion: p.resourceVersion,
    resourceVersionMatch: p.resourceVersionMatch,
    limit: p.limit,
    continue: p.continue,
  });
  await writeObject(s, 200, list);
}
