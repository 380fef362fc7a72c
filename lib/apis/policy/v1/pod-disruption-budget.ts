/**
 * policy/v1 PodDisruptionBudget: how many of the pods a selector picks may be down at once by
 * voluntary disruption (eviction), and the counts the disruption controller keeps in its status.
 * Upstream v1.30 field structure, JSON names and protobuf numbers; no defaults in v1. Short name
 * `pdb`; status subresource. A v1 selector `{}` selects every pod of the namespace, a missing one
 * none; the requirements on the v1beta1 migration label are stripped on write (upstream's v1
 * conversion) unless the selector is exactly the match-none form.
 */
import { field, int32, int64, intOrString, listOf, mapOf, string, struct, time } from '../../../apimachinery/schema/builder.js';
import { defineKind, type Obj } from '../../define.js';
import { condition, labelSelector, objectMeta } from '../../meta/v1/types.js';
import { podDisruptionBudgetPrinter } from '../../printers/policy.js';
import { PDB_V1BETA1_SELECTOR_LABEL } from '../../vendor.js';
import { validatePodDisruptionBudget, validatePodDisruptionBudgetStatusUpdate } from './pod-disruption-budget-validation.js';

/** The API group of PodDisruptionBudget and Eviction (upstream's, without a vendor suffix). */
export const POLICY_GROUP = 'policy';

/** True for the v1 spelling of a v1beta1 match-none selector: one `Exists` requirement on the migration label. */
function isMatchNone(sel: Obj): boolean {
  const exprs = sel.matchExpressions as Obj[] | undefined;
  const labels = sel.matchLabels as Obj | undefined;
  if (labels && Object.keys(labels).length > 0) return false;
  if (!Array.isArray(exprs) || exprs.length !== 1) return false;
  const e = exprs[0]!;
  return e.key === PDB_V1BETA1_SELECTOR_LABEL && e.operator === 'Exists' && (!Array.isArray(e.values) || e.values.length === 0);
}

/** Upstream Convert_v1_PodDisruptionBudget: strips requirements on the migration label unless the selector is the match-none form. */
function stripMigrationLabel(spec: Obj): void {
  const sel = spec.selector as Obj | null | undefined;
  if (!sel || isMatchNone(sel) || !Array.isArray(sel.matchExpressions)) return;
  const kept = (sel.matchExpressions as Obj[]).filter((e) => e.key !== PDB_V1BETA1_SELECTOR_LABEL);
  if (kept.length > 0) sel.matchExpressions = kept;
  else delete sel.matchExpressions;
}

/** The desired budget. */
export const podDisruptionBudgetSpec = struct(
  'api.policy.v1.PodDisruptionBudgetSpec',
  {
    minAvailable: field(1, intOrString, { description: 'Pods that must stay available after an eviction (number or percentage); exclusive with maxUnavailable.' }),
    selector: field(2, labelSelector, { patchStrategy: 'replace', description: 'The pods of the budget: `{}` selects every pod of the namespace, none when absent.' }),
    maxUnavailable: field(3, intOrString, { description: 'Pods that may be unavailable after an eviction (number or percentage); exclusive with minAvailable.' }),
    unhealthyPodEvictionPolicy: field(4, string, { description: 'When running but not ready pods may be evicted: IfHealthyBudget or AlwaysAllow.' }),
  },
  { defaulter: stripMigrationLabel, description: 'The desired disruption budget.' },
);

/** The observed budget, kept by the disruption controller and the eviction subresource. */
export const podDisruptionBudgetStatus = struct(
  'api.policy.v1.PodDisruptionBudgetStatus',
  {
    observedGeneration: field(1, int64, { description: 'The generation the status was computed from.' }),
    disruptedPods: field(2, mapOf(time), { description: 'Pods whose eviction was admitted but not yet observed, with the admission time.' }),
    disruptionsAllowed: field(3, int32, { required: true, omitEmpty: false, description: 'Pod disruptions allowed now.' }),
    currentHealthy: field(4, int32, { required: true, omitEmpty: false, description: 'Healthy pods now.' }),
    desiredHealthy: field(5, int32, { required: true, omitEmpty: false, description: 'Healthy pods wanted at least.' }),
    expectedPods: field(6, int32, { required: true, omitEmpty: false, description: 'Pods the budget counts.' }),
    conditions: field(7, listOf(condition, { listType: 'map', listMapKeys: ['type'], patchStrategy: 'merge', patchMergeKey: 'type' }), {
      description: 'The DisruptionAllowed condition.',
    }),
  },
  { description: 'The observed state of a disruption budget.' },
);

/** The PodDisruptionBudget kind: namespaced, short name `pdb`, status subresource. */
export const podDisruptionBudget = defineKind({
  group: POLICY_GROUP,
  version: 'v1',
  kind: 'PodDisruptionBudget',
  resource: 'poddisruptionbudgets',
  singular: 'poddisruptionbudget',
  namespaced: true,
  shortNames: ['pdb'],
  statusSubresource: true,
  description: 'A bound on the voluntary disruption of a set of pods.',
  printerColumns: podDisruptionBudgetPrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, podDisruptionBudgetSpec, { omitEmpty: false, description: 'The desired budget.' }),
    status: field(3, podDisruptionBudgetStatus, { omitEmpty: false, description: 'The observed budget.' }),
  },
  validate: validatePodDisruptionBudget,
  validateStatusUpdate: validatePodDisruptionBudgetStatusUpdate,
});
