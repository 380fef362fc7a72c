/**
 * The apiextensions wiring of the control plane (issue #14): custom resources served from the
 * CustomResourceDefinitions (custom-resources.ts), and the CRD controllers every server runs, as
 * upstream's apiextensions server does — naming (NamesAccepted), establishing (Established) and
 * the finalizer that deletes a deleted CRD's objects before the CRD goes.
 */
import { vendorGroup } from '../apis/vendor.js';
import type { CustomResourceOptions } from '../apiextensions/custom-kind.js';
import type { CustomResourceDefinition } from '../apiextensions/types.js';
import { newCustomResourceConverter } from '../apiextensions/conversion/converter.js';
import { runCRDEstablishingController } from '../controllers/apiextensions/establishing-controller.js';
import { type CustomObjects, runCRDFinalizer } from '../controllers/apiextensions/finalizer-controller.js';
import { runCRDNamingController } from '../controllers/apiextensions/naming-controller.js';
import type { APIInstaller } from '../endpoints/installer.js';
import type { ResourceStorage } from '../registry/generic/resource-storage.js';
import type { Store } from '../registry/generic/store.js';
import type { RequestContext } from '../request/context.js';
import type { PostStartHooks } from '../server/hooks.js';
import type { Logger } from '../server/logging.js';
import { EVERYTHING } from '../storage/interface.js';
import { CustomResourceServing, type CustomResourceStorage } from './custom-resources.js';
import type { CustomResourceStores } from './custom-resource-stores.js';
import type { SharedInformers } from './informers.js';

/** The group of CustomResourceDefinitions. */
export const APIEXTENSIONS_GROUP = vendorGroup('apiextensions');
const CRD_RESOURCE = 'customresourcedefinitions';

/** What the wiring needs. */
export interface APIExtensionsDeps {
  resources: readonly ResourceStorage[];
  informers: SharedInformers;
  installer: APIInstaller;
  prefix: string;
  newStorage(keyRoot: string): CustomResourceStorage;
  /** Context of the controllers' writes. */
  ctx: RequestContext;
  signal: AbortSignal;
  log: Logger;
  /** The finalizer's poll of the objects left (ms; default upstream's 5 s). */
  finalizerPollIntervalMs?: number;
  /** Run the CRD controllers (ControlPlaneConfig.crdControllers). */
  controllers: boolean;
  /** The feature-gated behaviour of custom resources (from the feature gates). */
  customResources: CustomResourceOptions;
  /** Where the served custom resources' stores are published (the garbage collector follows them). */
  stores: CustomResourceStores;
}

/** The custom objects of a CRD, through the stores its serving built (CustomObjects of the finalizer). */
function customObjects(serving: CustomResourceServing, ctx: RequestContext): CustomObjects {
  const storeOf = (crd: CustomResourceDefinition): Store => {
    const v = serving.versionsOf(crd.metadata.name ?? '')[0];
    if (!v) throw new Error(`the custom resource ${crd.spec.names.plural}.${crd.spec.group} is not served`);
    return v.store;
  };
  // A CRD naming a built-in resource shares its key root: those objects are never deleted for it.
  const overlapping = (crd: CustomResourceDefinition) => serving.overlapsBuiltIn(crd.metadata.name ?? '');
  return {
    async listNamespaces(crd) {
      if (overlapping(crd)) return [];
      const store = storeOf(crd);
      if (!store.strategy.namespaceScoped()) return [''];
      const list = await store.list(ctx, '', { predicate: EVERYTHING, resourceVersion: '0' });
      return [...new Set(list.items.map((o) => ((o.metadata as Record<string, unknown> | undefined)?.namespace as string | undefined) ?? ''))].sort();
    },
    async deleteCollection(crd, namespace) {
      await storeOf(crd).deleteCollection(ctx, namespace, {}, { predicate: EVERYTHING });
    },
    async count(crd) {
      if (overlapping(crd)) return 0;
      const store = storeOf(crd);
      return store.storage.count(store.prefixFor(''));
    },
  };
}

/**
 * Starts serving custom resources (the CRD informer's handler is registered before the informers
 * run) and adds the post-start hook that runs the CRD controllers. Returns the serving, to stop
 * with the server.
 * @throws Error when CustomResourceDefinitions are not among the served resources.
 */
export function setUpAPIExtensions(deps: APIExtensionsDeps, hooks: PostStartHooks): CustomResourceServing {
  const informer = deps.informers.informer(APIEXTENSIONS_GROUP, CRD_RESOURCE);
  const crds = deps.resources.find((r) => r.store.strategy.kind.group === APIEXTENSIONS_GROUP && r.store.strategy.kind.resource === CRD_RESOURCE)!;
  const serving = new CustomResourceServing({
    installer: deps.installer,
    informer,
    prefix: deps.prefix,
    newStorage: deps.newStorage,
    newConverter: (crd) => newCustomResourceConverter(crd, { log: (message) => deps.log.warn({ crd: crd.metadata.name }, message) }),
    options: deps.customResources,
    stores: deps.stores,
    log: deps.log,
  });
  const onError = (what: string) => (err: unknown) => deps.log.error({ err }, what);
  if (!deps.controllers) return serving;
  hooks.add('start-apiextensions-controllers', async () => {
    await informer.waitForSync();
    const base = { informer, statusStore: crds.subresources.get('status')!, ctx: deps.ctx };
    void runCRDNamingController({ ...base, onError: onError('CRD naming controller') }, deps.signal);
    void runCRDEstablishingController({ ...base, onError: onError('CRD establishing controller') }, deps.signal);
    void runCRDFinalizer(
      { ...base, store: crds.store, instances: customObjects(serving, deps.ctx), onError: onError('CRD finalizer'), ...(deps.finalizerPollIntervalMs ? { pollIntervalMs: deps.finalizerPollIntervalMs } : {}) },
      deps.signal,
    );
  });
  return serving;
}
