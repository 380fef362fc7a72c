/**
 * Serving custom resources (issue #14; upstream's CRD handler): every replica watches the
 * CustomResourceDefinitions through an informer and, as soon as one is Established, installs its
 * served versions in the API installer — routes, discovery and OpenAPI follow from the installer —
 * without a restart. A CRD keeps one storage (one watch cache over etcd) for its whole life; a
 * change of the CRD rebuilds only its kinds and stores over that storage, so watches continue
 * across a schema change and later writes and reads use the new schema. A deleted CRD's versions
 * are uninstalled and its cache stopped; while it terminates its objects can be read and deleted
 * but not created.
 */
import { newMethodNotSupported } from '../apimachinery/errors.js';
import type { Obj } from '../apis/define.js';
import type { CustomResourceOptions } from '../apiextensions/custom-kind.js';
import type { CustomResourceDefinition } from '../apiextensions/types.js';
import type { Informer } from '../client/informer.js';
import type { CustomResourceConverter } from '../apiextensions/conversion/converter.js';
import type { APIInstaller } from '../endpoints/installer.js';
import { customResourceStores, type CustomResourceServedVersion } from '../registry/apiextensions/customresource/storage.js';
import { keyRootFor } from '../registry/generic/resource-storage.js';
import type { Store } from '../registry/generic/store.js';
import type { CustomResourceStores } from './custom-resource-stores.js';
import type { Logger } from '../server/logging.js';
import type { StorageInterface } from '../storage/interface.js';

/** A storage for one CRD's objects and the way to release it. */
export interface CustomResourceStorage {
  storage: StorageInterface;
  stop(): void;
}

/** What the serving needs. */
export interface CustomResourceServingDeps {
  installer: APIInstaller;
  /** The informer over CustomResourceDefinitions. */
  informer: Informer;
  /** `--etcd-prefix`. */
  prefix: string;
  /** A watch-cached storage under `keyRoot` storing objects as given (custom resources are already in their encoded order). */
  newStorage(keyRoot: string): CustomResourceStorage;
  /** The converter of a CRD with the `Webhook` conversion strategy (one per CRD change). */
  newConverter(crd: CustomResourceDefinition): CustomResourceConverter;
  /** The feature-gated behaviour of custom resources (CRDValidationRatcheting, CustomResourceFieldSelectors). */
  options: CustomResourceOptions;
  /** Told of the main store of every CRD served, for the loops that follow every resource. */
  stores: CustomResourceStores;
  log: Logger;
}

/** One CRD being served. */
interface Served {
  /** The CRD's name. */
  name: string;
  storage: CustomResourceStorage;
  keyRoot: string;
  /** `group/version/resource` of the installed versions. */
  installed: Set<string>;
  /**
   * What the installed stores were built from: the CRD's generation (its spec), accepted names
   * and terminating state. Other changes (condition timestamps, stored versions, managed fields)
   * rebuild nothing, so schemas and rules are compiled once per generation.
   */
  builtFrom: string;
  /** The stores of the served versions, as built. */
  versions: CustomResourceServedVersion[];
  /** A version names a built-in resource (left to it): the objects under the key root are not the CRD's. */
  overlapping: boolean;
  terminating: boolean;
  /** The conversion webhook's client, for a CRD with the `Webhook` strategy. */
  converter?: CustomResourceConverter;
}

