/**
 * Create, update and delete rules of APIService (upstream v1.30 kube-aggregator
 * `pkg/registry/apiservice`): cluster-scoped, no generation, no create on update and no
 * unconditional update; status is cleared on create — a local APIService (no service) is marked
 * Available at once, with reason `Local` — kept on main writes and written only through `/status`.
 */
import { formatTime } from '../../apimachinery/schema/decode.js';
import { apiService, validateAPIService, validateAPIServiceStatus } from '../../apis/apiregistration/v1/index.js';
import type { Obj } from '../../apis/define.js';
import { newUpstreamRulesStrategies } from '../admissionregistration/upstream-rules.js';

/** The Available condition of a local APIService (upstream `NewLocalAvailableAPIServiceCondition`). */
export function localAvailableCondition(now: Date = new Date()): Obj {
  return { type: 'Available', status: 'True', lastTransitionTime: formatTime(now), reason: 'Local', message: 'Local APIServices are always available' };
}

/** APIService, with its status strategy. */
export const apiServiceStrategies = newUpstreamRulesStrategies(
  apiService,
  { create: validateAPIService, update: validateAPIService, status: validateAPIServiceStatus },
  {
    tracksGeneration: false,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
    prepareForCreate(obj: Obj) {
      const spec = (obj.spec ?? {}) as Obj;
      if (spec.service === undefined || spec.service === null) obj.status = { conditions: [localAvailableCondition()] };
    },
  },
);
