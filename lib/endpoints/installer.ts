/**
 * The API installer: which resources each group/version serves and which verbs each offers, and
 * the dispatcher that routes a resource request (already parsed into RequestInfo) to its handler
 * with one map lookup (LIBRARIES.md § routing). spec 000 § Endpoints. A resource is backed by a
 * store (every verb), is create-only (a Creater: TokenReview, SelfSubjectReview) or read-only
 * (a GetterLister: ComponentStatus, registry/rest/getter-lister.ts); a stored resource may also
 * have create-only subresources with kinds of their own (`serviceaccounts/token`, TokenRequest)
 * — registry/rest/creater.ts.
 */
import type { Context } from 'koa';
import type { AdmissionChain } from '../admission/chain.js';
import { StatusError, newMethodNotAllowed, newMethodNotSupported } from '../apimachinery/errors.js';
import type { KindDefinition } from '../apis/define.js';
import { deprecationWarning } from '../apis/deprecation.js';
import type { Creater } from '../registry/rest/creater.js';
import type { GetterLister } from '../registry/rest/getter-lister.js';
import { addWarning } from '../request/context.js';
import { markDeprecatedRequest } from './deprecated-api.js';
import type { EndpointMetrics } from './endpoint-metrics.js';
import type { GetterUpdater } from '../registry/rest/updater.js';
import type { RequestContext } from '../request/context.js';
import type { Authorizer } from '../request/authorization.js';
import type { RequestInfo } from '../request/request-info.js';
import { requestQueryOf } from './filters/request-info.js';
import { handleCreate } from './handlers/create.js';
import { type ConnectScope, handleConnect } from './handlers/connect.js';
import type { Connecter } from '../registry/rest/connecter.js';
import { type CreaterScope, createrSpellings, handleCreateOnly } from './handlers/create-only.js';
import { handleDelete, handleDeleteCollection } from './handlers/delete.js';
import { handleGet } from './handlers/get.js';
import { handleList } from './handlers/list.js';
import { handlePatch } from './handlers/patch.js';
import { type ReadOnlyScope, handleReadOnlyGet, handleReadOnlyList } from './handlers/read-only.js';
import type { ObjectScope, ResourceEntry, Scope, StoredResourceEntry } from './handlers/scope.js';
import type { ServedVersionStorage } from '../registry/generic/resource-storage.js';
import { aliasKindOf, kindConversion } from '../apis/group-alias.js';
import { upstreamAlias } from '../apis/vendor.js';
import { discoveryOrder, sortResources } from './discovery/order.js';
import { handleUpdate } from './handlers/update.js';
import { handleWatch } from './handlers/watch.js';

type Handler = (s: Scope) => Promise<void>;

/** Verbs of a main resource and of its subresources (discovery lists the same). */
export const RESOURCE_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] as const;
export const SUBRESOURCE_VERBS: Record<string, readonly string[]> = { status: ['get', 'patch', 'update'], finalize: ['update'], ephemeralcontainers: ['get', 'patch', 'update'], approval: ['get', 'patch', 'update'] };
/** Verbs of a get/update subresource with a kind of its own (registry/rest/updater.ts: `scale`). */
export const UPDATER_VERBS: readonly string[] = ['get', 'patch', 'update'];
/** Verbs of a create-only resource or subresource (registry/rest/creater.ts). */
export const CREATE_ONLY_VERBS: readonly string[] = ['create'];
/** Verbs of a read-only resource (registry/rest/getter-lister.ts). */
export const READ_ONLY_VERBS: readonly string[] = ['get', 'list'];

/**
 * The verbs of a served resource's main resource: RESOURCE_VERBS for a store, `create` for a
 * Creater, `get` and `list` for a GetterLister.
 */
export function resourceVerbs(entry: ResourceEntry): readonly string[] {
  if (entry.creater) return CREATE_ONLY_VERBS;
  return entry.lister ? READ_ONLY_VERBS : RESOURCE_VERBS;
}

/** One subresource as discovery and OpenAPI list it. */
export interface SubresourceFacts {
  name: string;
  verbs: readonly string[];
  /**
   * The kind it takes and answers, in the spelling served: the parent's for a stored
   * subresource; its own for a get/update subresource (Scale); a Creater's own kind for a
   * create-only one, in its group's upstream alias when the parent is served under an upstream
   * alias (issue #9).
   */
  kind: KindDefinition;
  /** The subresource is a Creater's (its kind may belong to another group than its parent). */
  createOnly: boolean;
  /** The subresource is a Connecter's (`kind` names its options kind; issue #20). */
  connect?: boolean;
}

