/**
 * What a resource handler works with: the served resource (a stored or a create-only one), the
 * store of the (sub)resource addressed, admission, and the Koa and request contexts; plus the
 * response writer shared by all verbs.
 */
import type { Context } from 'koa';
import type { AdmissionChain } from '../../admission/chain.js';
import type { AdmissionAttributes, AdmissionOperation } from '../../admission/interface.js';
import { encodeJSON } from '../../apimachinery/serializers/json.js';
import { cachedJSONBody, writtenJSONBody } from '../../apimachinery/serializers/json-cache.js';
import { type ListDocument, jsonListChunks } from '../../apimachinery/serializers/json-list-chunks.js';
import { acceptsGzip, setBody } from './compression.js';
import { encodeProtobufResponse, isProtobuf } from './protobuf.js';
import { streamedBody } from './streamed-body.js';
import { OBJECT_OFFERS, chooseWriteRepresentation } from './representation.js';
import { YAML_MEDIA_TYPE, encodeYAML } from '../../apimachinery/serializers/yaml.js';
import type { KindDefinition, Obj } from '../../apis/define.js';
import type { KindConversion } from '../../apis/group-alias.js';
import type { VersionConversion } from '../../apis/version-conversion.js';
import { recordManagedFields } from '../../registry/generic/managed-fields.js';
import type { Creater } from '../../registry/rest/creater.js';
import type { Connecter } from '../../registry/rest/connecter.js';
import type { GetterLister } from '../../registry/rest/getter-lister.js';
import type { GetterUpdater, KindedSubresource } from '../../registry/rest/updater.js';
import type { Authorizer } from '../../request/authorization.js';
import type { RequestContext } from '../../request/context.js';
import { ANONYMOUS_USER } from '../../request/user.js';
import type { Store } from '../../registry/generic/store.js';
import { negotiate } from '../negotiation/negotiate.js';
import { queryBool } from '../../request/request-info.js';
import { recordResponseObject } from '../filters/audit-capture.js';
import { requestQueryOf } from '../filters/request-info.js';
import { META_GROUP, canonicalGroup } from '../../apis/vendor.js';
import type { EndpointMetrics } from '../endpoint-metrics.js';

const META_V1 = `${META_GROUP}/v1`;

/** What every served resource has. */
interface ResourceEntryBase {
  /** The kind of the main resource, in the spelling served (the upstream alias's under the alias). */
  kind: KindDefinition;
  /** Subresource name → store (e.g. `status`). */
  subresources: Map<string, Store>;
  /**
   * Create-only subresources by name, each with its own kind (`token` → the TokenRequest Creater
   * of `serviceaccounts`): `POST <object path>/<name>` only.
   */
  creaters?: Map<string, Creater>;
  /**
   * Get/update subresources with a kind of their own by name (`scale` → Scale of
   * `deployments`): GET, PUT and PATCH of `<object path>/<name>` (registry/rest/updater.ts).
   */
  updaters?: Map<string, KindedSubresource>;
  /** Connect subresources by name (`exec` → the pods' exec Connecter: registry/rest/connecter.ts; issue #20). */
  connecters?: Map<string, Connecter>;
  /** Field-selector labels the kind supports. */
  selectableFields: ReadonlySet<string>;
  /**
   * Conversion between the stored and the served spelling when `kind` is served under the
   * upstream alias of its group, has group references (issue #9) or is another version of the
   * stored kind (`version`); absent: none needed. Set by the installer.
   */
  conversion?: KindConversion;
  /**
   * `kind` is another version (or group) of the kind the stores hold, converted by this (issue
   * #12); the installer composes it into `conversion`.
   */
  version?: VersionConversion;
  /**
   * Throws the StatusError of a verb the resource refuses for now, before anything else runs (a
   * custom resource whose definition is terminating refuses `create`; issue #14).
   */
  checkVerb?: (verb: string) => void;
}

/** A resource backed by a store: every verb of RESOURCE_VERBS. */
export interface StoredResourceEntry extends ResourceEntryBase {
  store: Store;
  creater?: undefined;
  lister?: undefined;
}

/**
 * A create-only resource (TokenReview, SelfSubjectReview): `POST` to its collection only, body
 * and answer of `kind` (the Creater's kind, or its alias spelling under the upstream alias).
 */
export interface CreateOnlyResourceEntry extends ResourceEntryBase {
  creater: Creater;
  store?: undefined;
  lister?: undefined;
}

/**
 * A read-only resource (ComponentStatus): GET of its collection and of its objects only, answered
 * by `lister` (registry/rest/getter-lister.ts).
 */
export interface ReadOnlyResourceEntry extends ResourceEntryBase {
  lister: GetterLister;
  store?: undefined;
  creater?: undefined;
}

/** One served resource: a stored, a create-only or a read-only one, with its subresources. */
export type ResourceEntry = StoredResourceEntry | CreateOnlyResourceEntry | ReadOnlyResourceEntry;

