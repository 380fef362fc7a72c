/** The kinds of `networking.<vendor>/v1`: Ingress, IngressClass, NetworkPolicy. */
import type { KindDefinition } from '../../define.js';
import { ingress } from './ingress.js';
import { ingressClass } from './ingress-class.js';
import { networkPolicy } from './network-policy.js';

export { NETWORKING_GROUP } from './group.js';
export { ingress, ingressClass, networkPolicy };

/** Every kind of the group version, in upstream's discovery order. */
export const networkingV1Kinds: readonly KindDefinition[] = [ingressClass, ingress, networkPolicy];
