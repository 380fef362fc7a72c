/**
 * The customresourcedefinitions store (upstream v1.30 apiextensions
 * `pkg/registry/customresourcedefinition/etcd.go`). A definition is not removed by its first
 * DELETE: that sets its deletionTimestamp, adds the `customresourcecleanup` finalizer and a
 * Terminating condition (True, InstanceDeletionPending), under the request's preconditions
 * (a UID precondition always: the object read first) and dryRun. The finalizer controller
 * deletes the custom objects and removes the finalizer, which removes the definition; a later
 * DELETE is the generic one (kept while finalizers remain).
 */
import { newConflict, type Status } from '../../../apimachinery/errors.js';
import { formatTime } from '../../../apimachinery/schema/decode.js';
import type { CRDValidationHooks } from '../../../apiextensions/validation/hooks.js';
import type { Obj } from '../../../apis/define.js';
import { CRD_CLEANUP_FINALIZER } from '../../../apis/vendor.js';
import type { RequestContext } from '../../../request/context.js';
import { keyRootFor, type ResourceStorage, type StorageFactory } from '../../generic/resource-storage.js';
import { interpretStorageError } from '../../generic/storage-errors.js';
import { type DeleteOpts, Store } from '../../generic/store.js';
import type { DeleteOptionsBody } from '../../rest/strategy.js';
import { type CRDStrategyOptions, customResourceDefinitionStrategies } from './strategy.js';

/** The condition the first DELETE sets (upstream's reason and message). */
const TERMINATING = {
  type: 'Terminating',
  status: 'True',
  reason: 'InstanceDeletionPending',
  message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
};

/** Upstream `SetCRDCondition`: replaces the condition of the same type, moving its transition time only when the status changes. */
function setCondition(crd: Obj, condition: typeof TERMINATING, now: string): void {
  const status = (crd.status ?? {}) as Obj;
  const conditions = Array.isArray(status.conditions) ? [...(status.conditions as Obj[])] : [];
  const i = conditions.findIndex((c) => c?.type === condition.type);
  if (i < 0) conditions.push({ ...condition, lastTransitionTime: now });
  else {
    const existing = conditions[i]!;
    const lastTransitionTime = existing.status === condition.status && existing.lastTransitionTime ? existing.lastTransitionTime : now;
    conditions[i] = { ...condition, lastTransitionTime };
  }
  crd.status = { ...status, conditions };
}

/** The customresourcedefinitions store with upstream's two-step deletion. */
export class CustomResourceDefinitionStore extends Store {
  override async delete(ctx: RequestContext, _namespace: string, name: string, options: DeleteOptionsBody, opts: DeleteOpts = {}): Promise<{ body: Obj | Status; deleted: boolean }> {
    const existing = await this.get(ctx, '', name);
    const meta = existing.metadata as Obj;
    const uid = meta.uid as string;
    const pre = options.preconditions ?? {};
    if (pre.uid !== undefined && pre.uid !== uid) {
      throw newConflict(this.gr, name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${uid}`);
    }
    if (pre.resourceVersion !== undefined && pre.resourceVersion !== meta.resourceVersion) {
      throw newConflict(this.gr, name, `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${String(meta.resourceVersion)}`);
    }
    if (meta.deletionTimestamp) return super.delete(ctx, '', name, { ...options, preconditions: { ...pre, uid } }, opts);
    let updated: Obj;
    try {
      updated = await this.storage.guaranteedUpdate(
        this.keyFor('', name),
        { preconditions: { uid, ...(pre.resourceVersion !== undefined ? { resourceVersion: pre.resourceVersion } : {}) }, dryRun: opts.dryRun },
        async (cur) => {
          await opts.validate?.(cur);
          const m = cur.metadata as Obj;
          const now = formatTime(new Date());
          if (!m.deletionTimestamp) m.deletionTimestamp = now;
          const finalizers = Array.isArray(m.finalizers) ? (m.finalizers as string[]) : [];
          if (!finalizers.includes(CRD_CLEANUP_FINALIZER)) m.finalizers = [...finalizers, CRD_CLEANUP_FINALIZER];
          setCondition(cur, TERMINATING, now);
          return cur;
        },
      );
    } catch (err) {
      throw interpretStorageError(err, this.gr, name, 'delete');
    }
    return { body: { kind: this.strategy.kind.kind, apiVersion: this.strategy.kind.apiVersion, ...updated }, deleted: false };
  }
}

/**
 * The stores of `apiextensions.<vendor>/v1` customresourcedefinitions (main and `/status`),
 * validating schemas and printer-column paths with `hooks`, with the feature-gated behaviour of
 * `options` (strategy.ts).
 */
export function apiextensionsResources(storageFor: StorageFactory, prefix: string, hooks: CRDValidationHooks, options?: CRDStrategyOptions): ResourceStorage[] {
  const { main, status } = customResourceDefinitionStrategies(hooks, options);
  const keyRoot = keyRootFor(prefix, main.kind.group, main.kind.resource);
  const storage = storageFor(keyRoot, main.kind);
  return [{ store: new CustomResourceDefinitionStore({ storage, keyRoot, strategy: main }), subresources: new Map([['status', new Store({ storage, keyRoot, strategy: status })]]) }];
}
