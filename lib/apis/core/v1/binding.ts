/**
 * core/v1 Binding: the body of `POST …/pods/<name>/binding` and of the legacy
 * `POST …/namespaces/<ns>/bindings`, which assign a pod to a node
 * (lib/registry/core/pod/binding.ts). Create-only; upstream v1.30 field structure and protobuf
 * numbers; upstream ValidatePodBinding.
 */
import { type FieldError, FieldPath, notSupported, required } from '../../../apimachinery/field-errors.js';
import { field } from '../../../apimachinery/schema/builder.js';
import { defineKind, type Obj } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { objectReference } from './references.js';

/**
 * Upstream ValidatePodBinding: the target's kind is `Node` or empty, and it names a node. The
 * binding registry answers these as upstream does, an aggregate error (500).
 */
export function validatePodBinding(binding: Obj): FieldError[] {
  const target = (binding.target ?? {}) as Obj;
  const path = FieldPath.of('target');
  const errs: FieldError[] = [];
  const kind = typeof target.kind === 'string' ? target.kind : '';
  if (kind !== '' && kind !== 'Node') errs.push(notSupported(path.child('kind'), kind, ['Node', '<empty>']));
  if (typeof target.name !== 'string' || target.name === '') errs.push(required(path.child('name')));
  return errs;
}

/** Binding: ties the pod named by `metadata` to the node named by `target`. */
export const binding = defineKind({
  group: '',
  version: 'v1',
  kind: 'Binding',
  resource: 'bindings',
  singular: 'binding',
  namespaced: true,
  description: 'Ties one object to another, here a pod to the node that runs it.',
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    target: field(2, objectReference, { required: true, omitEmpty: false, description: 'The node the pod is bound to.' }),
  },
});
