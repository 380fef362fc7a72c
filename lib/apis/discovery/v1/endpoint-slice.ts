/**
 * discovery/v1 EndpointSlice: a slice of the network endpoints of a Service, of one address type.
 * Upstream v1.30 field structure, protobuf numbers and list markers. Defaults as
 * `SetDefaults_EndpointPort`: a port's name is `""` and its protocol TCP (both written). No short
 * name. `addressType` is required and immutable. Validation in endpoint-slice-validation.ts.
 */
import { boolean, enumOf, field, int32, listOf, mapOf, string, struct } from '../../../apimachinery/schema/builder.js';
import { PORT_PROTOCOLS } from '../../core/v1/endpoints.js';
import { objectReference } from '../../core/v1/references.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { endpointSlicePrinter } from '../../printers/networking.js';
import { vendorGroup } from '../../vendor.js';
import { validateEndpointSlice, validateEndpointSliceUpdate } from './endpoint-slice-validation.js';

/** `discovery.<vendor>`. */
export const DISCOVERY_GROUP = vendorGroup('discovery');
const V1 = 'api.discovery.v1';

/** The address types, sorted as upstream lists them. */
export const ADDRESS_TYPES = ['FQDN', 'IPv4', 'IPv6'];

/** The readiness of an endpoint; unset means unknown. */
export const endpointConditions = struct(`${V1}.EndpointConditions`, {
  ready: field(1, boolean, { description: 'Ready to receive traffic (never true while terminating).' }),
  serving: field(2, boolean, { description: 'Ready, regardless of terminating.' }),
  terminating: field(3, boolean, { description: 'The endpoint is terminating.' }),
});

/** A zone that should consume an endpoint. */
export const forZone = struct(`${V1}.ForZone`, {
  name: field(1, string, { omitEmpty: false, description: 'Name of the zone.' }),
});

/** How an endpoint should be consumed (topology aware routing). */
export const endpointHints = struct(`${V1}.EndpointHints`, {
  forZones: field(1, listOf(forZone, { listType: 'atomic' }), { description: 'Zones that should consume the endpoint.' }),
});

/** One backend of the Service: its addresses, conditions and placement. */
export const endpoint = struct(`${V1}.Endpoint`, {
  addresses: field(1, listOf(string, { listType: 'set' }), { omitEmpty: false, description: 'Addresses of the endpoint, of the slice address type; 1 to 100.' }),
  conditions: field(2, endpointConditions, { omitEmpty: false, description: 'Current conditions of the endpoint.' }),
  hostname: field(3, string, { pointer: true, description: 'Hostname of the endpoint (a DNS label).' }),
  targetRef: field(4, objectReference, { description: 'The object (usually a Pod) this endpoint represents.' }),
  deprecatedTopology: field(5, mapOf(string), { description: 'v1beta1 topology; not writable through v1 (cleared on writes).' }),
  nodeName: field(6, string, { pointer: true, description: 'Node hosting the endpoint.' }),
  zone: field(7, string, { pointer: true, description: 'Zone of the endpoint.' }),
  hints: field(8, endpointHints, { description: 'How the endpoint should be consumed.' }),
});

/** A port every endpoint of the slice exposes; atomic. */
export const endpointPort = struct(
  `${V1}.EndpointPort`,
  {
    name: field(1, string, { default: '', omitEmpty: false, pointer: true, description: 'Unique name of the port (a DNS label or empty).' }),
    protocol: field(2, enumOf(...PORT_PROTOCOLS), { default: 'TCP', description: 'TCP (default), UDP or SCTP.' }),
    port: field(3, int32, { description: 'Port number; every port when unset.' }),
    appProtocol: field(4, string, { pointer: true, description: 'Application protocol (a label-style name).' }),
  },
  { mapType: 'atomic' },
);

/** The EndpointSlice kind: namespaced, no short name. */
export const endpointSlice = defineKind({
  group: DISCOVERY_GROUP,
  version: 'v1',
  kind: 'EndpointSlice',
  resource: 'endpointslices',
  singular: 'endpointslice',
  namespaced: true,
  description: 'A subset of the endpoints that implement a Service.',
  printerColumns: endpointSlicePrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    addressType: field(4, enumOf(...ADDRESS_TYPES), { required: true, omitEmpty: false, description: 'IPv4, IPv6 or FQDN; immutable.' }),
    endpoints: field(2, listOf(endpoint, { listType: 'atomic' }), { omitEmpty: false, description: 'Unique endpoints; at most 1000.' }),
    ports: field(3, listOf(endpointPort, { listType: 'atomic' }), { omitEmpty: false, description: 'Ports of every endpoint; at most 20000.' }),
  },
  validate: validateEndpointSlice,
  validateUpdate: validateEndpointSliceUpdate,
});