/**
 * The subresources of a served resource, by name as upstream's installer sorts its paths: the
 * stored ones, the get/update ones of their own kind and the create-only ones.
 */
export function subresourceFacts(entry: ResourceEntry): SubresourceFacts[] {
  const out: SubresourceFacts[] = [...entry.subresources.keys()].map((name) => ({ name, verbs: SUBRESOURCE_VERBS[name] ?? [], kind: entry.kind, createOnly: false }));
  for (const [name, updater] of entry.updaters ?? []) out.push({ name, verbs: UPDATER_VERBS, kind: updater.kind, createOnly: false });
  const c = entry.conversion;
  const underAlias = c?.aliased === true;
  for (const [name, creater] of entry.creaters ?? []) {
    out.push({ name, verbs: CREATE_ONLY_VERBS, kind: (underAlias && aliasKindOf(creater.kind)) || creater.kind, createOnly: true });
  }
  for (const [name, c] of entry.connecters ?? []) out.push({ name, verbs: c.verbs, kind: { ...entry.kind, kind: c.optionsKind }, createOnly: false, connect: true });
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The entry of one more served version of a resource's objects (issue #12): its own kind, the
 * stores it is given, and the field-selector labels of its kind (converted to the stored kind's
 * when selecting).
 */
export function versionEntry(v: ServedVersionStorage): StoredResourceEntry {
  const k = v.conversion.servedKind;
  const labels = [...(k.namespaced ? ['metadata.name', 'metadata.namespace'] : ['metadata.name']), ...Object.keys(k.fieldSelectors)];
  return { kind: k, store: v.store, subresources: v.subresources, selectableFields: new Set(labels), version: v.conversion };
}

/** True for a path through the legacy `/watch/` prefix (`/apis/<group>/<version>/watch/…`). */
function viaWatchPrefix(info: RequestInfo): boolean {
  return info.path.split('/').filter((p) => p !== '')[info.apiPrefix === 'api' ? 2 : 3] === 'watch';
}

const MAIN_HANDLERS: Record<string, Handler> = {
  get: handleGet,
  list: handleList,
  watch: handleWatch,
  create: handleCreate,
  update: handleUpdate,
  patch: handlePatch,
  delete: handleDelete,
  deletecollection: handleDeleteCollection,
};

const SUB_HANDLERS: Record<string, (s: ObjectScope) => Promise<void>> = { get: handleGet, update: handleUpdate, patch: handlePatch };

/** Feature gates the handlers consult. */
export interface HandlerFeatures {
  /** WatchList: `sendInitialEvents` on watches. */
  watchList: boolean;
  /** APIResponseCompression: gzip of large get and list responses. */
  responseCompression: boolean;
  /**
   * `--upstream-aliases`: every resource of a vendor group is served under the group's upstream
   * alias too, and the upstream spellings of media types and meta groups are offered (issue #9).
   */
  upstreamAliases: boolean;
  /** `--min-request-timeout` in seconds (absent: upstream's 1800): watches without `timeoutSeconds` end between it and twice it. */
  minRequestTimeoutSeconds?: number;
  /** The server's authorizer chain: an apply or PUT that creates needs `create` too (handlers/create-authorization.ts). */
  authorizer?: Authorizer;
}

/** A group/version and its resources. */
export interface GroupVersionEntry {
  group: string;
  version: string;
  resources: Map<string, ResourceEntry>;
  /** For the upstream alias of a vendor group (issue #9): that vendor group. */
  aliasOf?: string;
}

/** True for a group version of custom resources (a CustomResourceDefinition's; issue #14). */
export function servesCustomKinds(gv: GroupVersionEntry): boolean {
  for (const e of gv.resources.values()) if (e.kind.custom !== undefined) return true;
  return false;
}

/** 404 for a path inside the API that names nothing served. */
export function newResourceNotFound(): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'the server could not find the requested resource',
    reason: 'NotFound',
    details: {},
    code: 404,
  });
}

/**
 * An error of a request served under an upstream alias, worded as the client addressed the
 * resource: the stored group's name becomes the alias in `details.group` and, in the messages,
 * where it qualifies a resource or kind (`roles.<group> "x" not found`) or stands quoted as a
 * value (`Unsupported value: "<group>"`), as the objects themselves are converted. Text quoting
 * the request (`the API version in the data (<group>/v1) …`) is left as the client sent it.
 */
