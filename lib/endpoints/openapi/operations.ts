/**
 * The operations of the served resources, as upstream's installer registers them (spec 000
 * § Resource operations, § Verb mapping): per resource the collection, item, subresource,
 * all-namespaces and legacy `/watch/` paths, each operation with its upstream-style id
 * (`listCoreV1NamespacedPod`), action, group-version-kind, query parameters, body and answers.
 * Neutral: swagger.ts and v3.ts render the same model.
 */
import type { StructSchema } from '../../apimachinery/schema/types.js';
import type { KindDefinition } from '../../apis/define.js';
import { JSON_PATCH_MEDIA_TYPES, OPERATION_MEDIA_TYPES, WATCH_MEDIA_TYPES } from './media-types.js';
import { deleteOptions, patch, status, watchEvent } from './meta-types.js';
import { type GVK, groupVersionPrefix, operationIdInfix, operationTag } from './names.js';
import { DELETE_COLLECTION_QUERY, DELETE_QUERY, LIST_QUERY, PATCH_QUERY, WRITE_QUERY } from './parameters.js';

/** One subresource of ResourceFacts. */
export interface SubresourceSpec {
  /** `status` → get, patch, update; a create-only subresource → create. */
  verbs: readonly string[];
  /**
   * The subresource's own kind (TokenRequest of the create-only `serviceaccounts/token`, Scale of
   * `deployments/scale`); absent: the parent's.
   */
  kind?: KindDefinition;
}

/** The served facts of one resource the model needs (from the installer's ResourceEntry). */
export interface ResourceFacts {
  kind: KindDefinition;
  /** Subresource name → its verbs and kind. */
  subresources: Map<string, SubresourceSpec>;
  /** Verbs of the main resource (`create` alone for a create-only resource). */
  verbs: readonly string[];
  /** A delete answers with the object (true) or a Status (false). */
  deleteReturnsObject: boolean;
}

/** One operation. */
export interface OperationSpec {
  method: 'get' | 'put' | 'post' | 'delete' | 'patch';
  operationId: string;
  description: string;
  action: string;
  gvk: GVK;
  tag: string;
  /** Query parameter names of the operation itself. */
  query: string[];
  body?: { schema: StructSchema; required: boolean };
  /** Status code → [description, schema of the answer]. */
  responses: [string, string, StructSchema][];
  consumes: readonly string[];
  produces: readonly string[];
}

/** One path with its path-level parameters and operations. */
export interface PathSpec {
  path: string;
  /** Parameter names of the path level (path parameters, `pretty`, and the list parameters of watch and all-namespaces paths). */
  parameters: string[];
  operations: OperationSpec[];
}

const ALL_MEDIA = ['*/*'];

