/**
 * The namespace controller: for each terminating namespace, deletes every namespaced object in
 * it (objects with finalizers stay until their finalizers are removed), reports what remains as
 * the namespace's deletion conditions (conditions.ts), retries every second while content
 * remains, then removes the namespace
 * finalizer through `/finalize` and deletes the namespace (spec 000 § Object deletion lifecycle;
 * issue #2 item 7). Safe to run in several replicas: every step is idempotent.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { deepCopy } from '../../apimachinery/deep-equal.js';
import { isReason } from '../../apimachinery/errors.js';
import type { Obj } from '../../apis/define.js';
import { NAMESPACE_FINALIZER } from '../../apis/core/v1/namespace-defaults.js';
import type { Informer } from '../../client/informer.js';
import type { RequestContext } from '../../request/context.js';
import { recordManagedFields } from '../../registry/generic/managed-fields.js';
import type { Store } from '../../registry/generic/store.js';
import { EVERYTHING } from '../../storage/interface.js';
import { formatTime } from '../../apimachinery/schema/decode.js';
import { type ContentTally, newTally, nextConditions, tallyRemaining } from './conditions.js';

/** What the controller works with. */
export interface NamespaceControllerConfig {
  informer: Informer;
  namespaces: Store;
  finalize: Store;
  /** The namespace `/status` store (deletion conditions). */
  status: Store;
  /** Main stores of every namespaced resource. */
  namespaced: () => Store[];
  /** Context of the controller's own requests (a privileged internal user). */
  ctx: RequestContext;
  /** Delay before re-checking a namespace whose contents are still being removed (ms). */
  retryMs?: number;
  onError: (err: unknown) => void;
}

/** Runs the controller until `signal` aborts. */
export async function runNamespaceController(cfg: NamespaceControllerConfig, signal: AbortSignal): Promise<void> {
  const queue = new Set<string>();
  let wake: (() => void) | null = null;
  const enqueue = (name: string) => {
    queue.add(name);
    wake?.();
  };
  cfg.informer.addHandler((type, obj) => {
    if (type !== 'DELETED' && obj.metadata?.deletionTimestamp) enqueue(obj.metadata.name as string);
  });
  await cfg.informer.waitForSync();
  for (const ns of cfg.informer.list()) if (ns.metadata?.deletionTimestamp) enqueue(ns.metadata.name as string);
  while (!signal.aborted) {
    if (queue.size === 0) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
      wake = null;
      continue;
    }
    const [name] = queue;
    queue.delete(name!);
    try {
      const done = await syncNamespace(cfg, name!);
      if (!done) setTimeout(() => enqueue(name!), cfg.retryMs ?? 1000).unref();
    } catch (err) {
      cfg.onError(err);
      setTimeout(() => enqueue(name!), cfg.retryMs ?? 1000).unref();
      await sleep(10);
    }
  }
}

/** One pass over a terminating namespace; true when it is gone or not terminating. */
export async function syncNamespace(cfg: NamespaceControllerConfig, name: string): Promise<boolean> {
  let ns: Obj;
  try {
    ns = await cfg.namespaces.get(cfg.ctx, '', name);
  } catch (err) {
    if (isReason(err, 'NotFound')) return true;
    throw err;
  }
  if (!(ns.metadata as Obj).deletionTimestamp) return true;
  const tally = newTally();
  for (const store of cfg.namespaced()) {
    try {
      const left = await store.deleteCollection(cfg.ctx, name, { propagationPolicy: 'Background' }, { predicate: EVERYTHING });
      tallyRemaining(tally, store.gr.resource, store.gr.group, left.items.filter((o) => !isGoneAfterDelete(o)));
    } catch (err) {
      tally.failures.push(err instanceof Error ? err.message : String(err));
    }
  }
  await reportConditions(cfg, name, ns, tally);
  if (tally.remaining.size > 0 || tally.failures.length > 0) return false;
  const finalizers = (((ns.spec as Obj | undefined)?.finalizers as string[] | undefined) ?? []).filter((f) => f !== NAMESPACE_FINALIZER);
  await cfg.finalize.update(cfg.ctx, '', name, async (cur) => {
    const next = deepCopy(cur ?? ns);
    next.spec = { ...((next.spec as Obj | undefined) ?? {}), finalizers };
    recordManagedFields(cfg.finalize.strategy.kind, 'finalize', cur ?? undefined, next, cfg.ctx.userAgent);
    return next;
  });
  try {
    const res = await cfg.namespaces.delete(cfg.ctx, '', name, {});
    return res.deleted;
  } catch (err) {
    if (isReason(err, 'NotFound')) return true;
    throw err;
  }
}

/** Writes the deletion conditions of the pass to the namespace's status when they change. */
async function reportConditions(cfg: NamespaceControllerConfig, name: string, ns: Obj, tally: ContentTally): Promise<void> {
  const current = ((ns.status as Obj | undefined)?.conditions as Obj[] | undefined) ?? undefined;
  if (!nextConditions(current, tally, formatTime(new Date()))) return;
  await cfg.status.update(cfg.ctx, '', name, async (cur) => {
    const next = deepCopy(cur ?? ns);
    const status = (next.status ?? {}) as Obj;
    const conditions = nextConditions(status.conditions as Obj[] | undefined, tally, formatTime(new Date()));
    if (conditions) next.status = { ...status, conditions };
    recordManagedFields(cfg.status.strategy.kind, 'status', cur ?? undefined, next, cfg.ctx.userAgent);
    return next;
  });
}

/** An item returned by deleteCollection is still present when it was kept with a deletionTimestamp. */
function isGoneAfterDelete(o: Obj): boolean {
  const m = (o.metadata ?? {}) as Obj;
  const finalizers = (m.finalizers as string[] | undefined) ?? [];
  return finalizers.length === 0 && !((m.deletionGracePeriodSeconds as number | undefined) ?? 0);
}
