/**
 * Assembles the stores of one resource: the main store and its subresource stores, sharing one
 * storage and key root (`<prefix>/<group or core>/<resource>`; ARCHITECTURE.md § Storage rules).
 */
import type { KindDefinition } from '../../apis/define.js';
import type { VersionConversion } from '../../apis/version-conversion.js';
import type { StorageInterface } from '../../storage/interface.js';
import type { Creater } from '../rest/creater.js';
import type { Connecter } from '../rest/connecter.js';
import type { KindedSubresource } from '../rest/updater.js';
import type { Strategy } from '../rest/strategy.js';
import { newStatusStrategy } from './kind-strategy.js';
import { Store } from './store.js';

/** The stores of one resource. */
export interface ResourceStorage {
  store: Store;
  subresources: Map<string, Store>;
  /**
   * Create-only subresources by name, each with its own kind (`token` → the TokenRequest Creater
   * of `serviceaccounts`): served as `POST <object path>/<name>` only (registry/rest/creater.ts).
   */
  creaters?: Map<string, Creater>;
  /**
   * Get/update subresources with a kind of their own by name (`scale` → Scale, scale.ts
   * `withScale`): served as GET, PUT and PATCH of `<object path>/<name>`.
   */
  updaters?: Map<string, KindedSubresource>;
  /**
   * Connect subresources by name (`exec` → the pods' exec Connecter): proxied to another server,
   * never stored (registry/rest/connecter.ts; issue #20).
   */
  connecters?: Map<string, Connecter>;
  /**
   * The other versions (or groups) the same objects are served in (issue #12: autoscaling/v1
   * over v2, `events.<vendor>/v1` over core/v1 Events), each with its conversion and the stores
   * its requests use (the main ones, or stores over the same storage with that version's rules).
   */
  versions?: ServedVersionStorage[];
}

/** One more served version of a resource's objects. */
export interface ServedVersionStorage {
  conversion: VersionConversion;
  store: Store;
  subresources: Map<string, Store>;
}

/**
 * Gives the storage of one resource from its key root and kind (whose schema decides the stored
 * encoding: lib/apimachinery/schema/canonical.ts): the watch cache wrapping etcd in the server,
 * plain etcd where no cache is wanted.
 */
export type StorageFactory = (keyRoot: string, kind: KindDefinition) => StorageInterface;

/** The etcd key root of a resource. */
export function keyRootFor(prefix: string, group: string, resource: string): string {
  return `${prefix.replace(/\/+$/, '')}/${group || 'core'}/${resource}`;
}

/**
 * Builds the stores of a resource from its strategy; kinds with a status subresource get a
 * `status` store (with `statusStrategy`, default: status-only writes).
 */
export function newResourceStorage(storageFor: StorageFactory, prefix: string, strategy: Strategy, statusStrategy?: Strategy): ResourceStorage {
  const keyRoot = keyRootFor(prefix, strategy.kind.group, strategy.kind.resource);
  const storage = storageFor(keyRoot, strategy.kind);
  const subresources = new Map<string, Store>();
  if (strategy.kind.statusSubresource) {
    subresources.set('status', new Store({ storage, keyRoot, strategy: statusStrategy ?? newStatusStrategy(strategy) }));
  }
  return { store: new Store({ storage, keyRoot, strategy }), subresources };
}