function renameGroup(err: StatusError, from: string, to: string): StatusError {
  const s = err.status;
  const pattern = new RegExp(`(\\.|")${from.replaceAll('.', '\\.')}(?=[" :,]|$)`, 'g');
  const rename = (text: string) => text.replace(pattern, `$1${to}`);
  if (s.message !== undefined) s.message = rename(s.message);
  if (s.details) {
    if (s.details.group === from) s.details.group = to;
    for (const c of s.details.causes ?? []) if (c.message !== undefined) c.message = rename(c.message);
  }
  return err;
}

/** Holds the served group/versions and dispatches resource requests. */
export class APIInstaller {
  private readonly gvs = new Map<string, GroupVersionEntry>();
  private readonly aliases = new Map<string, GroupVersionEntry>();
  private ordered: GroupVersionEntry[] | undefined;

  constructor(
    private readonly admission: AdmissionChain,
    private readonly features: HandlerFeatures = { watchList: false, responseCompression: true, upstreamAliases: true },
    /** Told of every request served by a deprecated API (`apiserver_requested_deprecated_apis`) and of every watch event written. */
    private readonly deprecatedAPIs?: EndpointMetrics,
  ) {}

  /** True when the upstream spellings are served (`--upstream-aliases`). */
  get upstreamAliases(): boolean {
    return this.features.upstreamAliases;
  }

  /**
   * Serves a resource (`entry.kind` in the stored spelling, or another version of the stored kind
   * with `entry.version`: versionEntry) and, with the upstream aliases on and a vendor group, the
   * same storage under the group's upstream alias. A stored resource's create-only subresources
   * go in `entry.creaters`; a create-only resource is an entry with a `creater` instead of a store
   * (installCreater).
   */
  install(entry: ResourceEntry): void {
    const k = entry.kind;
    const v = entry.version;
    const stored = v?.storageKind ?? k;
    if (!this.features.upstreamAliases) {
      this.add(this.gvs, v ? { ...entry, conversion: kindConversion(stored, k, v) } : entry);
      return;
    }
    this.add(this.gvs, { ...entry, conversion: kindConversion(stored, k, v) });
    const alias = aliasKindOf(k);
    if (alias) this.add(this.aliases, { ...entry, kind: alias, conversion: kindConversion(stored, alias, v) }, k.group);
  }

  /**
   * Serves a create-only resource (TokenReview, SelfSubjectReview): `POST` to the collection of
   * `creater.kind`'s resource (cluster-scoped or namespaced as the kind says) answers with its
   * Creater; every other method there is 405, every other path below it 404.
   */
  installCreater(creater: Creater): void {
    this.install({ kind: creater.kind, creater, subresources: new Map(), selectableFields: new Set() });
  }

  /**
   * Serves a read-only resource (ComponentStatus): `GET` of the collection of `lister.kind`'s
   * resource and of its objects answer with the GetterLister; every other method there is 405,
   * a watch 405 MethodNotSupported, every other path below it 404.
   */
  installReadOnly(lister: GetterLister): void {
    this.install({ kind: lister.kind, lister, subresources: new Map(), selectableFields: new Set(lister.fieldLabels) });
  }

  private add(into: Map<string, GroupVersionEntry>, entry: ResourceEntry, aliasOf?: string): void {
    const k = entry.kind;
    const key = `${k.group}/${k.version}`;
    let gv = into.get(key);
    if (!gv) {
      gv = { group: k.group, version: k.version, resources: new Map() };
      if (aliasOf !== undefined) gv.aliasOf = aliasOf;
      into.set(key, gv);
    }
    const last = [...gv.resources.keys()].pop();
    gv.resources.set(k.resource, entry);
    if (last !== undefined && last > k.resource) sortResources(gv.resources);
    this.ordered = undefined;
  }

  /**
   * Stops serving `resource` of `group`/`version` (and its upstream alias): a custom resource
   * whose definition stopped serving the version or was deleted (issue #14). A group version left
   * without resources disappears from discovery.
   */
  uninstall(group: string, version: string, resource: string): void {
    const key = `${group}/${version}`;
    const alias = upstreamAlias(group);
    for (const [into, k] of [[this.gvs, key], [this.aliases, alias === undefined ? undefined : `${alias}/${version}`]] as const) {
      if (k === undefined) continue;
      const gv = into.get(k);
      if (!gv?.resources.delete(resource)) continue;
      if (gv.resources.size === 0) into.delete(k);
      this.ordered = undefined;
    }
  }

