/**
 * The representations a get, list or watch may be answered in (spec 000 § Table representation,
 * § Content negotiation and encoding; issue #6 items 5–7): the object as JSON or YAML, a server-side
 * Table, or metadata only (PartialObjectMetadata / PartialObjectMetadataList) — each chosen from the
 * Accept list with fallback in order.
 */
import type { Context } from 'koa';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { newBadRequest } from '../../apimachinery/errors.js';
import { partialObjectMetadata, partialObjectMetadataList } from '../../apimachinery/meta-only.js';
import { JSON_MEDIA_TYPE } from '../../apimachinery/serializers/json.js';
import { YAML_MEDIA_TYPE } from '../../apimachinery/serializers/yaml.js';
import { tableFor, tableWatchTransformer } from '../../apimachinery/table/builder.js';
import { TableOptionsError, parseIncludeObject } from '../../apimachinery/table/options.js';
import type { IncludeObject } from '../../apimachinery/table/types.js';
import type { KindDefinition, Obj } from '../../apis/define.js';
import { META_GROUP } from '../../apis/vendor.js';
import { queryBool } from '../../request/request-info.js';
import { type Offer, negotiate } from '../negotiation/negotiate.js';
import { PROTOBUF_MEDIA_TYPES } from './protobuf.js';

/** What is being answered: one object, a collection, or the events of a watch. */
export type Shape = 'object' | 'list' | 'watch';

/** The chosen representation (`mediaType` is JSON, YAML or a protobuf spelling). */
export interface Representation {
  mediaType: string;
  pretty: boolean;
  transform: 'none' | 'table' | 'metadata';
}

/** The protobuf offers: only asked for by name, never through a wildcard. */
const PROTOBUF_OFFERS: Offer[] = PROTOBUF_MEDIA_TYPES.map((mediaType) => ({ mediaType, explicitOnly: true }));

const asOf = (as: string) => ({ as, g: META_GROUP, v: 'v1' });

function offers(shape: Shape): Offer[] {
  const meta = asOf(shape === 'list' ? 'PartialObjectMetadataList' : 'PartialObjectMetadata');
  const table = asOf('Table');
  if (shape === 'watch') return [{ mediaType: JSON_MEDIA_TYPE }, ...PROTOBUF_OFFERS, { mediaType: JSON_MEDIA_TYPE, as: table }, { mediaType: JSON_MEDIA_TYPE, as: meta }];
  return [
    { mediaType: JSON_MEDIA_TYPE },
    { mediaType: YAML_MEDIA_TYPE, explicitOnly: true },
    ...PROTOBUF_OFFERS,
    { mediaType: JSON_MEDIA_TYPE, as: table },
    { mediaType: YAML_MEDIA_TYPE, as: table },
    { mediaType: JSON_MEDIA_TYPE, as: meta },
    { mediaType: YAML_MEDIA_TYPE, as: meta },
  ];
}

/** The representations of a write verb's answer (the object or a Status): JSON, YAML, protobuf. */
export function chooseWriteRepresentation(koa: Context): Representation {
  const n = negotiate(koa.get('Accept'), [{ mediaType: JSON_MEDIA_TYPE }, { mediaType: YAML_MEDIA_TYPE, explicitOnly: true }, ...PROTOBUF_OFFERS], queryBool(new URLSearchParams(koa.querystring).get('pretty')));
  return { mediaType: n.offer.mediaType, pretty: n.pretty, transform: 'none' };
}

/** Negotiates the representation of `shape` from the request's Accept header and `?pretty`. */
export function chooseRepresentation(koa: Context, shape: Shape): Representation {
  const n = negotiate(koa.get('Accept'), offers(shape), queryBool(new URLSearchParams(koa.querystring).get('pretty')));
  const as = n.offer.as?.as;
  return {
    mediaType: n.offer.mediaType,
    pretty: n.pretty,
    transform: as === 'Table' ? 'table' : as ? 'metadata' : 'none',
  };
}

function includeObjectOf(koa: Context): IncludeObject {
  try {
    return parseIncludeObject(new URLSearchParams(koa.querystring).get('includeObject'));
  } catch (err) {
    if (err instanceof TableOptionsError) throw newBadRequest(err.message);
    throw err;
  }
}

/** Rows built between yields to the event loop when a large list becomes a Table. */
const TABLE_BATCH = 500;

/**
 * A list's Table built in batches (yielding to the event loop between them), so a large list
 * does not stall other requests; the result equals `tableFor` of the whole list.
 */
export async function listTable(kind: KindDefinition, list: Obj, includeObject: IncludeObject): Promise<Obj> {
  const items = (list.items as Obj[] | undefined) ?? [];
  const now = Date.now();
  const table = tableFor(kind, items.slice(0, TABLE_BATCH), { includeObject, now, listMeta: list.metadata });
  for (let i = TABLE_BATCH; i < items.length; i += TABLE_BATCH) {
    await yieldToLoop();
    table.rows!.push(...tableFor(kind, items.slice(i, i + TABLE_BATCH), { includeObject, now, noHeaders: true }).rows!);
  }
  return table as unknown as Obj;
}

/** Turns a get or list result into the chosen representation. */
export async function represent(koa: Context, r: Representation, kind: KindDefinition, obj: Obj, shape: 'object' | 'list'): Promise<Obj> {
  if (r.transform === 'table') {
    const includeObject = includeObjectOf(koa);
    return shape === 'list' ? listTable(kind, obj, includeObject) : (tableFor(kind, obj, { includeObject }) as unknown as Obj);
  }
  if (r.transform === 'metadata') return (shape === 'list' ? partialObjectMetadataList(obj) : partialObjectMetadata(obj)) as unknown as Obj;
  return obj;
}

/** A per-watch transform of each event's object into the chosen representation (Status objects pass). */
export function watchTransform(koa: Context, r: Representation, kind: KindDefinition): ((obj: Obj) => Obj) | undefined {
  if (r.transform === 'table') return tableWatchTransformer(kind, { includeObject: includeObjectOf(koa) }) as (obj: Obj) => Obj;
  if (r.transform === 'metadata') return (obj) => (obj.kind === 'Status' ? obj : (partialObjectMetadata(obj) as unknown as Obj));
  return undefined;
}
