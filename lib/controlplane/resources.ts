/**
 * Which resources this control plane serves, in discovery order, with their stores
 * (ARCHITECTURE.md § Layers: lib/controlplane is the wiring of OUR server).
 */
import { newResourceStorage, type ResourceStorage, type StorageFactory } from '../registry/generic/resource-storage.js';
import { newNamespaceStorage } from '../registry/core/namespace/storage.js';
import { secretStrategy } from '../registry/core/secret/strategy.js';
import { serviceStrategy } from '../registry/core/service/strategy.js';
import { podStrategy } from '../registry/core/pod/strategy.js';
import { jobStrategy } from '../registry/batch/job/strategy.js';
import * as simple from '../registry/simple-strategies.js';

/** Builds the stores of every served resource. */
export function servedResources(storageFor: StorageFactory, prefix: string): ResourceStorage[] {
  const r = (s: Parameters<typeof newResourceStorage>[2]) => newResourceStorage(storageFor, prefix, s);
  return [
    newNamespaceStorage(storageFor, prefix),
    r(podStrategy),
    r(simple.configMapStrategy),
    r(secretStrategy),
    r(serviceStrategy),
    r(simple.serviceAccountStrategy),
    r(simple.nodeStrategy),
    r(simple.eventStrategy),
    r(simple.endpointsStrategy),
    r(simple.deploymentStrategy),
    r(jobStrategy),
    r(simple.cronJobStrategy),
    r(simple.leaseStrategy),
    r(simple.roleStrategy),
    r(simple.clusterRoleStrategy),
    r(simple.roleBindingStrategy),
    r(simple.clusterRoleBindingStrategy),
  ];
}
