/**
 * Node defaulting: `status.allocatable` starts as a copy of `status.capacity` (upstream core/v1
 * `SetDefaults_NodeStatus`), and `spec.podCIDR` and `spec.podCIDRs` are kept in step the way the
 * upstream v1 conversion does (a lone `podCIDR` becomes `podCIDRs[0]`; `podCIDR` mirrors
 * `podCIDRs[0]`).
 */
import { deepCopy } from '../../../apimachinery/deep-equal.js';
import type { Obj } from '../../define.js';

/** Copies `capacity` into a missing `allocatable`. */
export function defaultNodeStatus(status: Obj): void {
  if (status.allocatable === undefined && status.capacity !== undefined) status.allocatable = deepCopy(status.capacity);
}

/** Keeps `podCIDR` equal to `podCIDRs[0]`, filling `podCIDRs` from a lone `podCIDR`. */
export function defaultNodeSpec(spec: Obj): void {
  const cidrs = Array.isArray(spec.podCIDRs) ? (spec.podCIDRs as string[]) : [];
  if (cidrs.length > 0) spec.podCIDR = cidrs[0];
  else if (typeof spec.podCIDR === 'string' && spec.podCIDR !== '') spec.podCIDRs = [spec.podCIDR];
}
