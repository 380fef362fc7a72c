/**
 * Every built-in kind, for the protobuf tests: the kind definitions of lib/apis with the name of
 * their fixture in test/fixtures/kinds/ (ConfigMap has none; its tests build objects by hand).
 */
import { appsV1Kinds } from '../../../../../lib/apis/apps/v1/index.js';
import { cronJob, job } from '../../../../../lib/apis/batch/v1/index.js';
import { coordinationV1Kinds } from '../../../../../lib/apis/coordination/v1/index.js';
import { coreV1ClusterKinds } from '../../../../../lib/apis/core/v1/cluster-kinds.js';
import { configMap } from '../../../../../lib/apis/core/v1/config-map.js';
import { componentStatus } from '../../../../../lib/apis/core/v1/component-status.js';
import { pod } from '../../../../../lib/apis/core/v1/pod.js';
import { limitRange } from '../../../../../lib/apis/core/v1/limit-range.js';
import { persistentVolume } from '../../../../../lib/apis/core/v1/persistent-volume.js';
import { persistentVolumeClaim } from '../../../../../lib/apis/core/v1/persistent-volume-claim.js';
import { podTemplate } from '../../../../../lib/apis/core/v1/pod-template-kind.js';
import { resourceQuota } from '../../../../../lib/apis/core/v1/resource-quota.js';
import { replicationController } from '../../../../../lib/apis/core/v1/replication-controller.js';
import { type KindDefinition, packageOf } from '../../../../../lib/apis/define.js';
import { flowcontrolV1Kinds } from '../../../../../lib/apis/flowcontrol/v1/index.js';
import { policyV1Kinds } from '../../../../../lib/apis/policy/v1/index.js';
import { rbacV1Kinds } from '../../../../../lib/apis/rbac/v1/index.js';
import { networkingV1Kinds } from '../../../../../lib/apis/networking/v1/index.js';
import { networkingV1alpha1Kinds } from '../../../../../lib/apis/networking/v1alpha1/index.js';
import { discoveryV1Kinds } from '../../../../../lib/apis/discovery/v1/index.js';
import { nodeV1Kinds } from '../../../../../lib/apis/node/v1/index.js';
import { schedulingV1Kinds } from '../../../../../lib/apis/scheduling/v1/index.js';
import { storageV1Kinds } from '../../../../../lib/apis/storage/v1/index.js';
import { storageV1alpha1Kinds } from '../../../../../lib/apis/storage/v1alpha1/index.js';
import { certificatesV1Kinds } from '../../../../../lib/apis/certificates/v1/index.js';
import { certificatesV1alpha1Kinds } from '../../../../../lib/apis/certificates/v1alpha1/index.js';
import { admissionregistrationV1Kinds } from '../../../../../lib/apis/admissionregistration/v1/index.js';
import { apiregistrationV1Kinds } from '../../../../../lib/apis/apiregistration/v1/index.js';
import { autoscalingV1Kinds } from '../../../../../lib/apis/autoscaling/v1/index.js';
import { autoscalingV2Kinds } from '../../../../../lib/apis/autoscaling/v2/index.js';
import { eventsV1Kinds } from '../../../../../lib/apis/events/v1/index.js';
import { customResourceDefinition } from '../../../../../lib/apis/apiextensions/v1/index.js';
import { resourceV1alpha2Kinds } from '../../../../../lib/apis/resource/v1alpha2/index.js';
import { apiserverinternalV1alpha1Kinds } from '../../../../../lib/apis/apiserverinternal/v1alpha1/index.js';
import { storagemigrationV1alpha1Kinds } from '../../../../../lib/apis/storagemigration/v1alpha1/index.js';

/** All built-in kinds. */
export const ALL_KINDS: readonly KindDefinition[] = [
  configMap,
  pod,
  ...coreV1ClusterKinds,
  limitRange,
  persistentVolumeClaim,
  persistentVolume,
  podTemplate,
  resourceQuota,
  replicationController,
  componentStatus,
  ...appsV1Kinds,
  job,
  cronJob,
  ...coordinationV1Kinds,
  ...rbacV1Kinds,
  ...flowcontrolV1Kinds,
  ...policyV1Kinds,
  ...networkingV1Kinds,
  ...networkingV1alpha1Kinds,
  ...discoveryV1Kinds,
  ...nodeV1Kinds,
  ...schedulingV1Kinds,
  ...storageV1Kinds,
  ...storageV1alpha1Kinds,
  ...certificatesV1Kinds,
  ...certificatesV1alpha1Kinds,
  ...admissionregistrationV1Kinds,
  ...apiregistrationV1Kinds,
  ...autoscalingV2Kinds,
  ...autoscalingV1Kinds,
  ...eventsV1Kinds,
  customResourceDefinition,
  ...resourceV1alpha2Kinds,
  ...apiserverinternalV1alpha1Kinds,
  ...storagemigrationV1alpha1Kinds,
];

/**
 * The fixture file name (without `.json`) of a kind: `ClusterRoleBinding` → `cluster-role-binding`,
 * `CSIDriver` → `csi-driver`; a kind named as an earlier kind of ALL_KINDS (another version or
 * group of it) adds its package and version: `event-events-v1`, `horizontal-pod-autoscaler-autoscaling-v1`.
 */
export function fixtureName(kind: KindDefinition): string {
  const base = kind.kind.replace(/([a-z0-9])([A-Z])|([A-Z])([A-Z][a-z])/g, '$1$3-$2$4').toLowerCase();
  const first = ALL_KINDS.find((k) => k.kind === kind.kind);
  return first === undefined || first.apiVersion === kind.apiVersion ? base : `${base}-${packageOf(kind.group)}-${kind.version}`;
}

/** Finds a kind by apiVersion and kind (or its list kind); the resolver the envelope decoder takes. */
export function resolveKind(apiVersion: string, kind: string): KindDefinition['schema'] | undefined {
  for (const k of ALL_KINDS) {
    if (k.apiVersion !== apiVersion) continue;
    if (k.kind === kind) return k.schema;
    if (k.listKind === kind) return k.listSchema;
  }
  return undefined;
}
