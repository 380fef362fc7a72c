/**
 * The representations a get, list or watch may be answered in (spec 000 § Table representation,
 * § Content negotiation and encoding; issue #6 items 5–7, issue #9): the object as JSON, YAML or
 * protobuf, a server-side Table (JSON or YAML, as upstream), or metadata only
 * (PartialObjectMetadata / PartialObjectMetadataList in JSON, YAML or protobuf) — each chosen
 * from the Accept list with fallback in order. Table and metadata-only are offered in v1 and
 * v1beta1 of the meta group; with `--upstream-aliases` also under the group's upstream alias, and
 * protobuf under the upstream media type name. The answer is in the group/version asked for.
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
import { META_VERSIONS } from '../../apis/meta/v1/partial-object-metadata.js';
import { META_GROUP, upstreamAlias } from '../../apis/vendor.js';
import { queryBool } from '../../request/request-info.js';
import { type Offer, negotiate } from '../negotiation/negotiate.js';
import { protobufMediaTypes } from './protobuf.js';
import { type HandlerScope, type Scope, toServed } from './scope.js';

/** What is being answered: one object, a collection, or the events of a watch. */
export type Shape = 'object' | 'list' | 'watch';

/**
 * The chosen representation: `mediaType` is JSON, YAML or a protobuf spelling; for a Table or
 * metadata-only `transform`, `apiVersion` is the meta group/version asked for
 * (`meta.<vendor domain>/v1`, its upstream alias, `…/v1beta1`), which the answer carries.
 */
export interface Representation {
  mediaType: string;
  pretty: boolean;
  transform: 'none' | 'table' | 'metadata';
  apiVersion?: string;
}

/** Representations of plain objects: JSON, and YAML when asked for by name. */
export const OBJECT_OFFERS: readonly Offer[] = [{ mediaType: JSON_MEDIA_TYPE }, { mediaType: YAML_MEDIA_TYPE, explicitOnly: true }];

/** The offers of one server setting: a write verb's answer, and each shape of a read. */
type OfferSet = Record<Shape | 'write', readonly Offer[]>;

/**
 * The offers of a server with or without `--upstream-aliases`. Protobuf is only asked for by
 * name, never through a wildcard; upstream answers a Table in JSON and YAML only
 * (`AllowsMediaTypeTransform`), metadata only in every media type, and a watch in JSON or
 * protobuf.
 */
function offerSet(upstreamAliases: boolean, custom: boolean): OfferSet {
  const metaProtobufTypes = protobufMediaTypes(upstreamAliases);
  // Custom kinds have no protobuf form (spec 000 § Content negotiation); their metadata-only
  // forms are meta kinds and keep it.
  const protobufTypes = custom ? [] : metaProtobufTypes;
  const alias = upstreamAlias(META_GROUP);
  const groups = upstreamAliases && alias !== undefined ? [META_GROUP, alias] : [META_GROUP];
  const protobuf: Offer[] = protobufTypes.map((mediaType) => ({ mediaType, explicitOnly: true }));
  const write = [...OBJECT_OFFERS, ...protobuf];
  const transformed = (as: string, mediaTypes: readonly string[]): Offer[] =>
    groups.flatMap((g) => META_VERSIONS.flatMap((v) => mediaTypes.map((mediaType) => ({ mediaType, as: { as, g, v }, explicitOnly: metaProtobufTypes.includes(mediaType) }))));
  const read = (meta: string): Offer[] => [
    ...write,
    ...transformed('Table', [JSON_MEDIA_TYPE, YAML_MEDIA_TYPE]),
    ...transformed(meta, [JSON_MEDIA_TYPE, YAML_MEDIA_TYPE, ...metaProtobufTypes]),
  ];
  return {
    write,
    object: read('PartialObjectMetadata'),
    list: read('PartialObjectMetadataList'),
    watch: [
      { mediaType: JSON_MEDIA_TYPE },
      ...protobuf,
      ...transformed('Table', [JSON_MEDIA_TYPE]),
      ...transformed('PartialObjectMetadata', [JSON_MEDIA_TYPE, ...metaProtobufTypes]),
    ],
  };
}

