/**
 * Create, update and delete rules of the `admissionregistration.<vendor>/v1` kinds (upstream
 * v1.30 `pkg/registry/admissionregistration/*`): cluster-scoped; generation starts at 1 and
 * grows when the webhooks or the spec change; no create on update and no unconditional update;
 * ValidatingAdmissionPolicy's status is cleared on create, kept on main writes and written only
 * through `/status`. CEL expressions compile with the given compiler. Upstream's authorization
 * of a policy's paramKind and a binding's paramRef (the writer must be able to read the
 * parameters) is not done here (issue #12, enforcement).
 */
import {
  type AdmissionExpressionCompiler,
  mutatingWebhookConfiguration,
  validateMutatingWebhookConfiguration,
  validateMutatingWebhookConfigurationUpdate,
  validateValidatingAdmissionPolicy,
  validateValidatingAdmissionPolicyBinding,
  validateValidatingAdmissionPolicyStatus,
  validateValidatingAdmissionPolicyUpdate,
  validateValidatingWebhookConfiguration,
  validateValidatingWebhookConfigurationUpdate,
  validatingAdmissionPolicy,
  validatingAdmissionPolicyBinding,
  validatingWebhookConfiguration,
} from '../../apis/admissionregistration/v1/index.js';
import type { Obj } from '../../apis/define.js';
import type { KindStrategyOptions } from '../generic/kind-strategy.js';
import type { Strategy } from '../rest/strategy.js';
import { newUpstreamRulesStrategies } from './upstream-rules.js';

const options: KindStrategyOptions = { tracksGeneration: true, allowCreateOnUpdate: false, allowUnconditionalUpdate: false };

/** The main (and, for the policy, status) strategies of one kind. */
export interface KindStrategies {
  main: Strategy;
  status?: Strategy;
}

/** The strategies of the four kinds, in discovery order, compiling CEL with `compiler`. */
export function admissionregistrationStrategies(compiler: AdmissionExpressionCompiler): KindStrategies[] {
  return [
    newUpstreamRulesStrategies(
      mutatingWebhookConfiguration,
      { create: (o: Obj) => validateMutatingWebhookConfiguration(o, compiler), update: (o: Obj, old: Obj) => validateMutatingWebhookConfigurationUpdate(o, old, compiler) },
      options,
    ),
    newUpstreamRulesStrategies(
      validatingAdmissionPolicy,
      {
        create: (o: Obj) => validateValidatingAdmissionPolicy(o, compiler),
        update: (o: Obj, old: Obj) => validateValidatingAdmissionPolicyUpdate(o, old, compiler),
        status: validateValidatingAdmissionPolicyStatus,
      },
      options,
    ),
    newUpstreamRulesStrategies(validatingAdmissionPolicyBinding, { create: validateValidatingAdmissionPolicyBinding, update: validateValidatingAdmissionPolicyBinding }, options),
    newUpstreamRulesStrategies(
      validatingWebhookConfiguration,
      { create: (o: Obj) => validateValidatingWebhookConfiguration(o, compiler), update: (o: Obj, old: Obj) => validateValidatingWebhookConfigurationUpdate(o, old, compiler) },
      options,
    ),
  ];
}
