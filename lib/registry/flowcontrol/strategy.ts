/**
 * Strategies of FlowSchema and PriorityLevelConfiguration (upstream v1.30
 * `pkg/registry/flowcontrol/{flowschema,prioritylevelconfiguration}/strategy.go`): status cleared
 * and generation 1 on create, generation bumped by spec changes, status kept on main-resource
 * writes and alone changed through `/status`; no create on update; unconditional updates allowed.
 * All of it is what the kind-derived strategy does for a kind with a status subresource.
 */
import { flowSchema, priorityLevelConfiguration } from '../../apis/flowcontrol/v1/index.js';
import { newKindStrategy } from '../generic/kind-strategy.js';
import type { Strategy } from '../rest/strategy.js';

/** Create, update and delete rules of FlowSchema. */
export const flowSchemaStrategy: Strategy = newKindStrategy(flowSchema);

/** Create, update and delete rules of PriorityLevelConfiguration. */
export const priorityLevelConfigurationStrategy: Strategy = newKindStrategy(priorityLevelConfiguration);
