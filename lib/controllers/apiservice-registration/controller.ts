/**
 * The APIServices of the server's own group versions (upstream v1.30 kube-apiserver
 * `kube-apiserver-autoregistration` post-start hook and kube-aggregator's autoregister
 * controller, "sync on start"): for every served group version with a priority
 * (priorities.ts) an APIService named `<version>.<group>` (`v1.` for the core group) with
 * `service: null` (local), the group, the version and the priorities, labeled
 * APISERVICE_AUTOMANAGED_LABEL=onstart. At start, as upstream's table for sync-on-start:
 * a missing one is created (the strategy marks it Available); one carrying the label that existed
 * when the sync began gets the desired spec if its spec differs; one without the label belongs
 * to its writer and is left alone; one carrying the label that is no longer served is deleted
 * (preconditioned on its uid). Safe with several servers starting at once: a create that finds
 * the object re-reads it, an object another server created meanwhile is left to it, updates
 * apply to the current object and retry on conflict, deletes tolerate losing the race.
 */
import { deepEqual } from '../../apimachinery/deep-equal.js';
import { isReason } from '../../apimachinery/errors.js';
import { canonicalize } from '../../apimachinery/schema/canonical.js';
import { apiServiceSpec, APIREGISTRATION_GROUP } from '../../apis/apiregistration/v1/index.js';
import type { Obj } from '../../apis/define.js';
import { APISERVICE_AUTOMANAGED_LABEL, APISERVICE_MANAGED_ON_START, SERVER_NAME } from '../../apis/vendor.js';
import type { RequestContext } from '../../request/context.js';
import type { ResourceStorage } from '../../registry/generic/resource-storage.js';
import type { Store } from '../../registry/generic/store.js';
import { EVERYTHING } from '../../storage/interface.js';
import { createObject, updateObject } from '../writes.js';
import { apiServicePriority } from '../../apis/apiregistration/v1/priorities.js';

/** The post-start hook's name (upstream `kube-apiserver-autoregistration`). */
export const APISERVICE_REGISTRATION_HOOK = `${SERVER_NAME}-autoregistration`;

/** A served group version; entries naming the vendor group they alias (`aliasOf`) are the same API and get no APIService. */
export interface ServedGroupVersion {
  group: string;
  version: string;
  aliasOf?: string;
}

/** How many times one APIService is re-read after losing a race. */
const MAX_ATTEMPTS = 10;

type Meta = { name?: string; uid?: string; labels?: Record<string, string> };
const metaOf = (o: Obj): Meta => (o.metadata ?? {}) as Meta;
const managedOnStart = (o: Obj): boolean => metaOf(o).labels?.[APISERVICE_AUTOMANAGED_LABEL] === APISERVICE_MANAGED_ON_START;
const sameSpec = (a: unknown, b: unknown): boolean => deepEqual(canonicalize(apiServiceSpec, (a ?? {}) as Obj), canonicalize(apiServiceSpec, (b ?? {}) as Obj));

/** The APIServices the server wants for `served`, in order, one per group version (aliases and unknown group versions skipped). */
export function desiredAPIServices(served: readonly ServedGroupVersion[]): Obj[] {
  const out = new Map<string, Obj>();
  for (const { group, version, aliasOf } of served) {
    const priority = aliasOf === undefined ? apiServicePriority(group, version) : undefined;
    if (!priority) continue;
    const name = `${version}.${group}`;
    out.set(name, {
      metadata: { name, labels: { [APISERVICE_AUTOMANAGED_LABEL]: APISERVICE_MANAGED_ON_START } },
      spec: { service: null, group, version, groupPriorityMinimum: priority.group, versionPriority: priority.version },
    });
  }
  return [...out.values()];
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
 * Brings one desired APIService about; `atStart` holds the uids of the objects present when the
 * sync began, `listed` the object as that list found it (null: absent), read again only after
 * losing a race (a restart makes no request per APIService that is already right).
 */
async function ensure(ctx: RequestContext, store: Store, desired: Obj, atStart: ReadonlySet<string>, listed: Obj | null): Promise<void> {
  const name = metaOf(desired).name!;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const current = attempt === 0 ? listed : await getOrNull(ctx, store, name);
    if (!current) {
      if (await createObject(ctx, store, '', desired)) return;
      continue;
    }
    if (!managedOnStart(current) || !atStart.has(metaOf(current).uid ?? '') || sameSpec(current.spec, desired.spec)) return;
    const updated = await updateObject(ctx, store, '', name, (obj) => {
      if (managedOnStart(obj)) obj.spec = structuredClone(desired.spec);
    });
    if (updated) return;
  }
  throw new Error(`could not register apiservices ${JSON.stringify(name)}: it kept changing`);
}

/** Deletes an APIService this server managed that it no longer serves (losing a race to a delete or a recreate is fine). */
async function remove(ctx: RequestContext, store: Store, obj: Obj): Promise<void> {
  try {
    await store.delete(ctx, '', metaOf(obj).name!, { preconditions: { uid: metaOf(obj).uid } });
  } catch (err) {
    if (!isReason(err, 'NotFound') && !isReason(err, 'Conflict')) throw err;
  }
}

/**
 * Synchronizes the APIServices of `served` once (see the module description).
 * @throws StatusError from the store; Error when an APIService kept changing under it.
 */
export async function registerLocalAPIServices(ctx: RequestContext, store: Store, served: readonly ServedGroupVersion[]): Promise<void> {
  const existing = (await store.list(ctx, '', { predicate: EVERYTHING })).items;
  const atStart = new Set(existing.map((o) => metaOf(o).uid ?? ''));
  const desired = desiredAPIServices(served);
  const wanted = new Set(desired.map((d) => metaOf(d).name));
  const byName = new Map(existing.map((o) => [metaOf(o).name, o]));
  await Promise.all(desired.map((d) => ensure(ctx, store, d, atStart, byName.get(metaOf(d).name) ?? null)));
  await Promise.all(existing.filter((o) => managedOnStart(o) && !wanted.has(metaOf(o).name)).map((o) => remove(ctx, store, o)));
}

/**
 * The start-time sync of a control plane: finds the APIService store among `resources` and reads
 * the served group versions when it runs (every resource is installed by then).
 * @throws Error when the control plane serves no APIServices.
 */
export function apiServiceRegistration(ctx: RequestContext, resources: readonly ResourceStorage[], served: () => readonly ServedGroupVersion[]): () => Promise<void> {
  const r = resources.find((x) => x.store.strategy.kind.group === APIREGISTRATION_GROUP && x.store.strategy.kind.resource === 'apiservices');
  if (!r) throw new Error('the control plane serves no apiservices');
  return () => registerLocalAPIServices(ctx, r.store, served());
}
