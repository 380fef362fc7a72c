/**
 * coordination/v1 Lease: a lock with a holder and an expiry, used for leader election and node
 * heartbeats (upstream v1.30 field structure and protobuf numbers; the coordinated-election
 * fields `strategy` and `preferredHolder` came after 1.30). spec 000 § Resources and their fields.
 */
import { field, int32, microTime, string, struct } from '../../../apimachinery/schema/builder.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { vendorGroup } from '../../vendor.js';
import { validateLease } from './lease-validation.js';
import { leasePrinter } from '../../printers/coordination.js';

/** The API group of Lease. */
export const COORDINATION_GROUP = vendorGroup('coordination');

/** Holder and timing of a Lease. */
export const leaseSpec = struct('api.coordination.v1.LeaseSpec', {
  holderIdentity: field(1, string, { pointer: true, description: 'Identity of the current holder.' }),
  leaseDurationSeconds: field(2, int32, { description: 'Seconds candidates wait after the last renewal before taking over.' }),
  acquireTime: field(3, microTime, { description: 'When the current holder acquired the lease.' }),
  renewTime: field(4, microTime, { description: 'When the current holder last renewed the lease.' }),
  leaseTransitions: field(5, int32, { description: 'How many times the lease changed holders.' }),
});

/** The Lease kind: namespaced, DNS subdomain names. */
export const lease = defineKind({
  group: COORDINATION_GROUP,
  version: 'v1',
  kind: 'Lease',
  resource: 'leases',
  singular: 'lease',
  namespaced: true,
  description: 'A time-bounded claim held by one identity, renewed to keep it.',
  printerColumns: leasePrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, leaseSpec, { omitEmpty: false, description: 'Holder and timing of the lease.' }),
  },
  validate: validateLease,
});
