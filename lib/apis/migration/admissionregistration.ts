/**
 * MutatingWebhookConfiguration and ValidatingWebhookConfiguration
 * `admissionregistration.<vendor>/v1beta1` → `v1` (spec 001 § Removed API versions, 1.22 row;
 * upstream `pkg/apis/admissionregistration/v1beta1/defaults.go`). The fields keep their names;
 * what changed are the defaults (v1: `failurePolicy` Fail, `matchPolicy` Equivalent,
 * `timeoutSeconds` 10, `sideEffects` and `admissionReviewVersions` required). As upstream's
 * convert decodes the old version with its own defaults, each webhook gets v1beta1's values for
 * the fields it leaves unset, so it behaves as it did: `failurePolicy: Ignore`,
 * `matchPolicy: Exact`, `timeoutSeconds: 30`, `sideEffects: Unknown` (which v1 rejects: set it),
 * `admissionReviewVersions: [v1beta1]`.
 */
import { ADMISSIONREGISTRATION_GROUP } from '../admissionregistration/v1/types.js';
import type { Obj } from '../define.js';
import { type MigrationRow, objects, setDefault } from './types.js';

/** Writes v1beta1's defaults into every webhook of a configuration. */
export function webhookConfigurationToV1(obj: Obj): Obj {
  for (const w of objects(obj.webhooks)) {
    setDefault(w, 'failurePolicy', 'Ignore');
    setDefault(w, 'matchPolicy', 'Exact');
    setDefault(w, 'sideEffects', 'Unknown');
    setDefault(w, 'timeoutSeconds', 30);
    if (!Array.isArray(w.admissionReviewVersions) || w.admissionReviewVersions.length === 0) w.admissionReviewVersions = ['v1beta1'];
  }
  return obj;
}

/** The two webhook-configuration rows. */
export const admissionregistrationRows: readonly MigrationRow[] = ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'].map((kind) => ({
  from: { group: ADMISSIONREGISTRATION_GROUP, version: 'v1beta1', kind },
  to: { group: ADMISSIONREGISTRATION_GROUP, version: 'v1', kind },
  removedIn: '1.22',
  convert: webhookConfigurationToV1,
}));
