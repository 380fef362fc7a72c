/**
 * autoscaling/v1 Scale: the body and answer of the `scale` subresource of the workload kinds
 * (`deployments/scale`, …; lib/registry/generic/scale.ts). Not a resource of its own: it is a view
 * of its parent — the parent's name, namespace, uid, resourceVersion and creationTimestamp, its
 * desired replicas, observed replicas and pod selector (upstream v1.30
 * `staging/src/k8s.io/api/autoscaling/v1/types.go`, field order, JSON names and protobuf numbers).
 */
import { type FieldError, FieldPath, invalid } from '../../../apimachinery/field-errors.js';
import { field, int32, string, struct } from '../../../apimachinery/schema/builder.js';
import { validateObjectMeta } from '../../../apimachinery/validation/object-meta.js';
import { type Obj, defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';

/** The API group of Scale (upstream's, without a vendor suffix). */
export const AUTOSCALING_GROUP = 'autoscaling';

/** The desired size of the scaled object. */
export const scaleSpec = struct('api.autoscaling.v1.ScaleSpec', {
  replicas: field(1, int32, { description: 'The desired number of instances of the scaled object.' }),
});

/** The observed size of the scaled object and the selector of its pods. */
export const scaleStatus = struct('api.autoscaling.v1.ScaleStatus', {
  replicas: field(1, int32, { required: true, omitEmpty: false, description: 'The observed number of instances of the scaled object.' }),
  selector: field(2, string, { description: 'The label query, in the label-selector syntax, over the pods that count toward the replicas.' }),
});

/**
 * Upstream ValidateScale: the object metadata as a namespaced object's (DNS-subdomain name), and
 * `spec.replicas` not negative (`must be greater than or equal to 0`).
 */
export function validateScale(scale: Obj): FieldError[] {
  const errs = validateObjectMeta(scale.metadata as Obj | undefined, true, 'dns1123Subdomain');
  const replicas = (scale.spec as Obj | undefined)?.replicas;
  if (typeof replicas === 'number' && replicas < 0) errs.push(invalid(FieldPath.of('spec', 'replicas'), replicas, 'must be greater than or equal to 0'));
  return errs;
}

/**
 * Scale: the desired and observed replicas of a scalable object. `resource`, `singular` and
 * `namespaced` name what it would be as a resource; it is only served as a subresource.
 */
export const scale = defineKind({
  group: AUTOSCALING_GROUP,
  version: 'v1',
  kind: 'Scale',
  resource: 'scales',
  singular: 'scale',
  namespaced: true,
  description: 'A view of a scalable object: its desired replicas, which a write changes, and its observed replicas and pod selector.',
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, scaleSpec, { omitEmpty: false, description: 'The desired size: a write changes the desired replicas of the parent.' }),
    status: field(3, scaleStatus, { omitEmpty: false, description: 'The observed size, read-only.' }),
  },
  validate: validateScale,
});
