/**
 * The stores of `resource.<vendor>/v1alpha2` (served only when enabled), with the options of the
 * upstream v1.30 registries (pkg/registry/resource/<kind>/strategy.go): none tracks generation,
 * every kind allows an update without resourceVersion; ResourceClaim and PodSchedulingContext
 * reset their status on create, keep it on main updates and write it through `status`.
 */
import * as k from '../../apis/resource/v1alpha2/index.js';
import { newKindStrategy, newStatusStrategy } from '../generic/kind-strategy.js';
import { newResourceStorage, type ResourceStorage, type StorageFactory } from '../generic/resource-storage.js';

const noGeneration = { tracksGeneration: false };

/** Builds the stores of the resource group, in discovery order. */
export function resourceResources(storageFor: StorageFactory, prefix: string): ResourceStorage[] {
  const withStatus = (kind: typeof k.resourceClaim) => {
    const main = newKindStrategy(kind, noGeneration);
    return newResourceStorage(storageFor, prefix, main, newStatusStrategy(main));
  };
  const plain = (kind: typeof k.resourceClass) => newResourceStorage(storageFor, prefix, newKindStrategy(kind, noGeneration));
  return [
    withStatus(k.podSchedulingContext),
    plain(k.resourceClaimParameters),
    withStatus(k.resourceClaim),
    plain(k.resourceClaimTemplate),
    plain(k.resourceClass),
    plain(k.resourceClassParameters),
    plain(k.resourceSlice),
  ];
}
