/**
 * networking/v1 Ingress: host and path rules routing outside traffic to Services (or other
 * backends), with a status subresource for the load balancer's addresses. Upstream v1.30 field
 * structure, protobuf numbers and list markers; no defaults (pathType has none in v1). Short name
 * `ing`. Validation in ingress-validation.ts; as upstream, an update is checked by
 * `validateIngressUpdate` instead of (not on top of) `validateIngress` (the registry strategy
 * runs it so).
 */
import { field, int32, listOf, string, struct } from '../../../apimachinery/schema/builder.js';
import { inlined, typedLocalObjectReference } from '../../core/v1/references.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { ingressPrinter } from '../../printers/networking.js';
import { NETWORKING_GROUP, NETWORKING_V1 } from './group.js';
import { validateIngress, validateIngressStatusUpdate, validateIngressUpdate } from './ingress-validation.js';

/** A port of a Service, by name or by number (exactly one); atomic. */
export const serviceBackendPort = struct(
  `${NETWORKING_V1}.ServiceBackendPort`,
  {
    name: field(1, string, { description: 'Name of the port on the Service; exclusive with number.' }),
    number: field(2, int32, { description: 'Number of the port on the Service; exclusive with name.' }),
  },
  { mapType: 'atomic' },
);

/** A Service in the Ingress's namespace and one of its ports. */
export const ingressServiceBackend = struct(`${NETWORKING_V1}.IngressServiceBackend`, {
  name: field(1, string, { required: true, omitEmpty: false, description: 'Name of the Service, in the namespace of the Ingress.' }),
  port: field(2, serviceBackendPort, { omitEmpty: false, description: 'The port of the Service; name or number.' }),
});

/** Where matching traffic goes: a Service or another resource (exactly one). */
export const ingressBackend = struct(`${NETWORKING_V1}.IngressBackend`, {
  service: field(4, ingressServiceBackend, { description: 'A Service backend; exclusive with resource.' }),
  resource: field(3, typedLocalObjectReference, { description: 'Another object in the namespace of the Ingress; exclusive with service.' }),
});

/** One path of an HTTP rule and its backend. */
export const httpIngressPath = struct(`${NETWORKING_V1}.HTTPIngressPath`, {
  path: field(1, string, { description: 'Matched against the path of a request; absolute for Exact and Prefix.' }),
  pathType: field(3, string, { omitEmpty: false, pointer: true, description: 'Exact, Prefix or ImplementationSpecific; required.' }),
  backend: field(2, ingressBackend, { omitEmpty: false, description: 'Where requests matching the path are sent.' }),
});

/** The paths of an HTTP rule. */
export const httpIngressRuleValue = struct(`${NETWORKING_V1}.HTTPIngressRuleValue`, {
  paths: field(1, listOf(httpIngressPath, { listType: 'atomic' }), { omitEmpty: false, description: 'Paths mapped to backends; at least one.' }),
});

/** The value of a rule, inline in it (Go embedding: `http` sits in the rule in JSON, in field 2 in protobuf). */
const ingressRuleValue = { id: `${NETWORKING_V1}.IngressRuleValue`, fields: { http: field(1, httpIngressRuleValue, { description: 'HTTP paths of the rule.' }) } };

/** A host (or every host) and the paths routed under it. */
export const ingressRule = struct(`${NETWORKING_V1}.IngressRule`, {
  host: field(1, string, { description: 'Fully qualified DNS name, or `*.` and a domain; not an IP address.' }),
  ...inlined(2, ingressRuleValue),
});

/** Hosts served with the certificate of one Secret. */
export const ingressTLS = struct(`${NETWORKING_V1}.IngressTLS`, {
  hosts: field(1, listOf(string, { listType: 'atomic' }), { description: 'Hosts of the TLS certificate.' }),
  secretName: field(2, string, { description: 'Secret holding the certificate and key.' }),
});

/** The desired routing of an Ingress. */
export const ingressSpec = struct(
  `${NETWORKING_V1}.IngressSpec`,
  {
    ingressClassName: field(4, string, { pointer: true, description: 'Name of the IngressClass that implements this Ingress.' }),
    defaultBackend: field(1, ingressBackend, { description: 'Backend of requests that match no rule.' }),
    tls: field(2, listOf(ingressTLS, { listType: 'atomic' }), { description: 'TLS configuration.' }),
    rules: field(3, listOf(ingressRule, { listType: 'atomic' }), { description: 'Host rules; without them everything goes to defaultBackend.' }),
  },
  { description: 'The desired behaviour of an Ingress.' },
);

/** The state of one port of a load balancer ingress point. */
export const ingressPortStatus = struct(`${NETWORKING_V1}.IngressPortStatus`, {
  port: field(1, int32, { omitEmpty: false }),
  protocol: field(2, string, { omitEmpty: false, description: 'TCP, UDP or SCTP.' }),
  error: field(3, string, { pointer: true, description: 'The problem with the port, as a CamelCase reason.' }),
});

/** One ingress point of the load balancer. */
export const ingressLoadBalancerIngress = struct(`${NETWORKING_V1}.IngressLoadBalancerIngress`, {
  ip: field(1, string),
  hostname: field(2, string),
  ports: field(4, listOf(ingressPortStatus, { listType: 'atomic' })),
});

/** The load balancer of an Ingress. */
export const ingressLoadBalancerStatus = struct(`${NETWORKING_V1}.IngressLoadBalancerStatus`, {
  ingress: field(1, listOf(ingressLoadBalancerIngress, { listType: 'atomic' }), { description: 'Ingress points of the load balancer.' }),
});

/** The observed state of an Ingress. */
export const ingressStatus = struct(`${NETWORKING_V1}.IngressStatus`, {
  loadBalancer: field(1, ingressLoadBalancerStatus, { omitEmpty: false, description: 'The load balancer of the Ingress.' }),
});

/** The Ingress kind: namespaced, short name `ing`, with a status subresource. */
export const ingress = defineKind({
  group: NETWORKING_GROUP,
  version: 'v1',
  kind: 'Ingress',
  resource: 'ingresses',
  singular: 'ingress',
  namespaced: true,
  shortNames: ['ing'],
  statusSubresource: true,
  description: 'Rules that route outside HTTP(S) traffic to backends inside the cluster.',
  printerColumns: ingressPrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, ingressSpec, { omitEmpty: false }),
    status: field(3, ingressStatus, { omitEmpty: false }),
  },
  validate: validateIngress,
  validateUpdate: validateIngressUpdate,
  validateStatusUpdate: validateIngressStatusUpdate,
});
