/**
 * Strategies of the kinds whose rules are all derived from their definitions (no custom
 * preparation): the options upstream sets per registry — create-on-update, generation tracking,
 * the delete response shape (spec 000 § Update rules, § Object deletion lifecycle). Kinds with
 * custom logic have their own folder (`core/namespace`, `core/secret`, …).
 */
import { endpoints, event, node, serviceAccount } from '../apis/core/v1/cluster-kinds.js';
import { configMap } from '../apis/core/v1/config-map.js';
import { deployment } from '../apis/apps/v1/index.js';
import { cronJob } from '../apis/batch/v1/index.js';
import { lease } from '../apis/coordination/v1/index.js';
import { clusterRole, clusterRoleBinding, role, roleBinding } from '../apis/rbac/v1/index.js';
import { type KindStrategyOptions, newKindStrategy } from './generic/kind-strategy.js';
import type { Strategy } from './rest/strategy.js';

const plain: KindStrategyOptions = { tracksGeneration: false };
const createOnUpdate: KindStrategyOptions = { tracksGeneration: false, allowCreateOnUpdate: true };

export const deploymentStrategy: Strategy = newKindStrategy(deployment);
export const cronJobStrategy: Strategy = newKindStrategy(cronJob);
export const configMapStrategy: Strategy = newKindStrategy(configMap, plain);
export const serviceAccountStrategy: Strategy = newKindStrategy(serviceAccount, plain);
export const nodeStrategy: Strategy = newKindStrategy(node, { tracksGeneration: false, keepStatusOnCreate: true });
export const eventStrategy: Strategy = newKindStrategy(event, createOnUpdate);
export const endpointsStrategy: Strategy = newKindStrategy(endpoints, createOnUpdate);
export const leaseStrategy: Strategy = newKindStrategy(lease, createOnUpdate);
export const roleStrategy: Strategy = newKindStrategy(role, createOnUpdate);
export const clusterRoleStrategy: Strategy = newKindStrategy(clusterRole, createOnUpdate);
export const roleBindingStrategy: Strategy = newKindStrategy(roleBinding, createOnUpdate);
export const clusterRoleBindingStrategy: Strategy = newKindStrategy(clusterRoleBinding, createOnUpdate);
