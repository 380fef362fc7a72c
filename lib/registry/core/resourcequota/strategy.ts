/**
 * ResourceQuota strategy (upstream v1.30 resourcequota registry): status cleared on create and
 * kept on main writes, status writes change only status; no generation tracking; the deleted
 * object is returned by a delete.
 */
import { resourceQuota } from '../../../apis/core/v1/resource-quota.js';
import { newKindStrategy } from '../../generic/kind-strategy.js';
import type { Strategy } from '../../rest/strategy.js';

/** Create, update and delete rules of ResourceQuota (the default status strategy applies). */
export const resourceQuotaStrategy: Strategy = newKindStrategy(resourceQuota, { tracksGeneration: false, returnDeletedObject: true });
