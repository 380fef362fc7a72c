/**
 * The scheme of `orch-apiserver convert` (upstream kubectl-convert's scheme): every built-in kind
 * of the versions this server serves, and the conversions between served versions of one stored
 * kind (lib/apis/version-conversion.ts: autoscaling/v1 ⇄ v2 HorizontalPodAutoscaler,
 * `events.<vendor>/v1` ⇄ core/v1 Event). Built here, where every group may be imported; the
 * conversion itself is lib/apis/migration/convert.ts.
 */
import { admissionregistrationV1Kinds } from '../apis/admissionregistration/v1/index.js';
import {
  admissionregistrationV1alpha1Kinds,
  validatingAdmissionPolicyBindingV1alpha1Conversion,
  validatingAdmissionPolicyV1alpha1Conversion,
} from '../apis/admissionregistration/v1alpha1/index.js';
import {
  admissionregistrationV1beta1Kinds,
  validatingAdmissionPolicyBindingV1beta1Conversion,
  validatingAdmissionPolicyV1beta1Conversion,
} from '../apis/admissionregistration/v1beta1/index.js';
import { customResourceDefinition } from '../apis/apiextensions/v1/index.js';
import { apiregistrationV1Kinds } from '../apis/apiregistration/v1/index.js';
import { apiserverinternalV1alpha1Kinds } from '../apis/apiserverinternal/v1alpha1/index.js';
import { resourceV1alpha2Kinds } from '../apis/resource/v1alpha2/index.js';
import { storagemigrationV1alpha1Kinds } from '../apis/storagemigration/v1alpha1/index.js';
import { appsV1Kinds } from '../apis/apps/v1/index.js';
import { authenticationV1Kinds } from '../apis/authentication/v1/index.js';
import { authenticationV1alpha1Kinds } from '../apis/authentication/v1alpha1/index.js';
import { authenticationV1beta1Kinds } from '../apis/authentication/v1beta1/index.js';
import { authorizationV1Kinds } from '../apis/authorization/v1/index.js';
import { autoscalingV1Kinds, horizontalPodAutoscalerV1Conversion } from '../apis/autoscaling/v1/index.js';
import { autoscalingV2Kinds } from '../apis/autoscaling/v2/index.js';
import { cronJob, job } from '../apis/batch/v1/index.js';
import { certificatesV1Kinds } from '../apis/certificates/v1/index.js';
import { certificatesV1alpha1Kinds } from '../apis/certificates/v1alpha1/index.js';
import { coordinationV1Kinds } from '../apis/coordination/v1/index.js';
import { coreV1ClusterKinds } from '../apis/core/v1/cluster-kinds.js';
import { componentStatus } from '../apis/core/v1/component-status.js';
import { configMap } from '../apis/core/v1/config-map.js';
import { limitRange } from '../apis/core/v1/limit-range.js';
import { persistentVolumeClaim } from '../apis/core/v1/persistent-volume-claim.js';
import { persistentVolume } from '../apis/core/v1/persistent-volume.js';
import { podTemplate } from '../apis/core/v1/pod-template-kind.js';
import { pod } from '../apis/core/v1/pod.js';
import { replicationController } from '../apis/core/v1/replication-controller.js';
import { resourceQuota } from '../apis/core/v1/resource-quota.js';
import type { KindDefinition } from '../apis/define.js';
import { discoveryV1Kinds } from '../apis/discovery/v1/index.js';
import { eventV1Conversion, eventsV1Kinds } from '../apis/events/v1/index.js';
import { flowcontrolV1beta3Kinds, flowSchemaV1beta3Conversion, priorityLevelConfigurationV1beta3Conversion } from '../apis/flowcontrol/v1beta3/index.js';
import { flowcontrolV1Kinds } from '../apis/flowcontrol/v1/index.js';
import { networkingV1Kinds } from '../apis/networking/v1/index.js';
import { networkingV1alpha1Kinds } from '../apis/networking/v1alpha1/index.js';
import { nodeV1Kinds } from '../apis/node/v1/index.js';
import { policyV1Kinds } from '../apis/policy/v1/index.js';
import { rbacV1Kinds } from '../apis/rbac/v1/index.js';
import { schedulingV1Kinds } from '../apis/scheduling/v1/index.js';
import { storageV1Kinds } from '../apis/storage/v1/index.js';
import { storageV1alpha1Kinds } from '../apis/storage/v1alpha1/index.js';
import type { ConvertScheme } from '../apis/migration/convert.js';
import { gvkKey } from '../apis/migration/types.js';

/** Every served built-in kind by gvkKey. */
const SERVED_KINDS: ReadonlyMap<string, KindDefinition> = new Map(
  [
    ...coreV1ClusterKinds,
    configMap,
    pod,
    podTemplate,
    resourceQuota,
    limitRange,
    persistentVolumeClaim,
    persistentVolume,
    replicationController,
    componentStatus,
    ...admissionregistrationV1Kinds,
    ...admissionregistrationV1beta1Kinds,
    ...admissionregistrationV1alpha1Kinds,
    customResourceDefinition,
    ...apiregistrationV1Kinds,
    ...appsV1Kinds,
    ...authenticationV1Kinds,
    ...authenticationV1beta1Kinds,
    ...authenticationV1alpha1Kinds,
    ...authorizationV1Kinds,
    ...autoscalingV1Kinds,
    ...autoscalingV2Kinds,
    job,
    cronJob,
    ...certificatesV1Kinds,
    ...certificatesV1alpha1Kinds,
    ...coordinationV1Kinds,
    ...discoveryV1Kinds,
    ...eventsV1Kinds,
    ...flowcontrolV1Kinds,
    ...flowcontrolV1beta3Kinds,
    ...networkingV1Kinds,
    ...networkingV1alpha1Kinds,
    ...nodeV1Kinds,
    ...policyV1Kinds,
    ...rbacV1Kinds,
    ...schedulingV1Kinds,
    ...storageV1Kinds,
    ...storageV1alpha1Kinds,
    ...apiserverinternalV1alpha1Kinds,
    ...resourceV1alpha2Kinds,
    ...storagemigrationV1alpha1Kinds,
  ].map((k) => [gvkKey(k.group, k.version, k.kind), k]),
);

/** The scheme of the built-in kinds, named after this file as upstream names a scheme after its call site. */
export const BUILTIN_SCHEME: ConvertScheme = {
  name: 'lib/cmd/convert-scheme.ts',
  kinds: SERVED_KINDS,
  conversions: [
    horizontalPodAutoscalerV1Conversion,
    eventV1Conversion,
    flowSchemaV1beta3Conversion,
    priorityLevelConfigurationV1beta3Conversion,
    validatingAdmissionPolicyV1beta1Conversion,
    validatingAdmissionPolicyBindingV1beta1Conversion,
    validatingAdmissionPolicyV1alpha1Conversion,
    validatingAdmissionPolicyBindingV1alpha1Conversion,
  ],
};
