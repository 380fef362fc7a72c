/**
 * TaintNodesByCondition (spec 001 § Admission control, default-enabled; upstream v1.30's plugin
 * of the same name): a Node is created with the taint `node.<vendor>/not-ready:NoSchedule`, so
 * that nothing is scheduled to it before it reports Ready (whoever watches the node's conditions
 * removes the taint then). A node that already carries a taint of that key and effect keeps it
 * unchanged. Only Node creates, no subresources.
 */
import { type Obj, list, obj, objs, str } from '../../apis/core/v1/obj-access.js';
import { TAINT_NODE_NOT_READY } from '../../apis/vendor.js';
import type { RequestContext } from '../../request/context.js';
import type { AdmissionAttributes, AdmissionOperation, MutatingAdmissionPlugin } from '../interface.js';
import type { AdmissionPluginFactory } from '../plugin-deps.js';

/** The taint every new Node gets. */
export const NOT_READY_TAINT: Readonly<Obj> = Object.freeze({ key: TAINT_NODE_NOT_READY, effect: 'NoSchedule' });

/**
 * Adds {@link NOT_READY_TAINT} to `node.spec.taints` unless a taint with its key and effect is
 * there (upstream `Taint.MatchTaint`). Mutates `node`.
 */
export function addNotReadyTaint(node: Obj): void {
  const spec = obj(node.spec) ?? {};
  node.spec = spec;
  if (objs(spec.taints).some((t) => str(t.key) === NOT_READY_TAINT.key && str(t.effect) === NOT_READY_TAINT.effect)) return;
  spec.taints = [...list(spec.taints), { ...NOT_READY_TAINT }];
}

/** The TaintNodesByCondition plugin (mutating phase). */
export class TaintNodesByCondition implements MutatingAdmissionPlugin {
  readonly name = 'TaintNodesByCondition';

  handles(op: AdmissionOperation): boolean {
    return op === 'CREATE';
  }

  async admit(_ctx: RequestContext, a: AdmissionAttributes): Promise<void> {
    if (a.group !== '' || a.resource !== 'nodes' || a.subresource !== '' || !a.object) return;
    addNotReadyTaint(a.object);
  }
}

/** Factory of {@link TaintNodesByCondition}. */
export const taintNodesByConditionPlugin: AdmissionPluginFactory = {
  name: 'TaintNodesByCondition',
  create: () => new TaintNodesByCondition(),
};
