/** The kinds of `networking.<vendor>/v1alpha1` (off by default), in discovery order: ipaddresses, servicecidrs. */
import type { KindDefinition } from '../../define.js';
import { ipAddress } from './ip-address.js';
import { serviceCIDR } from './service-cidr.js';

export { ipAddress, serviceCIDR };

/** Every kind of the group version, for the catalogue. */
export const networkingV1alpha1Kinds: readonly KindDefinition[] = [ipAddress, serviceCIDR];
