/**
 * The API installer: which resources each group/version serves and which verbs each offers, and
 * the dispatcher that routes a resource request (already parsed into RequestInfo) to its handler
 * with one map lookup (LIBRARIES.md § routing). spec 000 § Endpoints.
 */
import type { Context } from 'koa';
import type { AdmissionChain } from '../admission/chain.js';
import { StatusError, newMethodNotSupported } from '../apimachinery/errors.js';
import type { RequestContext } from '../request/context.js';
import { handleCreate } from './handlers/create.js';
import { handleDelete, handleDeleteCollection } from './handlers/delete.js';
import { handleGet } from './handlers/get.js';
import { handleList } from './handlers/list.js';
import { handlePatch } from './handlers/patch.js';
import type { ResourceEntry, Scope } from './handlers/scope.js';
import { handleUpdate } from './handlers/update.js';
import { handleWatch } from './handlers/watch.js';

type Handler = (s: Scope) => Promise<void>;

/** Verbs of a main resource and of its subresources (discovery lists the same). */
export const RESOURCE_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] as const;
export const SUBRESOURCE_VERBS: Record<string, readonly string[]> = { status: ['get', 'patch', 'update'], finalize: ['update'] };

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

const SUB_HANDLERS: Record<string, Handler> = { get: handleGet, update: handleUpdate, patch: handlePatch };

/** Feature gates the handlers consult. */
export interface HandlerFeatures {
  /** WatchList: `sendInitialEvents` on watches. */
  watchList: boolean;
  /** APIResponseCompression: gzip of large get and list responses. */
  responseCompression: boolean;
}

/** A group/version and its resources. */
export interface GroupVersionEntry {
  group: string;
  version: string;
  resources: Map<string, ResourceEntry>;
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

/** Holds the served group/versions and dispatches resource requests. */
export class APIInstaller {
  private readonly gvs = new Map<string, GroupVersionEntry>();

  constructor(
    private readonly admission: AdmissionChain,
    private readonly features: HandlerFeatures = { watchList: false, responseCompression: true },
  ) {}

  /** Serves a resource. */
  install(entry: ResourceEntry): void {
    const k = entry.kind;
    const key = `${k.group}/${k.version}`;
    let gv = this.gvs.get(key);
    if (!gv) {
      gv = { group: k.group, version: k.version, resources: new Map() };
      this.gvs.set(key, gv);
    }
    gv.resources.set(k.resource, entry);
  }

  /** All group/versions, in installation order. */
  groupVersions(): GroupVersionEntry[] {
    return [...this.gvs.values()];
  }

  /** The resource entry for a group/version/resource, if served. */
  lookup(group: string, version: string, resource: string): ResourceEntry | undefined {
    return this.gvs.get(`${group}/${version}`)?.resources.get(resource);
  }

  /** Routes a resource request to its handler; throws 404/405 Status errors when none applies. */
  async dispatch(koa: Context, req: RequestContext): Promise<void> {
    const info = req.requestInfo;
    const entry = this.lookup(info.apiGroup, info.apiVersion, info.resource);
    if (!entry) throw newResourceNotFound();
    const kind = entry.kind;
    let handler: Handler | undefined;
    let store = entry.store;
    if (info.subresource) {
      const sub = entry.subresources.get(info.subresource);
      if (!sub || info.parts.length > 0) throw newResourceNotFound();
      store = sub;
      handler = SUBRESOURCE_VERBS[info.subresource]?.includes(info.verb) ? SUB_HANDLERS[info.verb] : undefined;
    } else {
      handler = MAIN_HANDLERS[info.verb];
      const onItem = info.name !== '';
      if ((info.verb === 'create' && onItem) || ((info.verb === 'update' || info.verb === 'patch') && !onItem)) handler = undefined;
    }
    const namespaced = kind.namespaced;
    const hasNamespace = info.namespace !== '' && !(kind.group === '' && kind.resource === 'namespaces');
    const collectionRead = info.verb === 'list' || info.verb === 'watch';
    if (namespaced !== hasNamespace && !(namespaced && !hasNamespace && collectionRead)) {
      if (!namespaced) throw newResourceNotFound();
      throw newMethodNotSupported({ group: kind.group, resource: kind.resource }, info.verb);
    }
    if (!handler) throw newMethodNotSupported({ group: kind.group, resource: kind.resource }, info.verb);
    await handler({
      koa,
      req,
      entry,
      store,
      admission: this.admission,
      namespace: namespaced ? info.namespace : '',
      name: namespaced && !hasNamespace ? '' : info.name,
      subresource: info.subresource,
      query: new URLSearchParams(koa.querystring),
      watchList: this.features.watchList,
      responseCompression: this.features.responseCompression,
    });
  }
}
