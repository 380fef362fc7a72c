/** The stored resources of `policy/v1` (issue #12 item 1): poddisruptionbudgets, with its status subresource. */
import { newResourceStorage, type ResourceStorage, type StorageFactory } from '../generic/resource-storage.js';
import { podDisruptionBudgetStatusStrategy, podDisruptionBudgetStrategy } from './poddisruptionbudget/strategy.js';

/** Builds the stores of the policy group, in discovery order. */
export function policyResources(storageFor: StorageFactory, prefix: string): ResourceStorage[] {
  return [newResourceStorage(storageFor, prefix, podDisruptionBudgetStrategy, podDisruptionBudgetStatusStrategy)];
}
