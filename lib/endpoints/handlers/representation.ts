/**
 * The representations a get, list or watch may be answered in (spec 000 § Table representation,
 * § Content negotiation and encoding; issue #6 items 5–7): the object as JSON or YAML, a server-side
 * Table, or metadata only (PartialObjectMetadata / PartialObjectMetadataList) — each chosen from the
 * Accept list with fallback in order.
 */
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
import type { Scope } from './scope.js';

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

/** Representations of plain objects: JSON, and YAML when asked for by name. */
export const OBJECT_OFFERS: readonly Offer[] = [{ mediaType: JSON_MEDIA_TYPE }, { mediaType: YAML_MEDIA_TYPE, explicitOnly: true }];

/** The representations of a write verb's answer (the object or a Status): JSON, YAML, protobuf. */
const WRITE_OFFERS: readonly Offer[] = [...OBJECT_OFFERS, ...PROTOBUF_OFFERS];

const asOf = (as: string) => ({ as, g: META_GROUP, v: 'v1' });

function offers(shape: Shape): Offer[] {
  const meta = asOf(shape === 'list' ? 'PartialObjectMetadataList' : 'PartialObjectMetadata');
  const table = asOf('Table');
  if (shape === 'watch') return [{ mediaType: JSON_MEDIA_TYPE }, ...PROTOBUF_OFFERS, { mediaType: JSON_MEDIA_TYPE, as: table }, { mediaType: JSON_MEDIA_TYPE, as: meta }];
  return [
    ...WRITE_OFFERS,
    { mediaType: JSON_MEDIA_TYPE, as: table },
    { mediaType: YAML_MEDIA_TYPE, as: table },
    { mediaType: JSON_MEDIA_TYPE, as: meta },
    { mediaType: YAML_MEDIA_TYPE, as: meta },
  ];
}

/** The offers of each shape, built once. */
const SHAPE_OFFERS: Record<Shape, readonly Offer[]> = { object: offers('object'), list: offers('list'), watch: offers('watch') };

/** Negotiates among `offered` from the request's Accept header and `?pretty`. */
function choose(s: Scope, offered: readonly Offer[]): Representation {
  const n = negotiate(s.koa.get('Accept'), offered, queryBool(s.query.get('pretty')));
  const as = n.offer.as?.as;
  return {
    mediaType: n.offer.mediaType,
    pretty: n.pretty,
    transform: as === 'Table' ? 'table' : as ? 'metadata' : 'none',
  };
}

/** The representation of a write verb's answer (the object or a Status): JSON, YAML, protobuf. */
export function chooseWriteRepresentation(s: Scope): Representation {
  return choose(s, WRITE_OFFERS);
}

/** Negotiates the representation of `shape` from the request's Accept header and `?pretty`. */
export function chooseRepresentation(s: Scope, shape: Shape): Representation {
  return choose(s, SHAPE_OFFERS[shape]);
}

function includeObjectOf(s: Scope): IncludeObject {
  try {
    return parseIncludeObject(s.query.get('includeObject'));
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
export async function represent(s: Scope, r: Representation, obj: Obj, shape: 'object' | 'list'): Promise<Obj> {
  const kind = s.entry.kind;
  if (r.transform === 'table') {
    const includeObject = includeObjectOf(s);
    return shape === 'list' ? listTable(kind, obj, includeObject) : (tableFor(kind, obj, { includeObject }) as unknown as Obj);
  }
  if (r.transform === 'metadata') return (shape === 'list' ? partialObjectMetadataList(obj) : partialObjectMetadata(obj)) as unknown as Obj;
  return obj;
}

/** A per-watch transform of each event's object into the chosen representation (Status objects pass). */
export function watchTransform(s: Scope, r: Representation): ((obj: Obj) => Obj) | undefined {
  if (r.transform === 'table') return tableWatchTransformer(s.entry.kind, { includeObject: includeObjectOf(s) }) as (obj: Obj) => Obj;
  if (r.transform === 'metadata') return (obj) => (obj.kind === 'Status' ? obj : (partialObjectMetadata(obj) as unknown as Obj));
  return undefined;
}
