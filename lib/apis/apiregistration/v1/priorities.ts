/**
 * The discovery priorities of the group versions a server serves itself (upstream v1.30
 * kube-apiserver `apiVersionPriorities`: `DefaultGenericAPIServicePriorities` plus the
 * kube-apiserver groups), with the vendor spelling of the groups: `groupPriorityMinimum` orders
 * groups (higher first), `versionPriority` versions within a group. A served group version
 * missing here gets no APIService, as upstream (so that a custom resource's group version is
 * never stuck in the list). The API registration group itself is not listed: upstream creates no
 * APIService for it either.
 */
import { vendorGroup } from '../../vendor.js';

/** The priorities of one group version. */
export interface APIServicePriority {
  group: number;
  version: number;
}

type Row = [group: string, version: string, groupPriority: number, versionPriority: number];

const ROWS: Row[] = [
  ['', 'v1', 18000, 1],
  ['apps', 'v1', 17800, 15],
  [vendorGroup('events'), 'v1', 17750, 15],
  [vendorGroup('events'), 'v1beta1', 17750, 5],
  [vendorGroup('authentication'), 'v1', 17700, 15],
  [vendorGroup('authentication'), 'v1beta1', 17700, 9],
  [vendorGroup('authentication'), 'v1alpha1', 17700, 1],
  [vendorGroup('authorization'), 'v1', 17600, 15],
  ['autoscaling', 'v1', 17500, 15],
  ['autoscaling', 'v2', 17500, 30],
  ['autoscaling', 'v2beta1', 17500, 9],
  ['autoscaling', 'v2beta2', 17500, 1],
  ['batch', 'v1', 17400, 15],
  ['batch', 'v1beta1', 17400, 9],
  ['batch', 'v2alpha1', 17400, 9],
  [vendorGroup('certificates'), 'v1', 17300, 15],
  [vendorGroup('certificates'), 'v1alpha1', 17300, 1],
  [vendorGroup('networking'), 'v1', 17200, 15],
  [vendorGroup('networking'), 'v1alpha1', 17200, 1],
  ['policy', 'v1', 17100, 15],
  ['policy', 'v1beta1', 17100, 9],
  [vendorGroup('rbac.authorization'), 'v1', 17000, 15],
  [vendorGroup('storage'), 'v1', 16800, 15],
  [vendorGroup('storage'), 'v1beta1', 16800, 9],
  [vendorGroup('storage'), 'v1alpha1', 16800, 1],
  [vendorGroup('apiextensions'), 'v1', 16700, 15],
  [vendorGroup('admissionregistration'), 'v1', 16700, 15],
  [vendorGroup('admissionregistration'), 'v1beta1', 16700, 12],
  [vendorGroup('admissionregistration'), 'v1alpha1', 16700, 9],
  [vendorGroup('scheduling'), 'v1', 16600, 15],
  [vendorGroup('coordination'), 'v1', 16500, 15],
  [vendorGroup('node'), 'v1', 16300, 15],
  [vendorGroup('node'), 'v1alpha1', 16300, 1],
  [vendorGroup('node'), 'v1beta1', 16300, 9],
  [vendorGroup('discovery'), 'v1', 16200, 15],
  [vendorGroup('discovery'), 'v1beta1', 16200, 12],
  [vendorGroup('flowcontrol.apiserver'), 'v1', 16100, 21],
  [vendorGroup('flowcontrol.apiserver'), 'v1beta3', 16100, 18],
  [vendorGroup('flowcontrol.apiserver'), 'v1beta2', 16100, 15],
  [vendorGroup('flowcontrol.apiserver'), 'v1beta1', 16100, 12],
  [vendorGroup('flowcontrol.apiserver'), 'v1alpha1', 16100, 9],
  [vendorGroup('internal.apiserver'), 'v1alpha1', 16000, 9],
  [vendorGroup('resource'), 'v1alpha2', 15900, 9],
  [vendorGroup('storagemigration'), 'v1alpha1', 15800, 9],
];

const TABLE = new Map(ROWS.map(([g, v, group, version]) => [`${g}/${v}`, { group, version }]));

/** The priorities of `group`/`version`, or undefined when the table has none. */
export function apiServicePriority(group: string, version: string): APIServicePriority | undefined {
  return TABLE.get(`${group}/${version}`);
}
