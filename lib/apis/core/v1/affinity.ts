/**
 * core/v1 scheduling constraints of a pod: node affinity (NodeSelector and its terms), inter-pod
 * affinity and anti-affinity, tolerations and topology spread constraints. As upstream v1.30.
 */
import { enumOf, field, int32, int64, listOf, string, struct } from '../../../apimachinery/schema/builder.js';
import { labelSelector } from '../../meta/v1/types.js';
import { CORE } from './references.js';

/** A requirement on a node label or field: key, operator (In, NotIn, Exists, DoesNotExist, Gt, Lt), values. */
export const nodeSelectorRequirement = struct(`${CORE}.NodeSelectorRequirement`, {
  key: field(1, string, { required: true, omitEmpty: false }),
  operator: field(2, string, { required: true, omitEmpty: false }),
  values: field(3, listOf(string, { listType: 'atomic' })),
});

/** A conjunction of node label (matchExpressions) and field (matchFields) requirements. */
export const nodeSelectorTerm = struct(
  `${CORE}.NodeSelectorTerm`,
  {
    matchExpressions: field(1, listOf(nodeSelectorRequirement, { listType: 'atomic' })),
    matchFields: field(2, listOf(nodeSelectorRequirement, { listType: 'atomic' })),
  },
  { mapType: 'atomic' },
);

/** A disjunction of node selector terms. */
export const nodeSelector = struct(
  `${CORE}.NodeSelector`,
  { nodeSelectorTerms: field(1, listOf(nodeSelectorTerm, { listType: 'atomic' }), { omitEmpty: false }) },
  { mapType: 'atomic' },
);

/** A weighted node preference. */
export const preferredSchedulingTerm = struct(`${CORE}.PreferredSchedulingTerm`, {
  weight: field(1, int32, { required: true, omitEmpty: false }),
  preference: field(2, nodeSelectorTerm, { required: true, omitEmpty: false }),
});

/** Node affinity: hard (required) and soft (preferred) rules. */
export const nodeAffinity = struct(`${CORE}.NodeAffinity`, {
  requiredDuringSchedulingIgnoredDuringExecution: field(1, nodeSelector),
  preferredDuringSchedulingIgnoredDuringExecution: field(2, listOf(preferredSchedulingTerm, { listType: 'atomic' })),
});

/** A set of pods (label and namespace selection) to be co-located with, or kept away from, per topology domain. */
export const podAffinityTerm = struct(`${CORE}.PodAffinityTerm`, {
  labelSelector: field(1, labelSelector),
  namespaces: field(2, listOf(string, { listType: 'atomic' })),
  topologyKey: field(3, string, { omitEmpty: false }),
  namespaceSelector: field(4, labelSelector),
  matchLabelKeys: field(5, listOf(string, { listType: 'atomic' })),
  mismatchLabelKeys: field(6, listOf(string, { listType: 'atomic' })),
});

/** A weighted pod affinity term. */
export const weightedPodAffinityTerm = struct(`${CORE}.WeightedPodAffinityTerm`, {
  weight: field(1, int32, { required: true, omitEmpty: false }),
  podAffinityTerm: field(2, podAffinityTerm, { required: true, omitEmpty: false }),
});

/** The fields PodAffinity and PodAntiAffinity share: hard (required) and soft (preferred) terms. */
const podAffinityFields = {
  requiredDuringSchedulingIgnoredDuringExecution: field(1, listOf(podAffinityTerm, { listType: 'atomic' })),
  preferredDuringSchedulingIgnoredDuringExecution: field(2, listOf(weightedPodAffinityTerm, { listType: 'atomic' })),
};

/** Pods to be co-located with. */
export const podAffinity = struct(`${CORE}.PodAffinity`, podAffinityFields);

/** Pods to be kept away from. */
export const podAntiAffinity = struct(`${CORE}.PodAntiAffinity`, podAffinityFields);

/** The scheduling affinity rules of a pod. */
export const affinity = struct(
  `${CORE}.Affinity`,
  {
    nodeAffinity: field(1, nodeAffinity),
    podAffinity: field(2, podAffinity),
    podAntiAffinity: field(3, podAntiAffinity),
  },
  { description: 'Node, pod affinity and pod anti-affinity scheduling rules.' },
);

/** Taint effects, in upstream order. */
export const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** Tolerates node taints matching key, operator, value and effect. */
export const toleration = struct(`${CORE}.Toleration`, {
  key: field(1, string),
  operator: field(2, enumOf('Equal', 'Exists')),
  value: field(3, string),
  effect: field(4, enumOf(...TAINT_EFFECTS)),
  tolerationSeconds: field(5, int64),
});

/** How pods matching a selector spread across the domains of a topology key. */
export const topologySpreadConstraint = struct(`${CORE}.TopologySpreadConstraint`, {
  maxSkew: field(1, int32, { required: true, omitEmpty: false }),
  topologyKey: field(2, string, { omitEmpty: false }),
  whenUnsatisfiable: field(3, enumOf('DoNotSchedule', 'ScheduleAnyway'), { required: true, omitEmpty: false }),
  labelSelector: field(4, labelSelector),
  minDomains: field(5, int32),
  nodeAffinityPolicy: field(6, enumOf('Honor', 'Ignore')),
  nodeTaintsPolicy: field(7, enumOf('Honor', 'Ignore')),
  matchLabelKeys: field(8, listOf(string, { listType: 'atomic' })),
});
