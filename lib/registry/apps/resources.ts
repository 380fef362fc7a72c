/**
 * The stores of the workload controllers beside Deployment (issue #12 item 1), in upstream's
 * apps/v1 discovery order — statefulsets, daemonsets, replicasets, controllerrevisions — then
 * core/v1 replicationcontrollers. ReplicaSet, ControllerRevision and ReplicationController follow
 * their definitions alone (status subresource and generation tracking where the kind has a
 * status; ControllerRevision has neither); StatefulSet and DaemonSet have strategies of their own.
 */
import { controllerRevision, replicaSet } from '../../apis/apps/v1/index.js';
import { replicationController } from '../../apis/core/v1/replication-controller.js';
import { newKindStrategy } from '../generic/kind-strategy.js';
import { newResourceStorage, type ResourceStorage, type StorageFactory } from '../generic/resource-storage.js';
import { scaleSubresource, selectorMapAt, withScale } from '../generic/scale.js';
import type { Strategy } from '../rest/strategy.js';
import { daemonSetStrategy } from './daemonset/strategy.js';
import { statefulSetStrategy } from './statefulset/strategy.js';

/** Create, update and delete rules of ReplicaSet. */
export const replicaSetStrategy: Strategy = newKindStrategy(replicaSet);
/** Create, update and delete rules of ControllerRevision (no status, no generation). */
export const controllerRevisionStrategy: Strategy = newKindStrategy(controllerRevision);
/** Create, update and delete rules of ReplicationController. */
export const replicationControllerStrategy: Strategy = newKindStrategy(replicationController);

/**
 * Builds the stores of StatefulSet, DaemonSet, ReplicaSet, ControllerRevision and
 * ReplicationController under `prefix`; StatefulSet, ReplicaSet and ReplicationController (whose
 * selector is a label map) have the `scale` subresource.
 */
export function appsResources(storageFor: StorageFactory, prefix: string): ResourceStorage[] {
  const r = (s: Strategy) => newResourceStorage(storageFor, prefix, s);
  return [
    withScale(r(statefulSetStrategy)),
    r(daemonSetStrategy),
    withScale(r(replicaSetStrategy)),
    r(controllerRevisionStrategy),
    withScale(r(replicationControllerStrategy), scaleSubresource({ selector: selectorMapAt('spec.selector') })),
  ];
}
