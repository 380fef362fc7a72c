/**
 * The MutatingAdmissionWebhook and ValidatingAdmissionWebhook plugins (spec 001 § Admission
 * control): admission by the webhooks of MutatingWebhookConfiguration and
 * ValidatingWebhookConfiguration objects, for every operation, except writes of those
 * configurations and of admission policies themselves (so a broken webhook can always be
 * removed).
 */
import type { AdmissionPluginFactory } from '../../plugin-deps.js';
import { isExemptConfigurationResource } from './matcher.js';
import { admitWithWebhooks, MUTATING_PLUGIN } from './mutating.js';
import { webhookRuntime } from './runtime.js';
import { VALIDATING_PLUGIN, validateWithWebhooks } from './validating.js';

/** MutatingAdmissionWebhook: calls the mutating webhooks in order and applies their patches. */
export const mutatingAdmissionWebhookPlugin: AdmissionPluginFactory = {
  name: MUTATING_PLUGIN,
  create(deps) {
    const rt = webhookRuntime(deps, 'mutating');
    return {
      name: MUTATING_PLUGIN,
      handles: () => true,
      async admit(ctx, attrs) {
        if (isExemptConfigurationResource(attrs)) return;
        await admitWithWebhooks(ctx, rt, attrs);
      },
    };
  },
};

/** ValidatingAdmissionWebhook: calls the validating webhooks in parallel. */
export const validatingAdmissionWebhookPlugin: AdmissionPluginFactory = {
  name: VALIDATING_PLUGIN,
  create(deps) {
    const rt = webhookRuntime(deps, 'validating');
    return {
      name: VALIDATING_PLUGIN,
      handles: () => true,
      async validate(ctx, attrs) {
        if (isExemptConfigurationResource(attrs)) return;
        await validateWithWebhooks(ctx, rt, attrs);
      },
    };
  },
};
