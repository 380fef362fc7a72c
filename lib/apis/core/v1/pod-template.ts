/**
 * core/v1 PodTemplateSpec: the pod a workload controller (Deployment, Job…) creates. Both parts
 * are always serialized, as upstream (non-pointer structs).
 */
import { field, struct } from '../../../apimachinery/schema/builder.js';
import { objectMeta } from '../../meta/v1/types.js';
import { podSpec } from './pod-spec.js';
import { CORE } from './references.js';

/** Metadata and spec of the pods created from a template. */
export const podTemplateSpec = struct(
  `${CORE}.PodTemplateSpec`,
  {
    metadata: field(1, objectMeta, { omitEmpty: false, description: 'Labels and annotations of the created pods.' }),
    spec: field(2, podSpec, { omitEmpty: false, description: 'Spec of the created pods.' }),
  },
  { description: 'The data a pod has when created from a template.' },
);
