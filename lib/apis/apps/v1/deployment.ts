/**
 * apps/v1 Deployment: declarative rollouts of a pod template through ReplicaSets. Declared once
 * here with the upstream v1.30 field structure and protobuf numbers. Defaults as
 * `SetDefaults_Deployment` and spec 001 § Limits: 1 replica, RollingUpdate with 25% surge and
 * 25% unavailable, history limit 10, progress deadline 600 s. Short name `deploy`, category `all`.
 */
import { boolean, field, int32, int64, intOrString, listOf, string, struct, time } from '../../../apimachinery/schema/builder.js';
import { podTemplateSpec } from '../../core/v1/workloads.js';
import { defineKind, type Obj } from '../../define.js';
import { labelSelector, objectMeta } from '../../meta/v1/types.js';
import { validateDeployment, validateDeploymentStatusUpdate, validateDeploymentUpdate } from './deployment-validation.js';
import { deploymentPrinter } from '../../printers/workloads.js';

const APPS = 'api.apps.v1';

/** How far a rolling update may go below and above the desired replicas. */
export const rollingUpdateDeployment = struct(`${APPS}.RollingUpdateDeployment`, {
  maxUnavailable: field(1, intOrString, { description: 'Pods that may be unavailable during the update (number or percentage).' }),
  maxSurge: field(2, intOrString, { description: 'Pods that may be created above the desired count (number or percentage).' }),
});

/** `SetDefaults_Deployment`: a rolling update gets 25% surge and 25% unavailable. */
function defaultStrategy(s: Obj): void {
  if (s.type !== 'RollingUpdate') return;
  const ru = (s.rollingUpdate ??= {}) as Obj;
  ru.maxUnavailable ??= '25%';
  ru.maxSurge ??= '25%';
}

/** How existing pods are replaced: `Recreate` or `RollingUpdate`. */
export const deploymentStrategy = struct(
  `${APPS}.DeploymentStrategy`,
  {
    type: field(1, string, { default: 'RollingUpdate', description: 'Recreate or RollingUpdate.' }),
    rollingUpdate: field(2, rollingUpdateDeployment),
  },
  { defaulter: defaultStrategy },
);

/** The desired state of a Deployment. */
export const deploymentSpec = struct(
  `${APPS}.DeploymentSpec`,
  {
    replicas: field(1, int32, { default: 1, description: 'Desired number of pods.' }),
    selector: field(2, labelSelector, { required: true, omitEmpty: false, pointer: true, description: 'Selects the pods of the deployment; must match the template labels.' }),
    template: field(3, podTemplateSpec, { required: true, omitEmpty: false, description: 'The pods to create.' }),
    strategy: field(4, deploymentStrategy, { default: {}, omitEmpty: false, patchStrategy: 'retainKeys' }),
    minReadySeconds: field(5, int32),
    revisionHistoryLimit: field(6, int32, { default: 10 }),
    paused: field(7, boolean),
    progressDeadlineSeconds: field(9, int32, { default: 600 }),
  },
  { description: 'The desired behaviour of a Deployment.' },
);

/** A condition of a Deployment (Available, Progressing, ReplicaFailure). */
export const deploymentCondition = struct(`${APPS}.DeploymentCondition`, {
  type: field(1, string, { required: true, omitEmpty: false }),
  status: field(2, string, { required: true, omitEmpty: false }),
  lastUpdateTime: field(6, time, { omitEmpty: false }),
  lastTransitionTime: field(7, time, { omitEmpty: false }),
  reason: field(4, string),
  message: field(5, string),
});

/** The observed state of a Deployment. */
export const deploymentStatus = struct(
  `${APPS}.DeploymentStatus`,
  {
    observedGeneration: field(1, int64),
    replicas: field(2, int32),
    updatedReplicas: field(3, int32),
    readyReplicas: field(7, int32),
    availableReplicas: field(4, int32),
    unavailableReplicas: field(5, int32),
    conditions: field(6, listOf(deploymentCondition, { patchStrategy: 'merge', patchMergeKey: 'type' })),
    collisionCount: field(8, int32),
  },
  { description: 'The most recently observed status of a Deployment.' },
);

/** The apps/v1 Deployment kind (`deploy`, category `all`, with a status subresource). */
export const deployment = defineKind({
  group: 'apps',
  version: 'v1',
  kind: 'Deployment',
  resource: 'deployments',
  singular: 'deployment',
  namespaced: true,
  shortNames: ['deploy'],
  categories: ['all'],
  statusSubresource: true,
  nameRule: 'dns1123Subdomain',
  description: 'Declarative updates of a set of identical pods, rolled out through ReplicaSets.',
  printerColumns: deploymentPrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, deploymentSpec, { omitEmpty: false }),
    status: field(3, deploymentStatus, { omitEmpty: false }),
  },
  validate: validateDeployment,
  validateUpdate: validateDeploymentUpdate,
  validateStatusUpdate: validateDeploymentStatusUpdate,
});
