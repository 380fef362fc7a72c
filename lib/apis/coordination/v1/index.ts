/** The kinds of `coordination.<vendor>/v1` (issue #2 item 5). */
import type { KindDefinition } from '../../define.js';
import { lease } from './lease.js';

export { COORDINATION_GROUP, lease, leaseSpec } from './lease.js';
export { validateLease } from './lease-validation.js';

/** Every kind of the group version, for the catalogue. */
export const coordinationV1Kinds: readonly KindDefinition[] = [lease];
