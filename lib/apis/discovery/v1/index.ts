/** The kinds of `discovery.<vendor>/v1`: EndpointSlice. */
import type { KindDefinition } from '../../define.js';
import { endpointSlice } from './endpoint-slice.js';

export { DISCOVERY_GROUP, endpointSlice } from './endpoint-slice.js';

/** Every kind of the group version. */
export const discoveryV1Kinds: readonly KindDefinition[] = [endpointSlice];
