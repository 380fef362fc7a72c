/**
 * The stores of `networking.<vendor>/v1`: ingressclasses, ingresses (with `status`),
 * networkpolicies; then `v1alpha1` (served only when enabled): ipaddresses, servicecidrs (with `status`).
 */
import { newResourceStorage, type ResourceStorage, type StorageFactory } from '../generic/resource-storage.js';
import { ingressStatusStrategy, ingressStrategy } from './ingress/strategy.js';
import { ingressClassStrategy } from './ingressclass/strategy.js';
import { networkPolicyStrategy } from './networkpolicy/strategy.js';
import { ipAddressStrategy } from './ipaddress/strategy.js';
import { serviceCIDRStatusStrategy, serviceCIDRStrategy } from './servicecidr/strategy.js';

/** Builds the stores of the networking group, in discovery order. */
export function networkingResources(storageFor: StorageFactory, prefix: string): ResourceStorage[] {
  return [
    newResourceStorage(storageFor, prefix, ingressClassStrategy),
    newResourceStorage(storageFor, prefix, ingressStrategy, ingressStatusStrategy),
    newResourceStorage(storageFor, prefix, networkPolicyStrategy),
    newResourceStorage(storageFor, prefix, ipAddressStrategy),
    newResourceStorage(storageFor, prefix, serviceCIDRStrategy, serviceCIDRStatusStrategy),
  ];
}
