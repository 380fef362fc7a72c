/**
 * Metadata-only views of objects (spec 000 § Content negotiation and encoding; issue #6 item 6):
 * `PartialObjectMetadata` (the object's whole `metadata`) for `as=PartialObjectMetadata`, and
 * `PartialObjectMetadataList` (the list's resourceVersion, continue and remainingItemCount, one
 * PartialObjectMetadata per item) for `as=PartialObjectMetadataList`. Their `apiVersion` is the
 * meta group/version the client asked for (`<meta group>/v1` by default, `v1beta1`, or the
 * upstream alias of the group; issue #9). Pure; objects are never modified.
 */
import { META_GROUP } from '../apis/vendor.js';

/** `<meta group>/v1`, the default apiVersion of Table, PartialObjectMetadata and its list. */
export const META_V1_API_VERSION = `${META_GROUP}/v1`;

/** A decoded API object or list (JSON shape). */
type JsonObject = Record<string, unknown>;

/** The list metadata carried over to derived lists and Tables (`metav1.ListMeta`). */
export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

/** `{kind: PartialObjectMetadata, apiVersion: <meta group>/<version>, metadata}`. */
export type PartialObjectMetadata = {
  kind: 'PartialObjectMetadata';
  apiVersion: string;
  metadata: JsonObject;
};

/**
 * `{kind: PartialObjectMetadataList, apiVersion, metadata: ListMeta, items}`. `items` is `null`
 * for an empty list: upstream builds this list afresh and encodes its nil slice as null.
 */
export type PartialObjectMetadataList = {
  kind: 'PartialObjectMetadataList';
  apiVersion: string;
  metadata: ListMeta;
  items: PartialObjectMetadata[] | null;
};

/** A request for a metadata-only form the result cannot take: upstream answers 406 with `message`. */
export class MetaTransformError extends Error {
  override readonly name = 'MetaTransformError';
}

function asObject(v: unknown): JsonObject | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as JsonObject) : undefined;
}

/** True for a list object (it has an `items` array), as upstream `meta.IsListType`. */
export function isListObject(obj: JsonObject): boolean {
  return Array.isArray(obj.items);
}

/**
 * The set fields of a list's metadata: resourceVersion and continue when not empty,
 * remainingItemCount when it is a number.
 */
export function listMetaOf(meta: unknown): ListMeta {
  const m = asObject(meta) ?? {};
  const out: ListMeta = {};
  if (typeof m.resourceVersion === 'string' && m.resourceVersion !== '') out.resourceVersion = m.resourceVersion;
  if (typeof m.continue === 'string' && m.continue !== '') out.continue = m.continue;
  if (typeof m.remainingItemCount === 'number') out.remainingItemCount = m.remainingItemCount;
  return out;
}

/**
 * The PartialObjectMetadata of one object: a copy of its `metadata` (every field), in
 * `apiVersion` (default META_V1_API_VERSION).
 */
export function partialObjectMetadata(obj: JsonObject, apiVersion = META_V1_API_VERSION): PartialObjectMetadata {
  return { kind: 'PartialObjectMetadata', apiVersion, metadata: { ...(asObject(obj.metadata) ?? {}) } };
}

/**
 * The PartialObjectMetadataList of a list object (`{metadata, items}`), or of `items` with the
 * given list metadata; the list and its items are in `apiVersion` (default META_V1_API_VERSION),
 * as upstream gives every item the group/version asked for.
 */
export function partialObjectMetadataList(list: JsonObject | readonly JsonObject[], listMeta?: unknown, apiVersion = META_V1_API_VERSION): PartialObjectMetadataList {
  const items = Array.isArray(list) ? (list as readonly JsonObject[]) : ((list as JsonObject).items as JsonObject[]);
  const meta = Array.isArray(list) ? listMeta : (list as JsonObject).metadata;
  return {
    kind: 'PartialObjectMetadataList',
    apiVersion,
    metadata: listMetaOf(meta),
    items: items.length === 0 ? null : items.map((item) => partialObjectMetadata(item, apiVersion)),
  };
}

/**
 * The Go type upstream names in its 406 messages (`*core.PodList`, `*apps.Deployment`): the
 * internal package of the object's group and its kind.
 */
function goTypeName(obj: JsonObject): string {
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const pkg = group === '' ? 'core' : group.split('.')[0]!;
  return `*${pkg}.${typeof obj.kind === 'string' ? obj.kind : ''}`;
}

/**
 * `as=PartialObjectMetadata` of a result: a list is refused with upstream's 406 message
 * (`you requested PartialObjectMetadata, but the requested object is a list (*core.PodList)`).
 * @throws MetaTransformError
 */
export function asPartialObjectMetadata(result: JsonObject): PartialObjectMetadata {
  if (isListObject(result)) {
    throw new MetaTransformError(`you requested PartialObjectMetadata, but the requested object is a list (${goTypeName(result)})`);
  }
  return partialObjectMetadata(result);
}

/**
 * `as=PartialObjectMetadataList` of a result: a single object is refused with upstream's 406
 * message (`…, but the requested object is not a list (*core.Pod)`).
 * @throws MetaTransformError
 */
export function asPartialObjectMetadataList(result: JsonObject): PartialObjectMetadataList {
  if (!isListObject(result)) {
    throw new MetaTransformError(`you requested PartialObjectMetadataList, but the requested object is not a list (${goTypeName(result)})`);
  }
  return partialObjectMetadataList(result);
}