function isTrue(crd: CustomResourceDefinition, type: string): boolean {
  return (crd.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');
}

/** Upstream's answer to a create while the definition terminates. */
function refuseWhileTerminating(group: string, resource: string) {
  return (verb: string): void => {
    if (verb !== 'create') return;
    const err = newMethodNotSupported({ group, resource }, verb);
    err.status.message = `${verb} not allowed while custom resource definition is terminating`;
    throw err;
  };
}

/** The custom resources served by one server, kept in step with the CRDs. */
export class CustomResourceServing {
  private readonly served = new Map<string, Served>();

  constructor(private readonly deps: CustomResourceServingDeps) {
    deps.informer.addHandler((type, obj) => {
      if (type === 'DELETED') this.remove(obj as unknown as CustomResourceDefinition);
      else this.sync(obj as unknown as CustomResourceDefinition);
    });
  }

  /** The stores of the served versions of the CRD named `name` (tests and the finalizer read them). */
  versionsOf(name: string): CustomResourceServedVersion[] {
    return this.served.get(name)?.versions ?? [];
  }

  /**
   * The main store of every namespaced custom resource served (one per CRD: its first served
   * version's), for the namespace controller, which deletes a terminating namespace's objects.
   */
  namespacedStores(): Store[] {
    const out: Store[] = [];
    for (const s of this.served.values()) {
      const store = s.versions[0]?.store;
      if (store && s.installed.size > 0 && !s.overlapping && store.strategy.namespaceScoped()) out.push(store);
    }
    return out;
  }

  /** True when a version of the CRD named `name` names a built-in resource (its objects are not the CRD's to delete). */
  overlapsBuiltIn(name: string): boolean {
    return this.served.get(name)?.overlapping === true;
  }

  /** Installs, updates or uninstalls the versions of `crd` as its conditions and spec say. */
  private sync(crd: CustomResourceDefinition): void {
    const name = crd.metadata.name ?? '';
    const current = this.served.get(name);
    const terminating = crd.metadata.deletionTimestamp !== undefined || isTrue(crd, 'Terminating');
    const builtFrom = JSON.stringify([crd.metadata.uid, crd.metadata.generation, crd.status?.acceptedNames, terminating]);
    if (current && current.builtFrom === builtFrom) return;
    // A terminating CRD stays served (reads and deletes) until it is gone, whatever its conditions.
    if (!isTrue(crd, 'Established') && !(current && crd.metadata.deletionTimestamp !== undefined)) {
      if (current) this.uninstall(current);
      return;
    }
    let versions: CustomResourceServedVersion[];
    const keyRoot = keyRootFor(this.deps.prefix, crd.spec.group, crd.spec.names.plural);
    let s = current;
    if (s && s.keyRoot !== keyRoot) {
      this.remove(crd);
      s = undefined;
    }
    s ??= { name, storage: this.deps.newStorage(keyRoot), keyRoot, installed: new Set(), builtFrom: '', versions: [], overlapping: false, terminating: false };
    this.served.set(name, s);
    s.converter?.close();
    s.converter = crd.spec.conversion?.strategy === 'Webhook' ? this.deps.newConverter(crd) : undefined;
    try {
      versions = customResourceStores(crd, s.storage.storage, keyRoot, s.converter, this.deps.options);
    } catch (err) {
      this.deps.log.error({ err, crd: name }, 'custom resource definition cannot be served');
      this.uninstall(s);
      return;
    }
    s.builtFrom = builtFrom;
    s.versions = versions;
    s.terminating = terminating;
    const next = new Set<string>();
    s.overlapping = false;
    for (const v of versions) {
      const k = v.version.kind;
      // A built-in resource wins over a CRD naming it, as upstream's handler chain serves the
      // built-in ones first.
      const existing = this.deps.installer.lookup(k.group, k.version, k.resource);
      if (existing && !existing.kind.custom) {
        s.overlapping = true;
        this.deps.log.warn({ crd: name, resource: `${k.resource}.${k.group}` }, 'custom resource definition names a built-in resource; the built-in one is served');
        continue;
      }
      next.add(`${k.group}/${k.version}/${k.resource}`);
      this.deps.installer.install({
        kind: k,
        store: v.store,
        subresources: v.subresources,
        updaters: v.updaters,
        selectableFields: new Set(v.store.strategy.fieldLabels()),
        ...(v.conversion ? { version: v.conversion } : {}),
        ...(s.terminating ? { checkVerb: refuseWhileTerminating(k.group, k.resource) } : {}),
      });
    }
    for (const key of s.installed) {
      if (next.has(key)) continue;
      const [group, version, resource] = key.split('/') as [string, string, string];
      this.deps.installer.uninstall(group, version, resource);
    }
    s.installed = next;
    this.deps.stores.set(name, next.size > 0 && !s.overlapping ? versions[0]?.store : undefined);
  }

  private uninstall(s: Served): void {
    this.deps.stores.set(s.name, undefined);
    for (const key of s.installed) {
      const [group, version, resource] = key.split('/') as [string, string, string];
      this.deps.installer.uninstall(group, version, resource);
    }
    s.installed = new Set();
    s.builtFrom = '';
    s.versions = [];
  }

  /** Stops serving a deleted CRD and releases its storage. */
  private remove(crd: CustomResourceDefinition | Obj): void {
    const name = ((crd as CustomResourceDefinition).metadata?.name as string | undefined) ?? '';
    const s = this.served.get(name);
    if (!s) return;
    this.uninstall(s);
    s.converter?.close();
    s.storage.stop();
    this.served.delete(name);
  }

  /** Stops every storage (server shutdown). */
  stop(): void {
    for (const s of this.served.values()) {
      s.converter?.close();
      s.storage.stop();
    }
    this.served.clear();
  }
}
