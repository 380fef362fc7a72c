/** The kinds of `admissionregistration.<vendor>/v1` (issue #12): webhook configurations, validating admission policies and their bindings. */
import type { KindDefinition } from '../../define.js';
import { validatingAdmissionPolicy, validatingAdmissionPolicyBinding } from './policy.js';
import { mutatingWebhookConfiguration, validatingWebhookConfiguration } from './webhooks.js';

export { validatingAdmissionPolicy, validatingAdmissionPolicyBinding } from './policy.js';
export {
  validateValidatingAdmissionPolicy,
  validateValidatingAdmissionPolicyBinding,
  validateValidatingAdmissionPolicyStatus,
  validateValidatingAdmissionPolicyUpdate,
} from './policy-validation.js';
export { type AdmissionExpressionCompiler, type CompileOutcome, type ExpressionResult, type ExpressionScope, isCELIdentifier } from './expressions.js';
export { ADMISSIONREGISTRATION_GROUP } from './types.js';
export { mutatingWebhook, mutatingWebhookConfiguration, validatingWebhook, validatingWebhookConfiguration } from './webhooks.js';
export {
  validateMutatingWebhookConfiguration,
  validateMutatingWebhookConfigurationUpdate,
  validateValidatingWebhookConfiguration,
  validateValidatingWebhookConfigurationUpdate,
} from './webhook-validation.js';

/** Every kind of the group version, in upstream's discovery order, for the catalogue. */
export const admissionregistrationV1Kinds: readonly KindDefinition[] = [
  mutatingWebhookConfiguration,
  validatingAdmissionPolicy,
  validatingAdmissionPolicyBinding,
  validatingWebhookConfiguration,
];
