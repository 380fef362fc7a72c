/**
 * The API Priority and Fairness configuration producer (upstream v1.30 post-start hook
 * `priority-and-fairness-config-producer`): at start, and then every minute, the suggested
 * PriorityLevelConfigurations and FlowSchemas, then the mandatory ones, are created when missing
 * and revised as revise.ts decides; then default objects this release no longer has are deleted.
 * The hook is done once a first pass succeeded (retried every second until then).
 *
 * Safe with several servers starting at once: a create that finds the object (409
 * AlreadyExists) reads it again and revises it; revisions apply to the current object and retry
 * on conflict; a delete of an object already gone is fine. Writes go through the stores, with
 * upstream's field manager `api-priority-and-fairness-config-producer-v1`.
 */
import { forEachConcurrently } from '../../apimachinery/concurrently.js';
import { isReason } from '../../apimachinery/errors.js';
import type { Obj } from '../../apis/define.js';
import { FLOWCONTROL_GROUP, mandatoryFlowSchemas, mandatoryPriorityLevels, suggestedFlowSchemas, suggestedPriorityLevels, type BootstrapObject } from '../../apis/flowcontrol/v1/index.js';
import type { RequestContext } from '../../request/context.js';
import type { ResourceStorage } from '../../registry/generic/resource-storage.js';
import type { Store } from '../../registry/generic/store.js';
import { createObject, listByName, updateObject } from '../writes.js';
import { isUnwanted, reviseIfNeeded } from './revise.js';

/** The hook's name, as upstream's. */
export const FLOWCONTROL_BOOTSTRAP_HOOK = 'priority-and-fairness-config-producer';
/** The field manager of the producer's writes (upstream's). */
export const FIELD_MANAGER = 'api-priority-and-fairness-config-producer-v1';
/** Upstream's period of the reconciliation after start. */
export const RECONCILE_INTERVAL_MS = 60_000;

/** How many times one object is read again after losing a race. */
const MAX_ATTEMPTS = 10;
/** Objects reconciled at once within one phase. */
const ENSURE_CONCURRENCY = 16;

/** What the producer writes through and reports to. */
export interface FlowControlBootstrapConfig {
  flowSchemas: Store;
  priorityLevels: Store;
  /** Context of the writes (a privileged internal user); the field manager is set from it. */
  ctx: RequestContext;
  /** Failed passes (retried). */
  onError: (err: unknown) => void;
  /** Period of the reconciliation after the first pass; default RECONCILE_INTERVAL_MS. */
  intervalMs?: number;
}

/** The stores of flowschemas and prioritylevelconfigurations among the served resources. */
export function flowControlStores(resources: readonly ResourceStorage[]): Pick<FlowControlBootstrapConfig, 'flowSchemas' | 'priorityLevels'> {
  const storeOf = (resource: string): Store => {
    const r = resources.find((x) => x.store.strategy.kind.group === FLOWCONTROL_GROUP && x.store.strategy.kind.resource === resource);
    if (!r) throw new Error(`the control plane serves no ${resource}`);
    return r.store;
  };
  return { flowSchemas: storeOf('flowschemas'), priorityLevels: storeOf('prioritylevelconfigurations') };
}

async function getOrNull(ctx: RequestContext, store: Store, name: string): Promise<Obj | null> {
  try {
    return await store.get(ctx, '', name);
  } catch (err) {
    if (isReason(err, 'NotFound')) return null;
    throw err;
  }
}

/**
 * Creates or revises one built-in object (upstream `EnsureConfiguration`); `listed` is the object
 * as the pass's list found it (null: absent), read again only after losing a race.
 */
