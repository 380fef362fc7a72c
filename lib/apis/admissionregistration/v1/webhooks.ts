/**
 * admissionregistration/v1 ValidatingWebhookConfiguration and MutatingWebhookConfiguration
 * (upstream v1.30 field structure and protobuf numbers): cluster-scoped lists of admission
 * webhooks, merged by name. Defaults as upstream `SetDefaults_ValidatingWebhook` /
 * `SetDefaults_MutatingWebhook`: failurePolicy Fail, matchPolicy Equivalent, empty selectors,
 * timeoutSeconds 10, reinvocationPolicy Never (mutating); sideEffects and
 * admissionReviewVersions have no default in v1. Category `api-extensions`. Stored and
 * validated here (webhook-validation.ts, which compiles match conditions with an injected CEL
 * compiler, so the registry strategy runs it rather than the kind's `validate`); calling the
 * webhooks is a later issue.
 */
import { enumOf, field, int32, listOf, string, struct } from '../../../apimachinery/schema/builder.js';
import type { Field, StructSchema } from '../../../apimachinery/schema/types.js';
import { defineKind } from '../../define.js';
import { labelSelector, objectMeta } from '../../meta/v1/types.js';
import { webhookConfigurationPrinter } from '../../printers/admission.js';
import {
  ADMISSIONREGISTRATION_GROUP,
  FAILURE_POLICIES,
  MATCH_POLICIES,
  matchConditionsField,
  REINVOCATION_POLICIES,
  ruleWithOperations,
  SIDE_EFFECT_CLASSES,
  webhookClientConfig,
} from './types.js';

const AR = 'api.admissionregistration.v1';

/** The fields of a webhook up to the namespace selector (both kinds). */
const head = (): Record<string, Field> => ({
  name: field(1, string, { required: true, omitEmpty: false, description: 'Fully qualified name of the webhook (at least three segments).' }),
  clientConfig: field(2, webhookClientConfig, { required: true, omitEmpty: false, description: 'How to reach the webhook.' }),
  rules: field(3, listOf(ruleWithOperations, { listType: 'atomic' }), { description: 'Operations and resources the webhook is called for.' }),
  failurePolicy: field(4, enumOf(...FAILURE_POLICIES), { default: 'Fail', description: 'Ignore or Fail when the call fails.' }),
  matchPolicy: field(9, enumOf(...MATCH_POLICIES), { default: 'Equivalent', description: 'Exact or Equivalent.' }),
  namespaceSelector: field(5, labelSelector, { default: {}, description: "Selects the object's namespace by its labels." }),
});

const sideEffects = (): Field =>
  field(6, enumOf(...SIDE_EFFECT_CLASSES), { required: true, omitEmpty: false, pointer: true, description: 'None or NoneOnDryRun.' });
const timeoutSeconds = (): Field => field(7, int32, { default: 10, description: 'Timeout of a call, 1-30 seconds.' });
const admissionReviewVersions = (): Field =>
  field(8, listOf(string, { listType: 'atomic' }), { required: true, omitEmpty: false, description: 'AdmissionReview versions the webhook accepts, preferred first.' });
const objectSelector = (proto: number): Field => field(proto, labelSelector, { default: {}, description: 'Selects the object by its labels.' });
const webhooks = (item: StructSchema): Field =>
  field(2, listOf(item, { patchStrategy: 'merge', patchMergeKey: 'name', listType: 'map', listMapKeys: ['name'] }), { description: 'The webhooks, by name.' });

/** A validating admission webhook. */
export const validatingWebhook = struct(`${AR}.ValidatingWebhook`, {
  ...head(),
  objectSelector: objectSelector(10),
  sideEffects: sideEffects(),
  timeoutSeconds: timeoutSeconds(),
  admissionReviewVersions: admissionReviewVersions(),
  matchConditions: matchConditionsField(11),
});

/** A mutating admission webhook. */
export const mutatingWebhook = struct(`${AR}.MutatingWebhook`, {
  ...head(),
  objectSelector: objectSelector(11),
  sideEffects: sideEffects(),
  timeoutSeconds: timeoutSeconds(),
  admissionReviewVersions: admissionReviewVersions(),
  reinvocationPolicy: field(10, enumOf(...REINVOCATION_POLICIES), { default: 'Never', description: 'Never or IfNeeded.' }),
  matchConditions: matchConditionsField(12),
});

/** The ValidatingWebhookConfiguration kind. */
export const validatingWebhookConfiguration = defineKind({
  group: ADMISSIONREGISTRATION_GROUP,
  version: 'v1',
  kind: 'ValidatingWebhookConfiguration',
  resource: 'validatingwebhookconfigurations',
  singular: 'validatingwebhookconfiguration',
  namespaced: false,
  categories: ['api-extensions'],
  description: 'Admission webhooks that accept or reject objects without changing them.',
  printerColumns: webhookConfigurationPrinter,
  fields: { metadata: field(1, objectMeta, { omitEmpty: false }), webhooks: webhooks(validatingWebhook) },
});

/** The MutatingWebhookConfiguration kind. */
export const mutatingWebhookConfiguration = defineKind({
  group: ADMISSIONREGISTRATION_GROUP,
  version: 'v1',
  kind: 'MutatingWebhookConfiguration',
  resource: 'mutatingwebhookconfigurations',
  singular: 'mutatingwebhookconfiguration',
  namespaced: false,
  categories: ['api-extensions'],
  description: 'Admission webhooks that accept or reject objects and may change them.',
  printerColumns: webhookConfigurationPrinter,
  fields: { metadata: field(1, objectMeta, { omitEmpty: false }), webhooks: webhooks(mutatingWebhook) },
});