/** The offers of both settings, built once, for built-in and custom kinds; a request takes those of its server (`Scope.upstreamAliases`) and kind. */
const OFFERS = {
  vendorOnly: offerSet(false, false),
  withAliases: offerSet(true, false),
  customVendorOnly: offerSet(false, true),
  customWithAliases: offerSet(true, true),
};

/** Negotiates among `offered` from the request's Accept header and `?pretty`. */
function choose(s: HandlerScope, offered: readonly Offer[]): Representation {
  const n = negotiate(s.koa.get('Accept'), offered, queryBool(s.query.get('pretty')));
  const as = n.offer.as;
  if (!as) return { mediaType: n.offer.mediaType, pretty: n.pretty, transform: 'none' };
  return { mediaType: n.offer.mediaType, pretty: n.pretty, transform: as.as === 'Table' ? 'table' : 'metadata', apiVersion: `${as.g}/${as.v}` };
}

function offersOf(s: HandlerScope): OfferSet {
  if (s.kind.custom) return s.upstreamAliases ? OFFERS.customWithAliases : OFFERS.customVendorOnly;
  return s.upstreamAliases ? OFFERS.withAliases : OFFERS.vendorOnly;
}

/** The representation of a write verb's answer (the object or a Status): JSON, YAML, protobuf. */
export function chooseWriteRepresentation(s: HandlerScope): Representation {
  return choose(s, offersOf(s).write);
}

/**
 * Negotiates the representation of `shape` from the request's Accept header and `?pretty`.
 * @throws StatusError 406 NotAcceptable when nothing listed is offered.
 */
export function chooseRepresentation(s: HandlerScope, shape: Shape): Representation {
  return choose(s, offersOf(s)[shape]);
}

function includeObjectOf(s: HandlerScope): IncludeObject {
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
export async function listTable(kind: KindDefinition, list: Obj, includeObject: IncludeObject, apiVersion?: string): Promise<Obj> {
  const items = (list.items as Obj[] | undefined) ?? [];
  const now = Date.now();
  const table = tableFor(kind, items.slice(0, TABLE_BATCH), { includeObject, apiVersion, now, listMeta: list.metadata });
  for (let i = TABLE_BATCH; i < items.length; i += TABLE_BATCH) {
    await yieldToLoop();
    table.rows!.push(...tableFor(kind, items.slice(i, i + TABLE_BATCH), { includeObject, apiVersion, now, noHeaders: true }).rows!);
  }
  return table as unknown as Obj;
}

/**
 * Turns a get or list result (stored spelling) into the chosen representation of the served
 * kind; a Table or metadata-only answer is in `r.apiVersion`.
 */
export async function represent(s: HandlerScope, r: Representation, stored: Obj, shape: 'object' | 'list'): Promise<Obj> {
  const kind = s.kind;
  const obj = toServed(s, stored);
  const apiVersion = r.apiVersion;
  if (r.transform === 'table') {
    const includeObject = includeObjectOf(s);
    return shape === 'list' ? listTable(kind, obj, includeObject, apiVersion) : (tableFor(kind, obj, { includeObject, apiVersion }) as unknown as Obj);
  }
  if (r.transform === 'metadata') {
    return (shape === 'list' ? partialObjectMetadataList(obj, undefined, apiVersion) : partialObjectMetadata(obj, apiVersion)) as unknown as Obj;
  }
  return obj;
}

/**
 * A per-watch transform of each event's object into the chosen representation, in
 * `r.apiVersion` (Status objects pass).
 */
export function watchTransform(s: Scope, r: Representation): ((obj: Obj) => Obj) | undefined {
  const apiVersion = r.apiVersion;
  if (r.transform === 'table') return tableWatchTransformer(s.entry.kind, { includeObject: includeObjectOf(s), apiVersion }) as (obj: Obj) => Obj;
  if (r.transform === 'metadata') return (obj) => (obj.kind === 'Status' ? obj : (partialObjectMetadata(obj, apiVersion) as unknown as Obj));
  return undefined;
}
