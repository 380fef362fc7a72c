/** The stores of `admissionregistration.<vendor>/v1`, in discovery order (issue #12). */
import type { AdmissionExpressionCompiler } from '../../apis/admissionregistration/v1/index.js';
import { newResourceStorage, type ResourceStorage, type StorageFactory } from '../generic/resource-storage.js';
import { admissionregistrationStrategies } from './strategy.js';

/**
 * Mutating webhook configurations, validating admission policies (with `/status`) and their
 * bindings, validating webhook configurations; `compiler` type-checks their CEL expressions
 * (the control plane passes lib/admission/cel's).
 */
export function admissionregistrationResources(storageFor: StorageFactory, prefix: string, compiler: AdmissionExpressionCompiler): ResourceStorage[] {
  return admissionregistrationStrategies(compiler).map((s) => newResourceStorage(storageFor, prefix, s.main, s.status));
}
