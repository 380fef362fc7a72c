/**
 * core/v1 Service: a stable network identity and load-balancing policy for a set of pods
 * (upstream v1.30 field structure and protobuf numbers, including `trafficDistribution` and
 * load-balancer `ipMode`). spec 000 § Resources and their fields.
 */
import { boolean, enumOf, field, int32, intOrString, listOf, mapOf, string, struct } from '../../../apimachinery/schema/builder.js';
import { defineKind } from '../../define.js';
import { condition, objectMeta } from '../../meta/v1/types.js';
import { PORT_PROTOCOLS } from './endpoints.js';
import { CORE } from './references.js';
import { defaultLoadBalancerIngress, defaultServicePort, defaultServiceSpec } from './service-defaults.js';
import { IP_FAMILIES, IP_FAMILY_POLICIES } from './service-ip-validation.js';
import { validateService, validateServiceStatusUpdate, validateServiceUpdate } from './service-validation.js';
import { servicePrinter } from '../../printers/core.js';

/** One port a Service exposes and where it forwards to. */
export const servicePort = struct(
  `${CORE}.ServicePort`,
  {
    name: field(1, string, { description: 'DNS label naming the port; required when there are several.' }),
    protocol: field(2, enumOf(...PORT_PROTOCOLS), { default: 'TCP' }),
    appProtocol: field(6, string),
    port: field(3, int32, { required: true, omitEmpty: false, description: 'Port the service exposes.' }),
    targetPort: field(4, intOrString, { omitEmpty: false, description: 'Number or name of the port on the selected pods (defaults to port).' }),
    nodePort: field(5, int32),
  },
  { defaulter: defaultServicePort },
);

/** Timeout of ClientIP session affinity. */
export const clientIPConfig = struct(`${CORE}.ClientIPConfig`, {
  timeoutSeconds: field(1, int32),
});

/** Session affinity settings, per affinity type. */
export const sessionAffinityConfig = struct(`${CORE}.SessionAffinityConfig`, {
  clientIP: field(1, clientIPConfig),
});

/** Desired behaviour of a Service. */
export const serviceSpec = struct(
  `${CORE}.ServiceSpec`,
  {
    ports: field(
      1,
      listOf(servicePort, { patchMergeKey: 'port', patchStrategy: 'merge', listType: 'map', listMapKeys: ['port', 'protocol'] }),
      { description: 'Ports the service exposes.' },
    ),
    selector: field(2, mapOf(string, { mapType: 'atomic' }), { description: 'Labels of the pods that receive the traffic.' }),
    clusterIP: field(3, string, { description: 'Virtual IP of the service, "None" for a headless service.' }),
    clusterIPs: field(18, listOf(string, { listType: 'atomic' })),
    type: field(4, enumOf('ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'), { default: 'ClusterIP', description: 'How the service is exposed.' }),
    externalIPs: field(5, listOf(string, { listType: 'atomic' })),
    sessionAffinity: field(7, enumOf('ClientIP', 'None'), { default: 'None' }),
    loadBalancerIP: field(8, string),
    loadBalancerSourceRanges: field(9, listOf(string, { listType: 'atomic' })),
    externalName: field(10, string, { description: 'DNS name an ExternalName service aliases.' }),
    externalTrafficPolicy: field(11, enumOf('Cluster', 'Local')),
    healthCheckNodePort: field(12, int32),
    publishNotReadyAddresses: field(13, boolean),
    sessionAffinityConfig: field(14, sessionAffinityConfig),
    ipFamilies: field(19, listOf(enumOf(...IP_FAMILIES), { listType: 'atomic' })),
    ipFamilyPolicy: field(17, enumOf(...IP_FAMILY_POLICIES)),
    allocateLoadBalancerNodePorts: field(20, boolean),
    loadBalancerClass: field(21, string),
    internalTrafficPolicy: field(22, enumOf('Cluster', 'Local')),
    trafficDistribution: field(23, enumOf('PreferClose')),
  },
  { defaulter: defaultServiceSpec },
);

/** The error state of one load-balancer port. */
export const portStatus = struct(`${CORE}.PortStatus`, {
  port: field(1, int32, { required: true, omitEmpty: false }),
  protocol: field(2, string, { required: true, omitEmpty: false }),
  error: field(3, string),
});

/** One ingress point of a load balancer: an IP or a hostname. */
export const loadBalancerIngress = struct(
  `${CORE}.LoadBalancerIngress`,
  {
    ip: field(1, string),
    hostname: field(2, string),
    ipMode: field(3, enumOf('Proxy', 'VIP')),
    ports: field(4, listOf(portStatus, { listType: 'atomic' })),
  },
  { defaulter: defaultLoadBalancerIngress },
);

/** The ingress points of a Service's load balancer. */
export const loadBalancerStatus = struct(`${CORE}.LoadBalancerStatus`, {
  ingress: field(1, listOf(loadBalancerIngress, { listType: 'atomic' })),
});

/** Observed state of a Service: load balancer and conditions. */
export const serviceStatus = struct(`${CORE}.ServiceStatus`, {
  loadBalancer: field(1, loadBalancerStatus, { omitEmpty: false, description: 'Ingress points of the load balancer, if any.' }),
  conditions: field(2, listOf(condition, { patchMergeKey: 'type', patchStrategy: 'merge', listType: 'map', listMapKeys: ['type'] })),
});

/** The Service kind: namespaced, DNS-1035 label names, status subresource. */
export const service = defineKind({
  group: '',
  version: 'v1',
  kind: 'Service',
  resource: 'services',
  singular: 'service',
  namespaced: true,
  shortNames: ['svc'],
  categories: ['all'],
  nameRule: 'dns1035Label',
  statusSubresource: true,
  description: 'A named, load-balanced network endpoint in front of a set of pods.',
  printerColumns: servicePrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, serviceSpec, { default: {}, omitEmpty: false, description: 'Desired behaviour of the service.' }),
    status: field(3, serviceStatus, { omitEmpty: false, description: 'Observed state of the service.' }),
  },
  validate: validateService,
  validateUpdate: validateServiceUpdate,
  validateStatusUpdate: validateServiceStatusUpdate,
});
