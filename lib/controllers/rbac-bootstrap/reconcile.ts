/**
 * Auto-reconciliation of the default RBAC policy (spec 001 § RBAC mode; upstream
 * `pkg/registry/rbac/reconciliation` and the `rbac/bootstrap-roles` post-start hook): every
 * default object that is missing is created; an existing one whose annotation
 * `rbac.authorization.<vendor>/autoupdate` is not `"false"` gets the missing labels and
 * annotations, the missing rules (roles), the expected aggregation rule (ClusterRoles) and the
 * missing subjects (bindings); a binding whose roleRef differs is deleted and created again.
 * Nothing is ever removed from an object. Safe with several servers starting at once: a create
 * that finds the object re-reads it, updates apply to the current object and retry on conflict.
 */
import { deepEqual } from '../../apimachinery/deep-equal.js';
import { forEachConcurrently } from '../../apimachinery/concurrently.js';
import { isReason } from '../../apimachinery/errors.js';
import type { Obj } from '../../apis/define.js';
import type { DefaultBinding, DefaultPolicy, DefaultRole, PolicyRule, Subject } from '../../apis/rbac/bootstrap-policy/index.js';
import { RBAC_AUTOUPDATE_ANNOTATION } from '../../apis/vendor.js';
import type { RequestContext } from '../../request/context.js';
import type { Store } from '../../registry/generic/store.js';
import { createObject, listByName, updateObject } from '../writes.js';
import { uncoveredRules } from './covers.js';

/** The four RBAC stores the policy is written through. */
export interface RBACStores {
  clusterRoles: Store;
  clusterRoleBindings: Store;
  roles: Store;
  roleBindings: Store;
}

/** How many times one object is re-read after losing a race (create vs create, delete vs create). */
const MAX_ATTEMPTS = 10;
/** Objects reconciled at once within one phase. */
const RECONCILE_CONCURRENCY = 16;

type Meta = { name: string; namespace?: string; uid?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
const metaOf = (obj: Obj): Meta => (obj.metadata ?? {}) as Meta;

/** Whether reconciliation of `existing` is switched off (`autoupdate: "false"`). */
export function isProtected(existing: Obj): boolean {
  return metaOf(existing).annotations?.[RBAC_AUTOUPDATE_ANNOTATION] === 'false';
}

/** Adds the expected labels and annotations the object lacks (existing values win, as upstream's merge). Returns whether it changed. */
function mergeMeta(obj: Obj, expected: DefaultRole['metadata']): boolean {
  const meta = metaOf(obj);
  let changed = false;
  for (const field of ['labels', 'annotations'] as const) {
    const have = { ...(meta[field] ?? {}) };
    for (const [k, v] of Object.entries(expected[field])) {
      if (!(k in have)) {
        have[k] = v;
        changed = true;
      }
    }
    if (changed) meta[field] = have;
  }
  return changed;
}

/**
 * Reconciles `obj` (a copy of the stored role) towards `expected` in place (upstream
 * `computeReconciledRole` with RemoveExtraPermissions off). Returns whether it changed.
 */
export function reconcileRole(obj: Obj, expected: DefaultRole): boolean {
  let changed = mergeMeta(obj, expected.metadata);
  const existingRules = (obj.rules as PolicyRule[] | undefined) ?? [];
  const current = obj.aggregationRule as { clusterRoleSelectors?: Obj[] } | undefined;
  if (expected.aggregationRule) {
    const have = current?.clusterRoleSelectors ?? [];
    const missing = expected.aggregationRule.clusterRoleSelectors.filter((want) => !have.some((s) => deepEqual(s, want)));
    if (!current || missing.length > 0) {
      obj.aggregationRule = { clusterRoleSelectors: [...have, ...missing] };
      changed = true;
    }
  } else if (current) {
    // upstream: a role that is not expected to be aggregated loses its aggregation rule
    delete obj.aggregationRule;
    changed = true;
  }
  // Rules of an aggregated role are the aggregation controller's to fill.
  if (!expected.aggregationRule) {
    const missing = uncoveredRules(existingRules, expected.rules);
    if (missing.length > 0) {
      obj.rules = [...existingRules, ...missing];
      changed = true;
    }
  }
  return changed;
}

const sameSubject = (a: Subject, b: Subject) => a.kind === b.kind && a.name === b.name && (a.namespace ?? '') === (b.namespace ?? '');

/**
 * Reconciles `obj` (a copy of the stored binding) towards `expected` in place (upstream
 * `computeReconciledRoleBinding` with RemoveExtraSubjects off): missing subjects appended.
 * Returns whether it changed; the caller checks the roleRef first.
 */
export function reconcileBinding(obj: Obj, expected: DefaultBinding): boolean {
  let changed = mergeMeta(obj, expected.metadata);
  const subjects = (obj.subjects as Subject[] | undefined) ?? [];
  const missing = (expected.subjects ?? []).filter((want) => !subjects.some((s) => sameSubject(s, want)));
  if (missing.length > 0) {
    obj.subjects = [...subjects, ...missing];
    changed = true;
  }
  return changed;
}

/** Whether a stored binding's roleRef equals the expected one. */
function sameRoleRef(obj: Obj, expected: DefaultBinding): boolean {
  const ref = (obj.roleRef ?? {}) as Obj;
  return ref.apiGroup === expected.roleRef.apiGroup && ref.kind === expected.roleRef.kind && ref.name === expected.roleRef.name;
}

async function getOrNull(ctx: RequestContext, store: Store, namespace: string, name: string): Promise<Obj | null> {
  try {
    return await store.get(ctx, namespace, name);
  } catch (err) {
    if (isReason(err, 'NotFound')) return null;
    throw err;
  }
}

/**
 * Reconciles one role (Role or ClusterRole) with the store; `listed` is the object as its phase's
 * list found it (null: absent), read again only after losing a race.
 */
async function ensureRole(ctx: RequestContext, store: Store, expected: DefaultRole, listed: Obj | null): Promise<void> {
  const { name, namespace = '' } = expected.metadata;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const existing = attempt === 0 ? listed : await getOrNull(ctx, store, namespace, name);
    if (!existing) {
      if (await createObject(ctx, store, namespace, expected as unknown as Obj)) return;
      continue;
    }
    if (isProtected(existing)) return;
    if (!reconcileRole(structuredClone(existing), expected)) return;
    if (
      await updateObject(ctx, store, namespace, name, (obj) => {
        if (!isProtected(obj)) reconcileRole(obj, expected);
      })
    ) {
      return;
    }
  }
  throw new Error(`could not reconcile ${store.gr.resource} ${JSON.stringify(name)}: it kept changing`);
}

