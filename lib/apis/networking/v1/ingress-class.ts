/**
 * networking/v1 IngressClass: names the controller that implements Ingresses of a class, with
 * optional parameters. Cluster-scoped; upstream v1.30 field structure and protobuf numbers;
 * `SetDefaults_IngressClass`: parameters without a scope are cluster-scoped. `spec.controller`
 * is immutable. Validation in ingress-class-validation.ts.
 */
import { field, string, struct } from '../../../apimachinery/schema/builder.js';
import { defineKind, type Obj } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { ingressClassPrinter } from '../../printers/networking.js';
import { NETWORKING_GROUP, NETWORKING_V1 } from './group.js';
import { validateIngressClass, validateIngressClassUpdate } from './ingress-class-validation.js';

/** A reference to the object holding a controller's parameters. */
export const ingressClassParametersReference = struct(
  `${NETWORKING_V1}.IngressClassParametersReference`,
  {
    apiGroup: field(1, string, { pointer: true, description: 'Group of the referenced resource; the core group when unset.' }),
    kind: field(2, string, { omitEmpty: false, description: 'Kind of the referenced resource.' }),
    name: field(3, string, { omitEmpty: false, description: 'Name of the referenced resource.' }),
    scope: field(4, string, { omitEmpty: false, pointer: true, description: 'Cluster (default) or Namespace.' }),
    namespace: field(5, string, { pointer: true, description: 'Namespace of the resource; required with scope Namespace, forbidden with Cluster.' }),
  },
  { defaulter: (p: Obj) => void (p.scope ??= 'Cluster') },
);

/** The controller of a class and its parameters. */
export const ingressClassSpec = struct(`${NETWORKING_V1}.IngressClassSpec`, {
  controller: field(1, string, { description: 'Domain-prefixed path of the controller (`acme.io/ingress-controller`); immutable.' }),
  parameters: field(2, ingressClassParametersReference, { description: 'Extra configuration for the controller.' }),
});

/** The IngressClass kind: cluster-scoped, DNS subdomain names. */
export const ingressClass = defineKind({
  group: NETWORKING_GROUP,
  version: 'v1',
  kind: 'IngressClass',
  resource: 'ingressclasses',
  singular: 'ingressclass',
  namespaced: false,
  description: 'A class of Ingresses and the controller that implements them.',
  printerColumns: ingressClassPrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, ingressClassSpec, { omitEmpty: false }),
  },
  validate: validateIngressClass,
  validateUpdate: validateIngressClassUpdate,
});
