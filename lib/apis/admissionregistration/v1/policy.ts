/**
 * admissionregistration/v1 ValidatingAdmissionPolicy (with a status subresource) and
 * ValidatingAdmissionPolicyBinding (upstream v1.30, GA in 1.30; field structure and protobuf
 * numbers of `k8s.io/api/admissionregistration/v1`). Defaults as upstream
 * `SetDefaults_ValidatingAdmissionPolicySpec` (failurePolicy Fail) and `SetDefaults_MatchResources`
 * (matchPolicy Equivalent, empty selectors) and `SetDefaults_Rule` (scope `*`). Cluster-scoped,
 * category `api-extensions`. Stored and validated here (policy-validation.ts; a policy's CEL
 * expressions compile with an injected compiler, so the registry strategy runs its validation
 * rather than the kind's `validate`); enforcing them is a later issue.
 */
import { field } from '../../../apimachinery/schema/builder.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { validatingAdmissionPolicyBindingPrinter, validatingAdmissionPolicyPrinter } from '../../printers/admission.js';
import { validateValidatingAdmissionPolicyBinding, validateValidatingAdmissionPolicyStatus } from './policy-validation.js';
import { ADMISSIONREGISTRATION_GROUP, validatingAdmissionPolicyBindingSpec, validatingAdmissionPolicySpec, validatingAdmissionPolicyStatus } from './types.js';

const metadata = () => field(1, objectMeta, { omitEmpty: false });

/** The ValidatingAdmissionPolicy kind. */
export const validatingAdmissionPolicy = defineKind({
  group: ADMISSIONREGISTRATION_GROUP,
  version: 'v1',
  kind: 'ValidatingAdmissionPolicy',
  resource: 'validatingadmissionpolicies',
  singular: 'validatingadmissionpolicy',
  namespaced: false,
  categories: ['api-extensions'],
  statusSubresource: true,
  description: 'CEL validations that accept or reject objects without changing them.',
  printerColumns: validatingAdmissionPolicyPrinter,
  fields: {
    metadata: metadata(),
    spec: field(2, validatingAdmissionPolicySpec, { omitEmpty: false, description: 'The desired behaviour of the policy.' }),
    status: field(3, validatingAdmissionPolicyStatus, { omitEmpty: false, description: 'Type-checking results and conditions.' }),
  },
  validateStatusUpdate: validateValidatingAdmissionPolicyStatus,
});

/** The ValidatingAdmissionPolicyBinding kind. */
export const validatingAdmissionPolicyBinding = defineKind({
  group: ADMISSIONREGISTRATION_GROUP,
  version: 'v1',
  kind: 'ValidatingAdmissionPolicyBinding',
  resource: 'validatingadmissionpolicybindings',
  singular: 'validatingadmissionpolicybinding',
  namespaced: false,
  categories: ['api-extensions'],
  description: 'Binds a ValidatingAdmissionPolicy to parameters and resources, with its validation actions.',
  printerColumns: validatingAdmissionPolicyBindingPrinter,
  fields: {
    metadata: metadata(),
    spec: field(2, validatingAdmissionPolicyBindingSpec, { omitEmpty: false, description: 'The desired behaviour of the binding.' }),
  },
  validate: validateValidatingAdmissionPolicyBinding,
});