/** The paths of one resource, in upstream order (collection, item, subresources; then all-namespaces and watch). */
export function resourcePaths(r: ResourceFacts): PathSpec[] {
  const k = r.kind;
  const gvk: GVK = { group: k.group, version: k.version, kind: k.kind };
  const base = groupVersionPrefix(k.group, k.version);
  const idInfix = operationIdInfix(k.group, k.version);
  const tag = operationTag(k.group, k.version);
  const ns = k.namespaced ? 'Namespaced' : '';
  const scope = k.namespaced ? `/namespaces/{namespace}/${k.resource}` : `/${k.resource}`;
  const scopeParams = k.namespaced ? ['namespace'] : [];
  const id = (verb: string, rest: string) => `${verb}${idInfix}${rest}`;
  const has = (v: string) => r.verbs.includes(v);
  const op = (o: Omit<OperationSpec, 'gvk' | 'tag' | 'produces'> & { produces?: readonly string[]; gvk?: GVK }): OperationSpec => ({ gvk, tag, produces: OPERATION_MEDIA_TYPES, ...o });
  // A path whose one operation is a create (a create-only resource or subresource): as upstream's
  // OpenAPI builder hoists the parameters common to every operation of a path, its query
  // parameters sit at the path level and the operation keeps only its body.
  const createOnly = (path: string, params: string[], operationId: string, description: string, kind: KindDefinition): PathSpec => ({
    path,
    parameters: [...params, 'pretty', ...WRITE_QUERY].sort(byParameterOrder),
    operations: [
      op({
        method: 'post',
        operationId,
        description,
        action: 'post',
        gvk: { group: kind.group, version: kind.version, kind: kind.kind },
        query: [],
        body: { schema: kind.schema, required: true },
        responses: answers(kind.schema, '200', '201', '202'),
        consumes: ALL_MEDIA,
      }),
    ],
  });
  const deleteAnswer = r.deleteReturnsObject ? k.schema : status;
  // Read, replace and patch of the resource's kind, or of a subresource's own kind (Scale).
  const gvkOf = (o: KindDefinition): GVK => ({ group: o.group, version: o.version, kind: o.kind });
  const readOp = (operationId: string, description: string, o: KindDefinition = k): OperationSpec =>
    op({ method: 'get', operationId, description, action: 'get', gvk: gvkOf(o), query: [], responses: answers(o.schema, '200'), consumes: ALL_MEDIA });
  const replaceOp = (operationId: string, description: string, o: KindDefinition = k): OperationSpec =>
    op({ method: 'put', operationId, description, action: 'put', gvk: gvkOf(o), query: WRITE_QUERY, body: { schema: o.schema, required: true }, responses: answers(o.schema, '200', '201'), consumes: ALL_MEDIA });
  const patchOp = (operationId: string, description: string, o: KindDefinition = k): OperationSpec =>
    op({ method: 'patch', operationId, description, action: 'patch', gvk: gvkOf(o), query: PATCH_QUERY, body: { schema: patch, required: true }, responses: answers(o.schema, '200', '201'), consumes: JSON_PATCH_MEDIA_TYPES });
  const paths: PathSpec[] = [];

  const createOnlyResource = r.verbs.length === 1 && has('create');
  if (createOnlyResource) {
    paths.push(createOnly(`${base}${scope}`, scopeParams, id('create', `${ns}${k.kind}`), `create ${article(k.kind)} ${k.kind}`, k));
  }
  const collection: OperationSpec[] = [];
  if (has('list')) {
    const listProduces = [...OPERATION_MEDIA_TYPES, ...WATCH_MEDIA_TYPES];
    const description = has('watch') ? `list or watch objects of kind ${k.kind}` : `list objects of kind ${k.kind}`;
    collection.push(op({ method: 'get', operationId: id('list', `${ns}${k.kind}`), description, action: 'list', query: LIST_QUERY, responses: answers(k.listSchema, '200'), consumes: ALL_MEDIA, produces: listProduces }));
  }
  if (has('create') && !createOnlyResource) {
    collection.push(op({ method: 'post', operationId: id('create', `${ns}${k.kind}`), description: `create ${article(k.kind)} ${k.kind}`, action: 'post', query: WRITE_QUERY, body: { schema: k.schema, required: true }, responses: answers(k.schema, '200', '201', '202'), consumes: ALL_MEDIA }));
  }
  if (has('deletecollection')) {
    collection.push(op({ method: 'delete', operationId: id('delete', `Collection${ns}${k.kind}`), description: `delete collection of ${k.kind}`, action: 'deletecollection', query: DELETE_COLLECTION_QUERY, body: { schema: deleteOptions, required: false }, responses: answers(status, '200'), consumes: ALL_MEDIA }));
  }
  if (collection.length === 1) {
    // One operation (a read-only resource's list): its parameters are all common, hoisted as for a create-only path.
    const [only] = collection as [OperationSpec];
    paths.push({ path: `${base}${scope}`, parameters: [...scopeParams, 'pretty', ...only.query].sort(byParameterOrder), operations: [{ ...only, query: [] }] });
  } else if (collection.length > 0) paths.push({ path: `${base}${scope}`, parameters: [...scopeParams, 'pretty'], operations: collection });

  const item: OperationSpec[] = [];
  if (has('get')) item.push(readOp(id('read', `${ns}${k.kind}`), `read the specified ${k.kind}`));
  if (has('update')) item.push(replaceOp(id('replace', `${ns}${k.kind}`), `replace the specified ${k.kind}`));
  if (has('delete')) {
    item.push(op({ method: 'delete', operationId: id('delete', `${ns}${k.kind}`), description: `delete ${article(k.kind)} ${k.kind}`, action: 'delete', query: DELETE_QUERY, body: { schema: deleteOptions, required: false }, responses: answers(deleteAnswer, '200', '202'), consumes: ALL_MEDIA }));
  }
  if (has('patch')) item.push(patchOp(id('patch', `${ns}${k.kind}`), `partially update the specified ${k.kind}`));
  if (item.length > 0) paths.push({ path: `${base}${scope}/{name}`, parameters: ['name', ...scopeParams, 'pretty'], operations: item });

  for (const [sub, { verbs, kind: own }] of r.subresources) {
    const Sub = sub.charAt(0).toUpperCase() + sub.slice(1);
    if (own && verbs.length === 1 && verbs[0] === 'create') {
      paths.push(createOnly(`${base}${scope}/{name}/${sub}`, ['name', ...scopeParams], id('create', `${ns}${k.kind}${Sub}`), `create ${sub} of ${article(k.kind)} ${k.kind}`, own));
      continue;
    }
    const ops: OperationSpec[] = [];
    if (verbs.includes('get')) ops.push(readOp(id('read', `${ns}${k.kind}${Sub}`), `read ${sub} of the specified ${k.kind}`, own));
    if (verbs.includes('update')) ops.push(replaceOp(id('replace', `${ns}${k.kind}${Sub}`), `replace ${sub} of the specified ${k.kind}`, own));
    if (verbs.includes('patch')) ops.push(patchOp(id('patch', `${ns}${k.kind}${Sub}`), `partially update ${sub} of the specified ${k.kind}`, own));
    if (ops.length > 0) paths.push({ path: `${base}${scope}/{name}/${sub}`, parameters: ['name', ...scopeParams, 'pretty'], operations: ops });
  }

  const watchPath = (path: string, params: string[], operationId: string, description: string, action: string): PathSpec => ({
    path,
    parameters: [...params, ...LIST_QUERY, 'pretty'].sort(byParameterOrder),
    operations: [op({ method: 'get', operationId, description, action, query: [], responses: answers(action === 'list' ? k.listSchema : watchEvent, '200'), consumes: ALL_MEDIA, produces: [...OPERATION_MEDIA_TYPES, ...WATCH_MEDIA_TYPES] })],
  });
  if (k.namespaced && has('list')) paths.push(watchPath(`${base}/${k.resource}`, [], id('list', `${k.kind}ForAllNamespaces`), `list or watch objects of kind ${k.kind}`, 'list'));
  if (has('watch')) {
    const w = `${base}/watch${scope}`;
    if (k.namespaced) paths.push(watchPath(`${base}/watch/${k.resource}`, [], id('watch', `${k.kind}ListForAllNamespaces`), `watch individual changes to a list of ${k.kind}. deprecated: use the 'watch' parameter with a list operation instead.`, 'watchlist'));
    paths.push(watchPath(w, scopeParams, id('watch', `${ns}${k.kind}List`), `watch individual changes to a list of ${k.kind}. deprecated: use the 'watch' parameter with a list operation instead.`, 'watchlist'));
    paths.push(watchPath(`${w}/{name}`, ['name', ...scopeParams], id('watch', `${ns}${k.kind}`), `watch changes to an object of kind ${k.kind}. deprecated: use the 'watch' parameter with a list operation instead, filtered to a single item with the 'fieldSelector' parameter.`, 'watch'));
  }
  return paths;
}

/** `a Pod`, `an Endpoints`: upstream picks the article by the kind's first letter. */
function article(kind: string): string {
  return /^[AEIOU]/.test(kind) ? 'an' : 'a';
}

const STATUS_TEXT: Record<string, string> = { '200': 'OK', '201': 'Created', '202': 'Accepted' };

/** The same answer schema under each status code. */
function answers(schema: StructSchema, ...codes: string[]): [string, string, StructSchema][] {
  return codes.map((c) => [c, STATUS_TEXT[c]!, schema]);
}

/** Path parameters first (name, namespace), then the query parameters alphabetically. */
function byParameterOrder(a: string, b: string): number {
  const rank = (p: string) => (p === 'name' ? 0 : p === 'namespace' ? 1 : 2);
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}
