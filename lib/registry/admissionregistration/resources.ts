/**
 * The stores of `admissionregistration.<vendor>` (issue #12), in discovery order, stored as v1;
 * the policies and their bindings are also served as v1beta1 and v1alpha1 from the same stores
 * (issue #15 item 1; off unless `--runtime-config` enables them).
 */
import type { AdmissionExpressionCompiler } from '../../apis/admissionregistration/v1/index.js';
import { validatingAdmissionPolicyBindingV1alpha1Conversion, validatingAdmissionPolicyV1alpha1Conversion } from '../../apis/admissionregistration/v1alpha1/index.js';
import { validatingAdmissionPolicyBindingV1beta1Conversion, validatingAdmissionPolicyV1beta1Conversion } from '../../apis/admissionregistration/v1beta1/index.js';
import type { VersionConversion } from '../../apis/version-conversion.js';
import { newResourceStorage, type ResourceStorage, type StorageFactory } from '../generic/resource-storage.js';
import { admissionregistrationStrategies } from './strategy.js';

/** The other served versions of each stored kind, by kind, in discovery order (v1beta1, then v1alpha1). */
const OTHER_VERSIONS: ReadonlyMap<string, readonly VersionConversion[]> = new Map([
  ['ValidatingAdmissionPolicy', [validatingAdmissionPolicyV1beta1Conversion, validatingAdmissionPolicyV1alpha1Conversion]],
  ['ValidatingAdmissionPolicyBinding', [validatingAdmissionPolicyBindingV1beta1Conversion, validatingAdmissionPolicyBindingV1alpha1Conversion]],
]);

/**
 * Mutating webhook configurations, validating admission policies (with `/status`) and their
 * bindings, validating webhook configurations; `compiler` type-checks their CEL expressions
 * (the control plane passes lib/admission/cel's).
 */
export function admissionregistrationResources(storageFor: StorageFactory, prefix: string, compiler: AdmissionExpressionCompiler): ResourceStorage[] {
  return admissionregistrationStrategies(compiler).map((s) => {
    const r = newResourceStorage(storageFor, prefix, s.main, s.status);
    const others = OTHER_VERSIONS.get(s.main.kind.kind);
    if (others) r.versions = others.map((conversion) => ({ conversion, store: r.store, subresources: r.subresources }));
    return r;
  });
}
