/**
 * The stored resources of the autoscaling group (issue #12 item 1): horizontalpodautoscalers with
 * its status subresource, stored as autoscaling/v2 and served as v2 (preferred) and v1 from the
 * same stores.
 */
import { horizontalPodAutoscalerV1Conversion } from '../../apis/autoscaling/v1/index.js';
import { newResourceStorage, type ResourceStorage, type StorageFactory } from '../generic/resource-storage.js';
import { horizontalPodAutoscalerStatusStrategy, horizontalPodAutoscalerStrategy } from './horizontalpodautoscaler/strategy.js';

/** Builds the stores of the autoscaling group, in discovery order. */
export function autoscalingResources(storageFor: StorageFactory, prefix: string): ResourceStorage[] {
  const hpa = newResourceStorage(storageFor, prefix, horizontalPodAutoscalerStrategy, horizontalPodAutoscalerStatusStrategy);
  hpa.versions = [{ conversion: horizontalPodAutoscalerV1Conversion, store: hpa.store, subresources: hpa.subresources }];
  return [hpa];
}