/** What every resource handler works with. */
export interface HandlerScope {
  koa: Context;
  req: RequestContext;
  entry: ResourceEntry;
  /**
   * The kind of the request body and answer in the spelling served: the entry's, or the own kind
   * of a get/update subresource (`deployments/scale` → Scale), whose objects are never converted.
   */
  kind: KindDefinition;
  admission: AdmissionChain;
  namespace: string;
  name: string;
  subresource: string;
  query: URLSearchParams;
  /** The WatchList feature gate. */
  watchList: boolean;
  /** The APIResponseCompression feature gate. */
  responseCompression: boolean;
  /** `--upstream-aliases`: the upstream spellings of media types and meta groups are offered too. */
  upstreamAliases: boolean;
  /** `--min-request-timeout` in seconds (absent: upstream's 1800). */
  minRequestTimeoutSeconds?: number;
  /** The server's metrics (watch events are recorded there); absent: not recorded. */
  metrics?: EndpointMetrics;
  /** The server's authorizer chain: a write that creates is authorized as `create` too (create-authorization.ts). */
  authorizer?: Authorizer;
}

/** The per-request scope of a get, update or patch of one object or subresource. */
export interface ObjectScope extends HandlerScope {
  /** What is addressed: the main store, a subresource store, or a get/update subresource of its own kind. */
  store: GetterUpdater;
}

/** The per-request scope of a handler of a stored resource or subresource. */
export interface Scope extends ObjectScope {
  /** The store addressed: main or subresource. */
  store: Store;
}

/** The conversion of the request's objects: the entry's, none for a subresource of its own kind. */
function conversionOf(s: HandlerScope): KindConversion | undefined {
  return s.kind === s.entry.kind ? s.entry.conversion : undefined;
}

/** A decoded request object in the stored spelling (see KindConversion.toStorage). */
export function toStorage(s: HandlerScope, obj: Obj): Obj {
  const c = conversionOf(s);
  return c ? c.toStorage(obj) : obj;
}

/**
 * Records a non-apply write of `next` (stored spelling; `live` the stored object, undefined on
 * create) by `manager` in `next.metadata.managedFields`. Field sets are those of the served
 * version: for another version than the stored one, `live` and `next` are compared as that
 * version serves them and its entries carry its apiVersion; every manager's set, whatever the
 * version that recorded it, is compared at the paths of the request's version (a field at the
 * same path in both moves between managers as usual; one that another version spells differently
 * stays with its owner until a write through that version changes it).
 */
export function recordWrite(s: HandlerScope, live: Obj | undefined, next: Obj, manager: string): void {
  const c = conversionOf(s);
  if (!c?.version) {
    recordManagedFields(s.kind, s.subresource, live, next, manager);
    return;
  }
  const served = c.toServedUncached(next);
  recordManagedFields(s.kind, s.subresource, live && c.toServedUncached(live), served, manager);
  const meta = (next.metadata ??= {}) as Obj;
  const entries = (served.metadata as Obj | undefined)?.managedFields;
  if (entries === undefined) delete meta.managedFields;
  else meta.managedFields = entries;
}

/** A stored object, list or watch event object in the served spelling (see KindConversion.toServed). */
export function toServed(s: HandlerScope, obj: Obj): Obj {
  const c = conversionOf(s);
  return c ? c.toServed(obj) : obj;
}

/**
 * Upstream `Warning` header value: `299 - "<text>"`, quoted as upstream's NewWarningHeader quotes
 * it (only `"` and `\` escaped) and written as Go's HTTP server writes a header: line breaks (and
 * here any other control character, which Node refuses in a header) as spaces, anything beyond
 * ASCII as its UTF-8 bytes (a header string is sent one byte per character).
 */
