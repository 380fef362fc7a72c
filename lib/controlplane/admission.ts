/**
 * The admission chain of OUR server (ARCHITECTURE.md § Layers: lib/controlplane holds the
 * admission order): the enabled plugins from `--enable-admission-plugins` and
 * `--disable-admission-plugins` over the default set, in the fixed order of
 * lib/admission/plugins/index.ts, built over informers and stores of the served resources
 * (spec 001 § Admission control).
 */
import { AdmissionChain } from '../admission/chain.js';
import { readAdmissionConfigFile } from '../admission/config-file.js';
import { type AdmissionLog, type AdmissionOptions, defaultAdmissionOptions, type AdmissionPluginDeps, type Lister, type ResourceAccess, type ServedResource } from '../admission/plugin-deps.js';
import { DEFAULT_ON_PLUGINS, ORDERED_PLUGINS, PLUGIN_FACTORIES } from '../admission/plugins/index.js';
import { isReason } from '../apimachinery/errors.js';
import type { Obj } from '../apis/define.js';
import type { Informer } from '../client/informer.js';
import type { AdmissionMetrics } from '../metrics/admission.js';
import type { ResourceStorage } from '../registry/generic/resource-storage.js';
import type { Authorizer } from '../request/authorization.js';
import type { RequestContext } from '../request/context.js';
import type { SharedInformers } from './informers.js';
import { EVERYTHING } from '../storage/interface.js';

/** The admission flags as the control plane takes them. */
export interface AdmissionConfig {
  /** `--enable-admission-plugins`: plugins on in addition to the defaults. */
  enablePlugins: readonly string[];
  /** `--disable-admission-plugins`: plugins off, defaults included. */
  disablePlugins: readonly string[];
  /** `--admission-control-config-file`. */
  configFile?: string;
  options: AdmissionOptions;
}

/** The server's defaults: the default plugin set, no configuration file, upstream's toleration seconds. */
export function defaultAdmissionConfig(): AdmissionConfig {
  return { enablePlugins: [], disablePlugins: [], options: defaultAdmissionOptions() };
}

/**
 * The enabled plugins in the order they run: the default set plus `enablePlugins` minus
 * `disablePlugins`, ordered as ORDERED_PLUGINS whatever order the flags list them in.
 */
export function enabledPlugins(cfg: Pick<AdmissionConfig, 'enablePlugins' | 'disablePlugins'>): string[] {
  const on = new Set([...DEFAULT_ON_PLUGINS, ...cfg.enablePlugins]);
  for (const name of cfg.disablePlugins) on.delete(name);
  return ORDERED_PLUGINS.filter((name) => on.has(name));
}

/** What building the chain needs from the control plane. */
export interface AdmissionEnvironment {
  resources: readonly ResourceStorage[];
  informers: SharedInformers;
  authorizer: Authorizer;
  systemContext: RequestContext;
  signal: AbortSignal;
  log: AdmissionLog;
  /** The server's admission metrics (phases, plugins and webhook calls are recorded there). */
  metrics?: AdmissionMetrics;
}

function listerOf(informer: Informer): Lister {
  return {
    get: (namespace, name) => informer.get(namespace ? `${namespace}/${name}` : name),
    list: (namespace) => (namespace ? informer.listNamespace(namespace) : informer.list()),
    generation: () => informer.generation,
  };
}

function resourceAccess(env: AdmissionEnvironment, group: string, resource: string): ResourceAccess {
  const r = env.informers.resourceStorage(group, resource);
  const informer = env.informers.informer(group, resource);
  const { store } = r;
  const statusStore = r.subresources.get('status') ?? store;
  return {
    lister: listerOf(informer),
    async get(namespace, name) {
      try {
        return await store.get(env.systemContext, namespace, name);
      } catch (err) {
        if (isReason(err, 'NotFound')) return null;
        throw err;
      }
    },
    async list(namespace) {
      return (await store.list(env.systemContext, namespace, { predicate: EVERYTHING })).items;
    },
    async updateStatus(ctx, obj) {
      const meta = obj.metadata as Obj;
      const res = await statusStore.update(ctx, (meta.namespace as string | undefined) ?? '', meta.name as string, async () => obj);
      return res.obj;
    },
  };
}

/** Every served resource version of `resources` (storage versions first), as admission plugins see them. */
export function servedResourcesOf(resources: readonly ResourceStorage[]): ServedResource[] {
  const out: ServedResource[] = [];
  const subresourcesOf = (r: { subresources: Map<string, unknown> }, extra: ResourceStorage) => [...r.subresources.keys(), ...(extra.creaters?.keys() ?? []), ...(extra.updaters?.keys() ?? [])];
  for (const r of resources) {
    const k = r.store.strategy.kind;
    out.push({ group: k.group, version: k.version, resource: k.resource, kind: k.kind, namespaced: k.namespaced, subresources: subresourcesOf(r, r), definition: k });
  }
  for (const r of resources) {
    for (const v of r.versions ?? []) {
      const k = v.conversion.servedKind;
      out.push({ group: k.group, version: k.version, resource: k.resource, kind: k.kind, namespaced: k.namespaced, subresources: [...v.subresources.keys()], definition: k, conversion: v.conversion });
    }
  }
  return out;
}

/**
 * Builds the chain of the enabled plugins. Plugins ask for the informers they read while they are
 * built; the caller runs `env.informers` before serving.
 * @throws Error for an unreadable or invalid `--admission-control-config-file`, or a plugin that
 *   refuses its configuration.
 */
export async function buildAdmissionChain(cfg: AdmissionConfig, env: AdmissionEnvironment): Promise<AdmissionChain> {
  const configs = cfg.configFile ? await readAdmissionConfigFile(cfg.configFile) : new Map<string, Obj>();
  const served = servedResourcesOf(env.resources);
  const access = new Map<string, ResourceAccess>();
  const deps: AdmissionPluginDeps = {
    resource(group, resource) {
      const key = `${group}/${resource}`;
      let a = access.get(key);
      if (!a) access.set(key, (a = resourceAccess(env, group, resource)));
      return a;
    },
    servedResources: () => served,
    authorizer: env.authorizer,
    options: cfg.options,
    config: (plugin) => configs.get(plugin),
    systemContext: env.systemContext,
    signal: env.signal,
    log: env.log,
    ...(env.metrics && { metrics: env.metrics }),
  };
  const plugins = enabledPlugins(cfg).map((name) => {
    const factory = PLUGIN_FACTORIES.get(name);
    if (!factory) throw new Error(`admission plugin ${JSON.stringify(name)} is not available in this build`);
    return factory.create(deps);
  });
  env.log.info({ plugins: plugins.map((p) => p.name) }, 'admission plugins loaded');
  return new AdmissionChain(plugins, env.metrics);
}
