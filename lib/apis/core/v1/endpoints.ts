/**
 * core/v1 Endpoints: the addresses and ports that implement a Service (upstream field structure
 * and protobuf numbers). spec 000 § Resources and their fields.
 */
import { enumOf, field, int32, listOf, string, struct } from '../../../apimachinery/schema/builder.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { validateEndpoints } from './endpoints-validation.js';
import { CORE, objectReference } from './references.js';
import { endpointsPrinter } from '../../printers/core.js';

/** Transport protocols of container, service and endpoint ports, in upstream's sorted order. */
export const PORT_PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

/** One endpoint IP, with optional hostname, node and target object. */
export const endpointAddress = struct(
  `${CORE}.EndpointAddress`,
  {
    ip: field(1, string, { required: true, omitEmpty: false }),
    hostname: field(3, string),
    nodeName: field(4, string),
    targetRef: field(2, objectReference),
  },
  { mapType: 'atomic' },
);

/** One port offered on every address of an endpoint subset. */
export const endpointPort = struct(
  `${CORE}.EndpointPort`,
  {
    name: field(1, string),
    port: field(2, int32, { required: true, omitEmpty: false }),
    protocol: field(3, enumOf(...PORT_PROTOCOLS), { default: 'TCP' }),
    appProtocol: field(4, string, { pointer: true }),
  },
  { mapType: 'atomic' },
);

/** Addresses sharing one set of ports. */
export const endpointSubset = struct(`${CORE}.EndpointSubset`, {
  addresses: field(1, listOf(endpointAddress, { listType: 'atomic' })),
  notReadyAddresses: field(2, listOf(endpointAddress, { listType: 'atomic' })),
  ports: field(3, listOf(endpointPort, { listType: 'atomic' })),
});

/** The Endpoints kind: namespaced, DNS subdomain names. */
export const endpoints = defineKind({
  group: '',
  version: 'v1',
  kind: 'Endpoints',
  resource: 'endpoints',
  singular: 'endpoints',
  namespaced: true,
  shortNames: ['ep'],
  description: 'The set of network endpoints that back a Service.',
  printerColumns: endpointsPrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    subsets: field(2, listOf(endpointSubset, { listType: 'atomic' }), {
      description: 'Groups of addresses that share the same set of ports.',
    }),
  },
  validate: validateEndpoints,
});