  /** All group/versions in discovery order (discovery/order.ts), the upstream aliases after every vendor group. */
  groupVersions(): GroupVersionEntry[] {
    this.ordered ??= [...discoveryOrder([...this.gvs.values()], servesCustomKinds), ...discoveryOrder([...this.aliases.values()], servesCustomKinds)];
    return this.ordered;
  }

  /** The resource entry for a group/version/resource, if served. */
  lookup(group: string, version: string, resource: string): ResourceEntry | undefined {
    const key = `${group}/${version}`;
    return (this.gvs.get(key) ?? this.aliases.get(key))?.resources.get(resource);
  }

  /** Routes a resource request to its handler; throws 404/405 Status errors when none applies. */
  async dispatch(koa: Context, req: RequestContext): Promise<void> {
    const info = req.requestInfo;
    const entry = this.lookup(info.apiGroup, info.apiVersion, info.resource);
    if (!entry) throw newResourceNotFound();
    entry.checkVerb?.(info.verb);
    const creater = info.subresource ? entry.creaters?.get(info.subresource) : entry.creater;
    const run = creater ? this.createOnlyRoute(koa, req, entry, creater) : entry.lister ? this.readOnlyRoute(koa, req, entry, entry.lister) : this.storeRoute(koa, req, entry);
    // Upstream's installer wraps every route of a deprecated kind's resource with the warning.
    const warning = deprecationWarning(entry.kind);
    if (warning !== undefined) {
      addWarning(req, warning);
      markDeprecatedRequest(req, entry.kind, this.deprecatedAPIs);
    }
    try {
      await run();
    } catch (err) {
      const c = entry.conversion;
      if (c?.aliased && err instanceof StatusError) throw renameGroup(err, (c.version?.servedKind ?? c.storageKind).group, c.servedKind.group);
      throw err;
    }
  }

  /** What every handler scope of this request holds, for `namespace` and object `name`. */
  private scopeBase(koa: Context, req: RequestContext, entry: ResourceEntry, namespace: string, name: string) {
    return {
      koa,
      req,
      entry,
      kind: entry.kind,
      admission: this.admission,
      namespace,
      name,
      subresource: req.requestInfo.subresource,
      query: requestQueryOf(koa),
      watchList: this.features.watchList,
      responseCompression: this.features.responseCompression,
      upstreamAliases: this.features.upstreamAliases,
      minRequestTimeoutSeconds: this.features.minRequestTimeoutSeconds,
      // Plain properties, possibly undefined: a conditional spread here made every request copy
      // the object through V8's slow path, and the handlers' scopes add their fields with
      // Object.assign for the same reason.
      metrics: this.deprecatedAPIs,
      authorizer: this.features.authorizer,
    };
  }

  /**
   * The handler of a create-only resource or subresource, as upstream registers its one route:
   * `POST` to the collection (main resource) or to `<object path>/<subresource>`. Another method
   * on that path is 405 (upstream's router: `the server does not allow this method on the
   * requested resource`); any other path — an object below a create-only collection, the legacy
   * `/watch/` prefix, the wrong scope — is 404.
   */
  private createOnlyRoute(koa: Context, req: RequestContext, entry: ResourceEntry, creater: Creater): () => Promise<void> {
    const info = req.requestInfo;
    const namespaced = entry.kind.namespaced;
    if (viaWatchPrefix(info) || info.parts.length > 0 || namespaced !== (info.namespace !== '')) throw newResourceNotFound();
    const onCollection = info.verb === 'list' || info.verb === 'watch' || info.verb === 'deletecollection' || info.name === '';
    if (info.subresource ? info.name === '' : !onCollection) throw newResourceNotFound();
    if (info.verb !== 'create') throw newMethodNotAllowed();
    const scope: CreaterScope = Object.assign(this.scopeBase(koa, req, entry, info.namespace, info.subresource ? info.name : ''), {
      creater,
      spellings: createrSpellings(entry, info.subresource, creater, this.features.upstreamAliases),
    });
    return () => handleCreateOnly(scope);
  }

