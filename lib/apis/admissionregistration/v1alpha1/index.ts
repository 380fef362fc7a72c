/**
 * The kinds of `admissionregistration.<vendor>/v1alpha1` upstream v1.30 serves (off by default,
 * issue #15 item 1): ValidatingAdmissionPolicy (with `status`) and ValidatingAdmissionPolicyBinding
 * over the v1 objects (../policy-versions.ts). The one difference from v1: upstream's v1alpha1
 * `SetDefaults_ParamRef` defaults a binding's `paramRef.parameterNotFoundAction` to Deny (v1
 * requires it). Upstream's lifecycle of the types: introduced in 1.26, deprecated in 1.29,
 * removed in 1.32, replaced by v1.
 */
import type { Field, StructSchema } from '../../../apimachinery/schema/types.js';
import { structFields } from '../../../apimachinery/schema/types.js';
import type { KindDefinition } from '../../define.js';
import { definePolicyVersion } from '../policy-versions.js';
import { ADMISSIONREGISTRATION_GROUP, paramRef } from '../v1/types.js';

const refFields = structFields(paramRef);
const action = refFields.parameterNotFoundAction as Field;

/** The v1alpha1 ParamRef: v1's, `parameterNotFoundAction` defaulting to Deny. */
const paramRefV1alpha1: StructSchema = {
  ...paramRef,
  id: 'api.admissionregistration.v1alpha1.ParamRef',
  fields: { ...refFields, parameterNotFoundAction: { ...action, default: 'Deny' } },
};

const v1alpha1 = definePolicyVersion({
  version: 'v1alpha1',
  lifecycle: (kind) => ({ deprecatedSince: '1.29', removedIn: '1.32', replacement: { group: ADMISSIONREGISTRATION_GROUP, version: 'v1', kind } }),
  overrides: new Map([[paramRef.id, paramRefV1alpha1]]),
});

/** ValidatingAdmissionPolicy of v1alpha1. */
export const validatingAdmissionPolicyV1alpha1 = v1alpha1.policy;
/** ValidatingAdmissionPolicyBinding of v1alpha1. */
export const validatingAdmissionPolicyBindingV1alpha1 = v1alpha1.binding;
/** v1alpha1 ValidatingAdmissionPolicy served over v1 storage. */
export const validatingAdmissionPolicyV1alpha1Conversion = v1alpha1.policyConversion;
/** v1alpha1 ValidatingAdmissionPolicyBinding served over v1 storage. */
export const validatingAdmissionPolicyBindingV1alpha1Conversion = v1alpha1.bindingConversion;

/** Every kind of the group version, in discovery order, for the catalogue. */
export const admissionregistrationV1alpha1Kinds: readonly KindDefinition[] = [validatingAdmissionPolicyV1alpha1, validatingAdmissionPolicyBindingV1alpha1];
