/**
 * The system priority classes (upstream `pkg/apis/scheduling` constants and `SystemPriorityClasses`
 * of v1.30): the `system-` name prefix is reserved for them; `system-node-critical`
 * (2000001000) and `system-cluster-critical` (2000000000) are created at every server start
 * (lib/controllers/priorityclass-bootstrap) and may not be deleted. User classes may not exceed
 * 1000000000.
 */

/** Names starting with this are reserved for the system classes. */
export const SYSTEM_PRIORITY_CLASS_PREFIX = 'system-';
/** The highest value of a user-defined class. */
export const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;
/** The value of `system-cluster-critical`; `system-node-critical` is 1000 above. */
export const SYSTEM_CRITICAL_PRIORITY = 2 * HIGHEST_USER_DEFINABLE_PRIORITY;

/** A system class as created at start. */
export interface SystemPriorityClass {
  name: string;
  value: number;
  globalDefault: boolean;
  description: string;
}

/** The system classes, in upstream's order. */
export const SYSTEM_PRIORITY_CLASSES: readonly SystemPriorityClass[] = Object.freeze([
  {
    name: 'system-node-critical',
    value: SYSTEM_CRITICAL_PRIORITY + 1000,
    globalDefault: false,
    description: 'Used for system critical pods that must not be moved from their current node.',
  },
  {
    name: 'system-cluster-critical',
    value: SYSTEM_CRITICAL_PRIORITY,
    globalDefault: false,
    description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  },
]);

/** Whether `name` is one of the system classes. */
export function isSystemPriorityClassName(name: string): boolean {
  return SYSTEM_PRIORITY_CLASSES.some((c) => c.name === name);
}

/**
 * Why a class with this name, value and globalDefault is not a known system class (upstream
 * `IsKnownSystemPriorityClass`), or undefined when it is one.
 */
export function unknownSystemPriorityClass(name: string, value: number, globalDefault: boolean): string | undefined {
  const known = SYSTEM_PRIORITY_CLASSES.find((c) => c.name === name);
  if (!known) return `${name} is not a known system priority class`;
  if (known.value !== value) return `value of ${known.name} PriorityClass must be ${known.value}`;
  if (known.globalDefault !== globalDefault) return `globalDefault of ${known.name} PriorityClass must be ${known.globalDefault}`;
  return undefined;
}