async function ensureObject(ctx: RequestContext, store: Store, bootstrap: BootstrapObject, mandatory: boolean, listed: Obj | null): Promise<void> {
  const kind = store.strategy.kind;
  const name = bootstrap.metadata.name;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const current = attempt === 0 ? listed : await getOrNull(ctx, store, name);
    if (!current) {
      if (await createObject(ctx, store, '', bootstrap)) return;
      continue;
    }
    if (!reviseIfNeeded(kind, current, bootstrap, mandatory)) return;
    const revise = (obj: Obj) => {
      const revised = reviseIfNeeded(kind, obj, bootstrap, mandatory);
      if (revised) Object.assign(obj, { metadata: revised.metadata, spec: revised.spec });
    };
    if (await updateObject(ctx, store, '', name, revise)) return;
  }
  throw new Error(`could not ensure ${store.gr.resource} ${JSON.stringify(name)}: it kept changing`);
}

/** Deletes the objects of `listed` (the pass's list of `store`) that are not built in but carry autoupdate `"true"`. */
async function removeUnwanted(ctx: RequestContext, store: Store, listed: ReadonlyMap<string, Obj>, bootstrap: readonly BootstrapObject[]): Promise<void> {
  const wanted = new Set(bootstrap.map((o) => o.metadata.name));
  for (const obj of listed.values()) {
    if (!isUnwanted(obj, wanted)) continue;
    try {
      await store.delete(ctx, '', (obj.metadata as { name: string }).name, {});
    } catch (err) {
      if (!isReason(err, 'NotFound')) throw err;
    }
  }
}

/**
 * One pass, in upstream's order: suggested levels, suggested schemas, mandatory levels,
 * mandatory schemas, then unwanted schemas and levels deleted (the objects of one step
 * concurrently: they are independent). Both kinds are read with one list each first; an object
 * is read again only after losing a race.
 * @throws StatusError from the stores; Error when an object kept changing under it.
 */
export async function ensureFlowControlConfiguration(cfg: FlowControlBootstrapConfig): Promise<void> {
  const ctx: RequestContext = { ...cfg.ctx, userAgent: FIELD_MANAGER };
  const levels = { suggested: suggestedPriorityLevels(), mandatory: mandatoryPriorityLevels() };
  const schemas = { suggested: suggestedFlowSchemas(), mandatory: mandatoryFlowSchemas() };
  const [listedLevels, listedSchemas] = await Promise.all([listByName(ctx, cfg.priorityLevels, ''), listByName(ctx, cfg.flowSchemas, '')]);
  const ensure = (store: Store, listed: ReadonlyMap<string, Obj>, objects: readonly BootstrapObject[], mandatory: boolean) =>
    forEachConcurrently(objects, ENSURE_CONCURRENCY, (o) => ensureObject(ctx, store, o, mandatory, listed.get(o.metadata.name) ?? null));
  await ensure(cfg.priorityLevels, listedLevels, levels.suggested, false);
  await ensure(cfg.flowSchemas, listedSchemas, schemas.suggested, false);
  await ensure(cfg.priorityLevels, listedLevels, levels.mandatory, true);
  await ensure(cfg.flowSchemas, listedSchemas, schemas.mandatory, true);
  await removeUnwanted(ctx, cfg.flowSchemas, listedSchemas, [...schemas.mandatory, ...schemas.suggested]);
  await removeUnwanted(ctx, cfg.priorityLevels, listedLevels, [...levels.mandatory, ...levels.suggested]);
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    timer.unref();
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * The post-start hook: resolves once a first pass succeeded (retried every second, each failure
 * reported), then keeps reconciling every `intervalMs` until `signal` aborts.
 */
export async function runFlowControlBootstrap(cfg: FlowControlBootstrapConfig, signal: AbortSignal): Promise<void> {
  for (;;) {
    if (signal.aborted) return;
    try {
      await ensureFlowControlConfiguration(cfg);
      break;
    } catch (err) {
      cfg.onError(err);
      await pause(1000, signal);
    }
  }
  void (async () => {
    for (;;) {
      await pause(cfg.intervalMs ?? RECONCILE_INTERVAL_MS, signal);
      if (signal.aborted) return;
      await ensureFlowControlConfiguration(cfg).catch(cfg.onError);
    }
  })();
}