  /**
   * The handler of a read-only resource, as upstream registers a Getter and Lister that is no
   * Watcher: `GET` of the collection (list; `?watch=true` is 405 MethodNotSupported) and of an
   * object (get). Another method on those paths is 405 (upstream's router); any other path — a
   * subresource, the legacy `/watch/` prefix, the wrong scope — is 404.
   */
  private readOnlyRoute(koa: Context, req: RequestContext, entry: ResourceEntry, lister: GetterLister): () => Promise<void> {
    const info = req.requestInfo;
    const kind = lister.kind;
    if (viaWatchPrefix(info) || info.subresource !== '' || info.parts.length > 0 || kind.namespaced !== (info.namespace !== '')) throw newResourceNotFound();
    if (koa.method !== 'GET' && koa.method !== 'HEAD') throw newMethodNotAllowed();
    // The object's path has one segment more than the collection's (a collection read may carry
    // a name taken from its field selector); an object's GET ignores `?watch`, as upstream's, a
    // collection's answers it with 405 (handleReadOnlyList).
    const collectionSegments = (info.apiPrefix === 'api' ? 2 : 3) + (info.namespace === '' ? 0 : 2) + 1;
    const onItem = info.path.split('/').filter((p) => p !== '').length > collectionSegments;
    const scope: ReadOnlyScope = Object.assign(this.scopeBase(koa, req, entry, info.namespace, onItem ? info.name : ''), { lister });
    return onItem ? () => handleReadOnlyGet(scope) : () => handleReadOnlyList(scope);
  }

  /**
   * The handler of a connect subresource (issue #20): on an object of the right scope only (404
   * otherwise); a path may follow a proxy subresource (`…/proxy/<path>`), 404 after any other.
   */
  private connectRoute(koa: Context, req: RequestContext, entry: ResourceEntry, connecter: Connecter): () => Promise<void> {
    const info = req.requestInfo;
    if (viaWatchPrefix(info) || entry.kind.namespaced !== (info.namespace !== '') || info.name === '' || (info.parts.length > 0 && !connecter.takesPath)) throw newResourceNotFound();
    const rest = info.parts.join('/');
    const subpath = rest === '' ? (koa.path.endsWith(`/${info.subresource}/`) ? '/' : '') : `/${rest}${koa.path.endsWith('/') ? '/' : ''}`;
    const scope: ConnectScope = Object.assign(this.scopeBase(koa, req, entry, info.namespace, info.name), { connecter, subpath });
    return () => handleConnect(scope);
  }

  /** The handler of a stored resource's verb, or of its stored subresource. */
  private storeRoute(koa: Context, req: RequestContext, entry: ResourceEntry): () => Promise<void> {
    const info = req.requestInfo;
    // The legacy `/proxy/` prefix is not served; the `/watch/` prefix answers GET only; a method
    // no route has (OPTIONS…, verb '') is upstream's router 405.
    if (info.verb === 'proxy') throw newResourceNotFound();
    const connecter = info.subresource ? entry.connecters?.get(info.subresource) : undefined;
    if (connecter) return this.connectRoute(koa, req, entry, connecter);
    if (info.verb === '' || (koa.method !== 'GET' && koa.method !== 'HEAD' && viaWatchPrefix(info))) throw newMethodNotAllowed();
    const kind = entry.kind;
    // The handler and the scope's store and kind, once the namespace is known.
    let bind: ((base: ReturnType<APIInstaller['scopeBase']>) => () => Promise<void>) | undefined;
    if (info.subresource) {
      const updater = entry.updaters?.get(info.subresource);
      const sub: GetterUpdater | undefined = updater ?? entry.subresources.get(info.subresource);
      if (!sub || !entry.store || info.parts.length > 0) throw newResourceNotFound();
      const verbs = updater ? UPDATER_VERBS : SUBRESOURCE_VERBS[info.subresource];
      const h = verbs?.includes(info.verb) ? SUB_HANDLERS[info.verb] : undefined;
      if (h) bind = (base) => () => h(Object.assign(base, { kind: updater?.kind ?? kind, store: sub }));
    } else {
      const store = entry.store;
      if (!store) throw newResourceNotFound();
      const onItem = info.name !== '';
      const h = MAIN_HANDLERS[info.verb];
      const misplaced = (info.verb === 'create' && onItem) || ((info.verb === 'update' || info.verb === 'patch') && !onItem);
      if (h && !misplaced) bind = (base) => () => h(Object.assign(base, { store }));
    }
    const namespaced = kind.namespaced;
    const hasNamespace = info.namespace !== '' && !(kind.group === '' && kind.resource === 'namespaces');
    const collectionRead = info.verb === 'list' || info.verb === 'watch';
    if (namespaced !== hasNamespace && !(namespaced && !hasNamespace && collectionRead)) {
      if (!namespaced) throw newResourceNotFound();
      throw newMethodNotSupported({ group: kind.group, resource: kind.resource }, info.verb);
    }
    if (!bind) throw newMethodNotSupported({ group: kind.group, resource: kind.resource }, info.verb);
    return bind(this.scopeBase(koa, req, entry, namespaced ? info.namespace : '', namespaced && !hasNamespace ? '' : info.name));
  }
}
