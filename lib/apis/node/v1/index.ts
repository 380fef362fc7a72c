/** The kinds of `node.<vendor>/v1`: RuntimeClass. */
import type { KindDefinition } from '../../define.js';
import { runtimeClass } from './runtime-class.js';

export { NODE_GROUP, runtimeClass } from './runtime-class.js';

/** Every kind of the group version. */
export const nodeV1Kinds: readonly KindDefinition[] = [runtimeClass];
