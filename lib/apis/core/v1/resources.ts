/**
 * core/v1 compute and storage resource amounts: ResourceRequirements (containers),
 * ResourceClaim (dynamic resource allocation references) and VolumeResourceRequirements (PVC).
 * As upstream v1.30.
 */
import { field, listOf, mapOf, quantity, string, struct } from '../../../apimachinery/schema/builder.js';
import { CORE } from './references.js';

/** A container's reference to one of the pod's resource claims. */
export const resourceClaim = struct(`${CORE}.ResourceClaim`, {
  name: field(1, string, { required: true, omitEmpty: false }),
});

/** Requests and limits of compute resources (`cpu`, `memory`, extended resources…). */
export const resourceRequirements = struct(
  `${CORE}.ResourceRequirements`,
  {
    limits: field(1, mapOf(quantity), { description: 'Maximum amounts allowed.' }),
    requests: field(2, mapOf(quantity), { description: 'Minimum amounts required; default to the limits on a Pod.' }),
    claims: field(3, listOf(resourceClaim, { listType: 'map', listMapKeys: ['name'] })),
  },
  { description: 'Compute resource requests and limits.' },
);

/** Storage requests and limits of a volume claim. */
export const volumeResourceRequirements = struct(`${CORE}.VolumeResourceRequirements`, {
  limits: field(1, mapOf(quantity)),
  requests: field(2, mapOf(quantity)),
});