/** Reconciles one binding (RoleBinding or ClusterRoleBinding) with the store, as {@link ensureRole}. */
async function ensureBinding(ctx: RequestContext, store: Store, expected: DefaultBinding, listed: Obj | null): Promise<void> {
  const { name, namespace = '' } = expected.metadata;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const existing = attempt === 0 ? listed : await getOrNull(ctx, store, namespace, name);
    if (!existing) {
      if (await createObject(ctx, store, namespace, expected as unknown as Obj)) return;
      continue;
    }
    if (isProtected(existing)) return;
    if (!sameRoleRef(existing, expected)) {
      // roleRef is immutable: upstream deletes the binding and creates the expected one.
      try {
        await store.delete(ctx, namespace, name, { preconditions: { uid: metaOf(existing).uid } });
      } catch (err) {
        if (!isReason(err, 'NotFound') && !isReason(err, 'Conflict')) throw err;
      }
      continue;
    }
    if (!reconcileBinding(structuredClone(existing), expected)) return;
    if (
      await updateObject(ctx, store, namespace, name, (obj) => {
        if (!isProtected(obj) && sameRoleRef(obj, expected)) reconcileBinding(obj, expected);
      })
    ) {
      return;
    }
  }
  throw new Error(`could not reconcile ${store.gr.resource} ${JSON.stringify(name)}: it kept changing`);
}

/** The stored objects a phase starts from, by namespace ('' for cluster-scoped ones), then by name. */
type Listed = Map<string, Map<string, Obj>>;

/** Lists `store` once per namespace that `expected` names. */
async function listPhase(ctx: RequestContext, store: Store, expected: readonly (DefaultRole | DefaultBinding)[]): Promise<Listed> {
  const namespaces = [...new Set(expected.map((e) => e.metadata.namespace ?? ''))];
  return new Map(await Promise.all(namespaces.map(async (ns) => [ns, await listByName(ctx, store, ns)] as const)));
}

/** One phase: the objects of `expected`, reconciled concurrently from what `listed` holds of them. */
function reconcilePhase<T extends DefaultRole | DefaultBinding>(
  ctx: RequestContext,
  store: Store,
  expected: readonly T[],
  listed: Listed,
  ensure: (ctx: RequestContext, store: Store, expected: T, listed: Obj | null) => Promise<void>,
): Promise<void> {
  return forEachConcurrently(expected, RECONCILE_CONCURRENCY, (e) => ensure(ctx, store, e, listed.get(e.metadata.namespace ?? '')!.get(e.metadata.name) ?? null));
}

/**
 * Creates and reconciles the whole default policy, roles before bindings (upstream's order:
 * cluster roles, cluster role bindings, then namespaced roles and bindings); the objects of one
 * phase are independent and reconciled concurrently. The four kinds are first read with one list
 * each (per namespace for the namespaced ones), all at once: a get per object took most of the
 * hook's ~300 ms at every start. An object is read again only after losing a race.
 * @throws StatusError from the stores; Error when an object kept changing under it.
 */
export async function reconcileDefaultPolicy(ctx: RequestContext, stores: RBACStores, policy: DefaultPolicy): Promise<void> {
  const [clusterRoles, clusterRoleBindings, roles, roleBindings] = await Promise.all([
    listPhase(ctx, stores.clusterRoles, policy.clusterRoles),
    listPhase(ctx, stores.clusterRoleBindings, policy.clusterRoleBindings),
    listPhase(ctx, stores.roles, policy.roles),
    listPhase(ctx, stores.roleBindings, policy.roleBindings),
  ]);
  await reconcilePhase(ctx, stores.clusterRoles, policy.clusterRoles, clusterRoles, ensureRole);
  await reconcilePhase(ctx, stores.clusterRoleBindings, policy.clusterRoleBindings, clusterRoleBindings, ensureBinding);
  await reconcilePhase(ctx, stores.roles, policy.roles, roles, ensureRole);
  await reconcilePhase(ctx, stores.roleBindings, policy.roleBindings, roleBindings, ensureBinding);
}
