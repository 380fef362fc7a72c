/**
 * Binding a pod to a node (upstream `BindingREST` and `LegacyBindingREST` of the pod registry):
 * `POST …/pods/<name>/binding` and the legacy `POST …/namespaces/<ns>/bindings` take a core/v1
 * Binding and set the pod's `spec.nodeName` — written straight to storage, as upstream, with the
 * binding's uid and resourceVersion as preconditions — adding its annotations and the
 * PodScheduled=True condition. A pod being deleted, already bound or still gated is 409.
 */
import { newBadRequest, newConflict, StatusError } from '../../../apimachinery/errors.js';
import { fieldErrorString } from '../../../apimachinery/field-errors.js';
import { binding, validatePodBinding } from '../../../apis/core/v1/binding.js';
import type { Obj } from '../../../apis/define.js';
import type { RequestContext } from '../../../request/context.js';
import type { Preconditions } from '../../../storage/interface.js';
import { metaOf } from '../../generic/object-meta.js';
import { interpretStorageError } from '../../generic/storage-errors.js';
import type { Store } from '../../generic/store.js';
import type { CreateOnlyOptions, CreateTarget, Creater } from '../../rest/creater.js';
import { updatePodCondition } from './conditions.js';

/** Why a pod cannot be bound; answered as 409 on `pods/binding`. */
class BindingRefused extends Error {}

/** The Success Status a binding answers (its code, 201, is filled by the handler). */
export const BINDING_SUCCESS: Obj = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' };

/** `pods/binding` (`legacy` false: the pod is the URL's) or the legacy `bindings` resource (the pod is the body's name). */
export class BindingREST implements Creater {
  readonly kind = binding;

  constructor(
    private readonly pods: Store,
    private readonly legacy = false,
  ) {}

  /**
   * Binds the pod. @throws StatusError 400 when the URL and body names differ; 500 (upstream's
   * aggregate error) for an invalid target; 404 for a missing pod; 409 for a stale uid or
   * resourceVersion, or a pod that cannot be bound.
   */
  async create(_ctx: RequestContext, target: CreateTarget, obj: Obj, opts: CreateOnlyOptions & { validate: (o: Obj) => Promise<void> }): Promise<Obj> {
    const meta = metaOf(obj);
    const name = this.legacy ? String(meta.name ?? '') : target.name;
    if (!this.legacy && meta.name !== target.name) throw newBadRequest('name in URL does not match name in Binding object');
    const errs = validatePodBinding(obj);
    if (errs.length > 0) {
      const messages = errs.map(fieldErrorString);
      const message = messages.length === 1 ? messages[0]! : `[${messages.join(', ')}]`;
      throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 });
    }
    await opts.validate(obj);
    const node = String((obj.target as Obj).name);
    const preconditions: Preconditions = {};
    if (meta.uid) preconditions.uid = String(meta.uid);
    if (meta.resourceVersion) preconditions.resourceVersion = String(meta.resourceVersion);
    const annotations = (meta.annotations ?? {}) as Record<string, string>;
    try {
      await this.pods.storage.guaranteedUpdate(this.pods.keyFor(target.namespace, name), { preconditions, dryRun: opts.dryRun }, (pod) => {
        const podMeta = metaOf(pod);
        const spec = (pod.spec ??= {}) as Obj;
        if (podMeta.deletionTimestamp) throw new BindingRefused(`pod ${name} is being deleted, cannot be assigned to a host`);
        if (spec.nodeName) throw new BindingRefused(`pod ${name} is already assigned to node ${JSON.stringify(spec.nodeName)}`);
        if (Array.isArray(spec.schedulingGates) && spec.schedulingGates.length > 0) throw new BindingRefused(`pod ${name} has non-empty .spec.schedulingGates`);
        spec.nodeName = node;
        podMeta.annotations = { ...((podMeta.annotations ?? {}) as Obj), ...annotations };
        updatePodCondition(pod, { type: 'PodScheduled', status: 'True' });
        return pod;
      });
    } catch (err) {
      if (err instanceof BindingRefused) throw newConflict({ group: '', resource: 'pods/binding' }, name, err.message);
      throw interpretStorageError(err, this.pods.gr, name, 'update');
    }
    return { ...BINDING_SUCCESS };
  }
}
