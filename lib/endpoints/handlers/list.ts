/**
 * GET of a collection (spec 000 § Resource operations, § Collections, § Chunked list parameters), as
 * the `<Kind>List`, a Table or metadata only.
 */
import { newSelectionPredicate } from '../../registry/generic/predicate.js';
import { parseListParams } from './list-options.js';
import { chooseRepresentation, represent } from './representation.js';
import { type Scope, writeRead } from './scope.js';

/** Serves `list`. */
export async function handleList(s: Scope): Promise<void> {
  const r = chooseRepresentation(s, 'list');
  const p = parseListParams(s.query, false, s.entry.selectableFields, s.watchList, s.entry.version?.fieldLabel, s.entry.kind.custom !== undefined);
  const list = await s.store.list(s.req, s.namespace, {
    predicate: newSelectionPredicate(p.label, p.field, s.store.strategy),
    resourceVersion: p.resourceVersion,
    resourceVersionMatch: p.resourceVersionMatch,
    limit: p.limit,
    continue: p.continue,
  });
  await writeRead(s, await represent(s, r, list, 'list'), r);
}