export function formatWarning(text: string): string {
  // eslint-disable-next-line no-control-regex
  const quoted = text.replace(/["\\]/g, '\\$&').replace(/[\x00-\x08\x0a-\x1f\x7f]/g, ' ');
  const header = `299 - "${quoted}"`;
  return /[^ -~\t]/.test(header) ? Buffer.from(header, 'utf8').toString('latin1') : header;
}

/** Writes the collected warnings as `Warning` headers. */
export function writeWarnings(koa: Context, req: RequestContext): void {
  if (req.warnings.length > 0) koa.set('Warning', req.warnings.map(formatWarning));
}

/**
 * Writes a document in a chosen representation: JSON, protobuf (a list in either streamed item by
 * item: streamed-body.ts) or YAML, gzipped when `compress` allows and the client accepts it.
 * `shared`: `obj` is an object storage handed out read-only (the watch cache's own copy), whose
 * compact JSON is computed once for all the requests that read it (json-cache.ts; issue #17 item 1).
 */
export async function writeRepresented(
  koa: Context,
  status: number,
  obj: unknown,
  r: { mediaType: string; pretty: boolean },
  compress = false,
  kind?: KindDefinition,
  shared = false,
): Promise<void> {
  recordResponseObject(koa, obj);
  koa.status = status;
  const gzip = compress && acceptsGzip(koa.get('Accept-Encoding'));
  koa.set('Content-Type', r.mediaType);
  if (r.mediaType === YAML_MEDIA_TYPE) await setBody(koa, encodeYAML(obj), gzip);
  else if (kind && isProtobuf(r.mediaType)) await setBody(koa, await encodeProtobufResponse(kind, obj as Obj), gzip);
  else if (r.pretty) await setBody(koa, encodeJSON(obj, true), gzip);
  else if (isList(obj)) await setBody(koa, await streamedBody(jsonListChunks(obj)), gzip);
  else await setBody(koa, shared ? cachedJSONBody(obj as object) : (writtenJSONBody(obj as object) ?? encodeJSON(obj)), gzip);
}

/** Negotiates (Accept, `?pretty`) and writes any object document as JSON or YAML. */
export async function writeNegotiated(koa: Context, status: number, obj: unknown): Promise<void> {
  const n = negotiate(koa.get('Accept'), OBJECT_OFFERS, queryBool(requestQueryOf(koa).get('pretty')));
  await writeRepresented(koa, status, obj, { mediaType: n.offer.mediaType, pretty: n.pretty });
}

/** A document with an `items` array: a list, encoded item by item. */
function isList(obj: unknown): obj is ListDocument {
  return typeof obj === 'object' && obj !== null && Array.isArray((obj as { items?: unknown }).items);
}

/** Writes a write verb's response (the stored object, a list or a Status, served spelling) with the request's warnings. */
export async function writeObject(s: HandlerScope, status: number, obj: Obj): Promise<void> {
  writeWarnings(s.koa, s.req);
  await writeRepresented(s.koa, status, toServed(s, obj), chooseWriteRepresentation(s), false, s.kind);
}

/**
 * Writes a get or list response in its negotiated representation, gzipped where allowed;
 * `shared` as {@link writeRepresented}'s.
 */
export async function writeRead(s: HandlerScope, obj: unknown, r: { mediaType: string; pretty: boolean }, shared = false): Promise<void> {
  writeWarnings(s.koa, s.req);
  await writeRepresented(s.koa, 200, obj, r, s.responseCompression, s.kind, shared);
}

/**
 * The options object admission sees for a create or update (AdmissionReview `options`):
 * `CreateOptions` or `UpdateOptions` in the meta group with the request's `dryRun`,
 * `fieldManager` and `fieldValidation` as the client gave them (a patch or apply is an update,
 * or a create when it creates, as upstream converts PatchOptions).
 */
function writeOptionsObject(kind: 'CreateOptions' | 'UpdateOptions', q: URLSearchParams, dryRun: boolean): Obj {
  const o: Obj = { kind, apiVersion: META_V1 };
  if (dryRun) o.dryRun = ['All'];
  const fieldManager = q.get('fieldManager');
  if (fieldManager) o.fieldManager = fieldManager;
  const fieldValidation = q.get('fieldValidation');
  if (fieldValidation) o.fieldValidation = fieldValidation;
  return o;
}

/**
 * Admission attributes for this request (lib/admission/interface.ts): the stored resource, and the
 * stored kind as the objects are in the stored spelling — a subresource of its own kind names that
 * kind (Scale), as upstream; the version the client addressed as `request*`; the operation's
 * options (`deleteOptions`: the DeleteOptions of a delete, in the meta group).
 */
export function admissionAttributes(s: HandlerScope, operation: AdmissionOperation, object: Obj | null, oldObject: Obj | null, dryRun: boolean, deleteOptions?: Obj): AdmissionAttributes {
  const k = s.entry.conversion?.storageKind ?? s.entry.kind;
  const meta = (object?.metadata ?? oldObject?.metadata ?? {}) as Obj;
  const name = s.name || ((meta.name as string | undefined) ?? '');
  const isNamespace = k.group === '' && k.resource === 'namespaces';
  const ownKind = s.kind !== s.entry.kind;
  return {
    operation,
    group: k.group,
    version: k.version,
    kind: ownKind ? s.kind.kind : k.kind,
    resource: k.resource,
    subresource: s.subresource,
    requestGroup: canonicalGroup(s.entry.kind.group),
    requestVersion: s.entry.kind.version,
    requestKind: ownKind ? s.kind.kind : s.entry.kind.kind,
    namespace: k.namespaced ? s.namespace : isNamespace ? name : '',
    name,
    namespaced: k.namespaced,
    object,
    oldObject,
    options: operation === 'DELETE' ? { kind: 'DeleteOptions', apiVersion: META_V1, ...deleteOptions, ...(dryRun ? { dryRun: ['All'] } : {}) } : operation === 'CONNECT' ? null : writeOptionsObject(operation === 'CREATE' ? 'CreateOptions' : 'UpdateOptions', s.query, dryRun),
    dryRun,
    user: s.req.user ?? { name: ANONYMOUS_USER, groups: [] },
    reinvocation: { isReinvoke: false, shouldReinvoke: false, values: new Map() },
  };
}
