/** The kinds of `flowcontrol.apiserver.<vendor>/v1` (issue #12): FlowSchema, PriorityLevelConfiguration. */
import type { KindDefinition } from '../../define.js';
import { flowSchema, priorityLevelConfiguration } from './kinds.js';

export { type BootstrapObject, mandatoryFlowSchemas, mandatoryPriorityLevels, mandatorySpec, suggestedFlowSchemas, suggestedPriorityLevels } from './bootstrap.js';
export { DEFAULT_MATCHING_PRECEDENCE } from './flow-schema-types.js';
export { validateFlowSchema, validateFlowSchemaStatusUpdate, validateNonResourceURLPath } from './flow-schema-validation.js';
export { flowSchema, priorityLevelConfiguration } from './kinds.js';
export { DEFAULT_HAND_SIZE, DEFAULT_NOMINAL_CONCURRENCY_SHARES, DEFAULT_QUEUE_LENGTH_LIMIT, DEFAULT_QUEUES } from './priority-level-types.js';
export { requiredEntropyBits, validatePriorityLevelConfiguration, validatePriorityLevelConfigurationStatusUpdate } from './priority-level-validation.js';
export { specsEqual } from './semantic.js';
export { CATCH_ALL, EXEMPT, FLOW_SCHEMA_CONDITION_DANGLING, FLOWCONTROL_GROUP, MAX_MATCHING_PRECEDENCE, WILDCARD } from './types.js';

/** Every kind of the group version, for the catalogue. */
export const flowcontrolV1Kinds: readonly KindDefinition[] = [flowSchema, priorityLevelConfiguration];
