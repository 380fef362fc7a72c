/**
 * GET of a read-only resource (registry/rest/getter-lister.ts: ComponentStatus): one object or
 * the collection, computed by the resource when asked, as the object, a Table or metadata only
 * (spec 000 § Resource operations, § Table representation). The list parameters are parsed and
 * checked as for a stored resource; the selectors go to the resource, paging and resource
 * versions do not apply (nothing is stored). A watch of the collection is upstream's 405
 * MethodNotSupported: the resource is no Watcher.
 */
import type { GetterLister } from '../../registry/rest/getter-lister.js';
import { newMethodNotSupported } from '../../apimachinery/errors.js';
import { parseListParams } from './list-options.js';
import { chooseRepresentation, represent } from './representation.js';
import { type HandlerScope, writeRead } from './scope.js';

/** The scope of a read-only request. */
export interface ReadOnlyScope extends HandlerScope {
  lister: GetterLister;
}

/** Serves `get` of one object. */
export async function handleReadOnlyGet(s: ReadOnlyScope): Promise<void> {
  const r = chooseRepresentation(s, 'object');
  const obj = await s.lister.get(s.req, s.namespace, s.name);
  await writeRead(s, await represent(s, r, obj, 'object'), r);
}

/**
 * Serves `list` (and `watch`) of the collection.
 * @throws StatusError 405 for a watch, 400 for bad list parameters.
 */
export async function handleReadOnlyList(s: ReadOnlyScope): Promise<void> {
  if (s.req.requestInfo.verb === 'watch') throw newMethodNotSupported({ group: s.kind.group, resource: s.kind.resource }, 'watch');
  const r = chooseRepresentation(s, 'list');
  const p = parseListParams(s.query, false, s.entry.selectableFields, s.watchList);
  const list = await s.lister.list(s.req, s.namespace, { label: p.label, field: p.field });
  await writeRead(s, await represent(s, r, list, 'list'), r);
}
