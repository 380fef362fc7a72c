/**
 * The main stores of the custom resources being served, by CRD name, for the loops that follow
 * every resource (the garbage collector, the resource quota controller's recounts; issue #14): the serving sets a CRD's store when it
 * serves it and clears it when it stops; a subscriber is told of the current ones at once and of
 * every change after.
 */
import type { Store } from '../registry/generic/store.js';

/** Told when a CRD's store appears, is replaced (a new generation) or goes (`undefined`). */
export type CustomResourceStoreListener = (crd: string, store: Store | undefined) => void;

/** The current custom resource stores and their subscribers. */
export class CustomResourceStores {
  private readonly stores = new Map<string, Store>();
  private readonly listeners = new Set<CustomResourceStoreListener>();

  /** Sets (or with `undefined` clears) the store of the CRD `crd`, telling every subscriber of a change. */
  set(crd: string, store: Store | undefined): void {
    if (this.stores.get(crd) === store) return;
    if (store) this.stores.set(crd, store);
    else this.stores.delete(crd);
    for (const l of this.listeners) l(crd, store);
  }

  /** The store of the CRD named `crd` (`<plural>.<group>`), when it is served. */
  get(crd: string): Store | undefined {
    return this.stores.get(crd);
  }

  /** Subscribes `listener` (called now for every current store); returns the unsubscribe function. */
  subscribe(listener: CustomResourceStoreListener): () => void {
    this.listeners.add(listener);
    for (const [crd, store] of this.stores) listener(crd, store);
    return () => this.listeners.delete(listener);
  }
}
