/**
 * ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding in the pre-release versions
 * upstream v1.30 still ships, off by default (issue #15 item 1): `v1beta1` and `v1alpha1`, served
 * over the v1 objects. In v1.30 both versions declare the same fields as v1, with the same JSON
 * names, list markers and protobuf numbers, under their own package (definition ids
 * `api.admissionregistration.<version>.*`; Rule and RuleWithOperations stay v1's, which upstream's
 * older versions alias), so the conversion is the identity and loses nothing; only defaults differ
 * (v1alpha1 defaults a ParamRef's `parameterNotFoundAction` to Deny: ./v1alpha1). Validation is
 * v1's, on the converted object, as upstream validates the internal one.
 */
import { field } from '../../apimachinery/schema/builder.js';
import type { StructSchema } from '../../apimachinery/schema/types.js';
import { defineKindVersion, type KindDefinition, type KindSpec, type Obj } from '../define.js';
import { objectMeta } from '../meta/v1/types.js';
import { newRehomer } from '../rehome.js';
import { defineVersionConversion, type VersionConversion } from '../version-conversion.js';
import { validatingAdmissionPolicy, validatingAdmissionPolicyBinding } from './v1/policy.js';
import { validatingAdmissionPolicyBindingSpec, validatingAdmissionPolicySpec, validatingAdmissionPolicyStatus } from './v1/types.js';

/** Definition id prefix of the v1 structs. */
export const ADMISSIONREGISTRATION_V1_PREFIX = 'api.admissionregistration.v1.';

/** How one pre-release version differs from v1. */
export interface PolicyVersionSpec {
  /** `v1beta1` or `v1alpha1`. */
  version: string;
  /** Upstream's lifecycle of the version's kinds (`APILifecycleDeprecated`, `Removed`, `Replacement`), by kind. */
  lifecycle: (kind: string) => Pick<KindSpec, 'deprecatedSince' | 'removedIn' | 'replacement'>;
  /** Structs of the version that differ from v1, by the v1 id they replace (already under the version's id). */
  overrides?: ReadonlyMap<string, StructSchema>;
}

/** The two kinds of a version and their conversions to and from v1. */
export interface PolicyVersion {
  policy: KindDefinition;
  binding: KindDefinition;
  policyConversion: VersionConversion;
  bindingConversion: VersionConversion;
}

/** The same object (a copy): the version's fields are v1's (type meta, defaults and canonical form are the conversion's). */
const identity = (obj: Obj): Obj => structuredClone(obj);

/** The kinds and conversions of one pre-release version of the policy kinds (see the file comment). */
export function definePolicyVersion(spec: PolicyVersionSpec): PolicyVersion {
  const rehome = newRehomer({ from: ADMISSIONREGISTRATION_V1_PREFIX, to: `api.admissionregistration.${spec.version}.`, overrides: spec.overrides });
  const metadata = () => field(1, objectMeta, { omitEmpty: false });
  const policy = defineKindVersion(
    validatingAdmissionPolicy,
    spec.version,
    {
      metadata: metadata(),
      spec: field(2, rehome(validatingAdmissionPolicySpec), { omitEmpty: false, description: 'The desired behaviour of the policy.' }),
      status: field(3, rehome(validatingAdmissionPolicyStatus), { omitEmpty: false, description: 'Type-checking results and conditions.' }),
    },
    spec.lifecycle('ValidatingAdmissionPolicy'),
  );
  const binding = defineKindVersion(
    validatingAdmissionPolicyBinding,
    spec.version,
    {
      metadata: metadata(),
      spec: field(2, rehome(validatingAdmissionPolicyBindingSpec), { omitEmpty: false, description: 'The desired behaviour of the binding.' }),
    },
    spec.lifecycle('ValidatingAdmissionPolicyBinding'),
  );
  return {
    policy,
    binding,
    policyConversion: defineVersionConversion({ storageKind: validatingAdmissionPolicy, servedKind: policy, toStorage: identity, toServed: identity }),
    bindingConversion: defineVersionConversion({ storageKind: validatingAdmissionPolicyBinding, servedKind: binding, toStorage: identity, toServed: identity }),
  };
}
