/**
 * The rows of the migration map (spec 001 § Removed API versions) whose objects keep their shape:
 * only `apiVersion` changes (the spec's "none", and the kinds of the 1.22 row that name no
 * notable change). Upstream's conversions of these versions copy every field.
 */
import { AUTOSCALING_GROUP } from '../autoscaling/v1/scale.js';
import { APIREGISTRATION_GROUP } from '../apiregistration/v1/api-service.js';
import { COORDINATION_GROUP } from '../coordination/v1/lease.js';
import { EVENTS_GROUP } from '../events/v1/event.js';
import { NETWORKING_GROUP } from '../networking/v1/group.js';
import { NODE_GROUP } from '../node/v1/runtime-class.js';
import { RBAC_GROUP } from '../rbac/v1/types.js';
import { SCHEDULING_GROUP } from '../scheduling/v1/priority-class.js';
import { vendorGroup } from '../vendor.js';
import { type MigrationRow, sameShape } from './types.js';

/** The `extensions` group, gone since 1.22 (upstream's; no vendor word). */
export const EXTENSIONS_GROUP = 'extensions';
/** Groups spelled here: the layer rule reads `../storage/`, `../authentication/` as lib/storage, lib/authentication. */
const STORAGE_GROUP = vendorGroup('storage');
const AUTHENTICATION_GROUP = vendorGroup('authentication');
/** The `batch` group. */
const BATCH_GROUP = 'batch';

const v1 = (group: string) => ({ group, version: 'v1' });

/** The apiVersion-only rows, in the spec's order. */
export const sameShapeRows: readonly MigrationRow[] = [
  sameShape(STORAGE_GROUP, 'v1beta1', 'CSIStorageCapacity', v1(STORAGE_GROUP), '1.27'),
  sameShape(AUTOSCALING_GROUP, 'v2beta2', 'HorizontalPodAutoscaler', { group: AUTOSCALING_GROUP, version: 'v2' }, '1.26'),
  sameShape(BATCH_GROUP, 'v1beta1', 'CronJob', v1(BATCH_GROUP), '1.25'),
  sameShape(EVENTS_GROUP, 'v1beta1', 'Event', v1(EVENTS_GROUP), '1.25'),
  sameShape(NODE_GROUP, 'v1beta1', 'RuntimeClass', v1(NODE_GROUP), '1.25'),
  sameShape(APIREGISTRATION_GROUP, 'v1beta1', 'APIService', v1(APIREGISTRATION_GROUP), '1.22'),
  sameShape(AUTHENTICATION_GROUP, 'v1beta1', 'TokenReview', v1(AUTHENTICATION_GROUP), '1.22'),
  sameShape(COORDINATION_GROUP, 'v1beta1', 'Lease', v1(COORDINATION_GROUP), '1.22'),
  sameShape(NETWORKING_GROUP, 'v1beta1', 'IngressClass', v1(NETWORKING_GROUP), '1.22'),
  ...['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding'].map((k) => sameShape(RBAC_GROUP, 'v1beta1', k, v1(RBAC_GROUP), '1.22')),
  sameShape(SCHEDULING_GROUP, 'v1beta1', 'PriorityClass', v1(SCHEDULING_GROUP), '1.22'),
  ...['CSIDriver', 'CSINode', 'StorageClass', 'VolumeAttachment'].map((k) => sameShape(STORAGE_GROUP, 'v1beta1', k, v1(STORAGE_GROUP), '1.22')),
  sameShape(EXTENSIONS_GROUP, 'v1beta1', 'NetworkPolicy', v1(NETWORKING_GROUP), '1.16'),
];
