/**
 * Pod strategy: a new Pod starts Pending with its QoS class; main writes keep status (status
 * subresource); deletion is graceful for Pods bound to a node and not finished — the Pod stays,
 * terminating, for its grace period (the node agent completes the deletion) — and immediate
 * otherwise; the DELETE response is the Pod (spec 000 § Object deletion lifecycle, upstream pod
 * registry).
 */
import type { FieldError } from '../../../apimachinery/field-errors.js';
import { validatePod } from '../../../apis/core/v1/pod-validation.js';
import { pod } from '../../../apis/core/v1/workloads.js';
import type { Obj } from '../../../apis/define.js';
import type { RequestContext } from '../../../request/context.js';
import { newKindStrategy } from '../../generic/kind-strategy.js';
import type { DeleteOptionsBody, Strategy } from '../../rest/strategy.js';
import { podQOSClass } from './qos.js';

/** Grace period of a Pod without `spec.terminationGracePeriodSeconds` (upstream default 30s). */
export const DEFAULT_POD_GRACE_PERIOD_SECONDS = 30;

function checkGracefulDelete(_ctx: RequestContext, obj: Obj, options: DeleteOptionsBody): boolean {
  const spec = (obj.spec ?? {}) as Obj;
  const phase = ((obj.status ?? {}) as Obj).phase;
  let grace = (spec.terminationGracePeriodSeconds as number | undefined) ?? DEFAULT_POD_GRACE_PERIOD_SECONDS;
  if (options.gracePeriodSeconds !== undefined) grace = options.gracePeriodSeconds;
  if (!spec.nodeName || phase === 'Failed' || phase === 'Succeeded') grace = 0;
  options.gracePeriodSeconds = grace;
  return true;
}

/** True for ValidatePodCreate's own rule, which no update runs (upstream ValidatePodUpdate does not). */
function isCreateOnlyRule(e: FieldError): boolean {
  return e.type === 'Forbidden' && e.field === 'spec.ephemeralContainers' && e.detail === 'cannot be set on create';
}

/** The spec and pod rules of an update (upstream validatePodMetadataAndSpec): `validatePod` without its create-only rule. */
export function validatePodSpecOnUpdate(obj: Obj): FieldError[] {
  return validatePod(obj).filter((e) => !isCreateOnlyRule(e));
}

const base = newKindStrategy(
  pod,
  {
    tracksGeneration: false,
    returnDeletedObject: true,
    prepareForCreate: (obj) => {
      obj.status = { phase: 'Pending', qosClass: podQOSClass(obj) };
    },
  },
  { checkGracefulDelete },
);

/**
 * Create, update and delete rules of Pod; an update does not refuse the ephemeral containers the
 * `ephemeralcontainers` subresource added (ephemeral-containers.ts).
 */
export const podStrategy: Strategy = {
  ...base,
  validateUpdate: (ctx, obj, old) => base.validateUpdate(ctx, obj, old).filter((e) => !isCreateOnlyRule(e)),
};
