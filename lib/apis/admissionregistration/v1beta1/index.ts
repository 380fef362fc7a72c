/**
 * The kinds of `admissionregistration.<vendor>/v1beta1` upstream v1.30 serves (off by default,
 * issue #15 item 1): ValidatingAdmissionPolicy (with `status`) and ValidatingAdmissionPolicyBinding
 * over the v1 objects (../policy-versions.ts). Upstream's lifecycle of the v1.30 types:
 * deprecated in 1.29, removed in 1.32, no replacement named. The webhook configurations of v1beta1
 * were removed in 1.22 (lib/apis/migration).
 */
import type { KindDefinition } from '../../define.js';
import { definePolicyVersion } from '../policy-versions.js';

const v1beta1 = definePolicyVersion({ version: 'v1beta1', lifecycle: () => ({ deprecatedSince: '1.29', removedIn: '1.32' }) });

/** ValidatingAdmissionPolicy of v1beta1. */
export const validatingAdmissionPolicyV1beta1 = v1beta1.policy;
/** ValidatingAdmissionPolicyBinding of v1beta1. */
export const validatingAdmissionPolicyBindingV1beta1 = v1beta1.binding;
/** v1beta1 ValidatingAdmissionPolicy served over v1 storage. */
export const validatingAdmissionPolicyV1beta1Conversion = v1beta1.policyConversion;
/** v1beta1 ValidatingAdmissionPolicyBinding served over v1 storage. */
export const validatingAdmissionPolicyBindingV1beta1Conversion = v1beta1.bindingConversion;

/** Every kind of the group version, in discovery order, for the catalogue. */
export const admissionregistrationV1beta1Kinds: readonly KindDefinition[] = [validatingAdmissionPolicyV1beta1, validatingAdmissionPolicyBindingV1beta1];
