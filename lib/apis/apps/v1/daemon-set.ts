/**
 * apps/v1 DaemonSet: one pod from a template on every eligible node. Declared once here with the
 * upstream v1.30 field structure and protobuf numbers. Defaults as `SetDefaults_DaemonSet`: a
 * RollingUpdate strategy with maxUnavailable 1 and maxSurge 0, history limit 10; the template
 * generation annotation reads `0` until the server sets it. Short name `ds`, category `all`,
 * status subresource.
 */
import { field, int32, int64, intOrString, string, struct } from '../../../apimachinery/schema/builder.js';
import { podTemplateSpec } from '../../core/v1/workloads.js';
import { defineKind, type Obj } from '../../define.js';
import { labelSelector, objectMeta } from '../../meta/v1/types.js';
import { daemonSetPrinter } from '../../printers/workloads.js';
import { validateDaemonSet, validateDaemonSetStatusUpdate, validateDaemonSetUpdate } from './daemon-set-validation.js';
import { APPS, conditionList, workloadCondition } from './workload-types.js';

/**
 * The annotation carrying a DaemonSet's template generation (upstream
 * `DeprecatedTemplateGeneration`): set by the server, incremented when the pod template changes.
 */
export const DEPRECATED_TEMPLATE_GENERATION = 'deprecated.daemonset.template.generation';

/** How many daemon pods may be unavailable, or surged, while a rolling update replaces them. */
export const rollingUpdateDaemonSet = struct(`${APPS}.RollingUpdateDaemonSet`, {
  maxUnavailable: field(1, intOrString, { description: 'Daemon pods that may be unavailable during the update (number or percentage).' }),
  maxSurge: field(2, intOrString, { description: 'Nodes that may run an updated pod beside the old one (number or percentage).' }),
});

/** `SetDefaults_DaemonSet`: no type means RollingUpdate, which gets maxUnavailable 1 and maxSurge 0. */
function defaultUpdateStrategy(s: Obj): void {
  if (!s.type) s.type = 'RollingUpdate';
  if (s.type !== 'RollingUpdate') return;
  const ru = (s.rollingUpdate ??= {}) as Obj;
  ru.maxUnavailable ??= 1;
  ru.maxSurge ??= 0;
}

/** How existing daemon pods are replaced: `RollingUpdate` or `OnDelete`. */
export const daemonSetUpdateStrategy = struct(
  `${APPS}.DaemonSetUpdateStrategy`,
  {
    type: field(1, string, { description: 'RollingUpdate or OnDelete.' }),
    rollingUpdate: field(2, rollingUpdateDaemonSet),
  },
  { defaulter: defaultUpdateStrategy },
);

/**
 * The template generation a DaemonSet object reads with before the server sets it: its annotation
 * as given, `0` when absent — what upstream's apps/v1 conversion writes back from the internal
 * `templateGeneration`, so the writer's managed fields own the annotation, as upstream's do.
 */
function defaultTemplateGeneration(spec: Obj, root: Obj): void {
  if (root.spec !== spec) return;
  const meta = (root.metadata ??= {}) as Obj;
  const annotations = (meta.annotations ??= {}) as Obj;
  annotations[DEPRECATED_TEMPLATE_GENERATION] ??= '0';
}

/** The desired state of a DaemonSet. */
export const daemonSetSpec = struct(
  `${APPS}.DaemonSetSpec`,
  {
    selector: field(1, labelSelector, { required: true, omitEmpty: false, pointer: true, description: 'Selects the daemon pods; must match the template labels.' }),
    template: field(2, podTemplateSpec, { required: true, omitEmpty: false, description: 'The pod run on each node.' }),
    updateStrategy: field(3, daemonSetUpdateStrategy, { default: {}, omitEmpty: false }),
    minReadySeconds: field(4, int32),
    revisionHistoryLimit: field(6, int32, { default: 10 }),
  },
  { description: 'The desired behaviour of a DaemonSet.', defaulter: defaultTemplateGeneration },
);

/** A condition of a DaemonSet. */
export const daemonSetCondition = workloadCondition(`${APPS}.DaemonSetCondition`, 'The state of a DaemonSet at a certain point.');

/** The observed state of a DaemonSet. */
export const daemonSetStatus = struct(
  `${APPS}.DaemonSetStatus`,
  {
    currentNumberScheduled: field(1, int32, { omitEmpty: false }),
    numberMisscheduled: field(2, int32, { omitEmpty: false }),
    desiredNumberScheduled: field(3, int32, { omitEmpty: false }),
    numberReady: field(4, int32, { omitEmpty: false }),
    observedGeneration: field(5, int64),
    updatedNumberScheduled: field(6, int32),
    numberAvailable: field(7, int32),
    numberUnavailable: field(8, int32),
    collisionCount: field(9, int32),
    conditions: field(10, conditionList(daemonSetCondition)),
  },
  { description: 'The most recently observed status of a DaemonSet.' },
);

/** The apps/v1 DaemonSet kind (`ds`, category `all`, with a status subresource). */
export const daemonSet = defineKind({
  group: 'apps',
  version: 'v1',
  kind: 'DaemonSet',
  resource: 'daemonsets',
  singular: 'daemonset',
  namespaced: true,
  shortNames: ['ds'],
  categories: ['all'],
  statusSubresource: true,
  nameRule: 'dns1123Subdomain',
  description: 'Runs a copy of a pod on every node its template selects.',
  printerColumns: daemonSetPrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, daemonSetSpec, { omitEmpty: false }),
    status: field(3, daemonSetStatus, { omitEmpty: false }),
  },
  validate: validateDaemonSet,
  validateUpdate: validateDaemonSetUpdate,
  validateStatusUpdate: validateDaemonSetStatusUpdate,
});
