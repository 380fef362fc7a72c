/** The kinds of `scheduling.<vendor>/v1`: PriorityClass, and the system classes. */
import type { KindDefinition } from '../../define.js';
import { priorityClass } from './priority-class.js';

export { priorityClass, SCHEDULING_GROUP } from './priority-class.js';
export * from './system-priority-classes.js';

/** Every kind of the group version. */
export const schedulingV1Kinds: readonly KindDefinition[] = [priorityClass];
