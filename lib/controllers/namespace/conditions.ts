/**
 * The deletion conditions the namespace controller reports on a terminating namespace (upstream
 * v1.30 namespaced-resources deleter: `NamespaceDeletionDiscoveryFailure`,
 * `NamespaceDeletionGroupVersionParsingFailure`, `NamespaceDeletionContentFailure`,
 * `NamespaceContentRemaining`, `NamespaceFinalizersRemaining`, always all five, in that order, with
 * upstream's reasons and messages), as `kubectl describe namespace` shows them.
 */
import type { Obj } from '../../apis/define.js';

/** What one pass over a namespace's content found. */
export interface ContentTally {
  /** `<resource>.<group>` → objects still present after the pass. */
  remaining: Map<string, number>;
  /** finalizer → objects still holding it. */
  finalizers: Map<string, number>;
  /** Errors of resources whose content could not be deleted (their messages). */
  failures: string[];
}

/** An empty tally. */
export function newTally(): ContentTally {
  return { remaining: new Map(), finalizers: new Map(), failures: [] };
}

/** Counts `items` (what a delete left of resource `resource`, group `group`) into `tally`. */
export function tallyRemaining(tally: ContentTally, resource: string, group: string, items: Obj[]): void {
  if (items.length === 0) return;
  const key = `${resource}.${group}`;
  tally.remaining.set(key, (tally.remaining.get(key) ?? 0) + items.length);
  for (const o of items) {
    for (const f of ((o.metadata as Obj | undefined)?.finalizers as string[] | undefined) ?? []) tally.finalizers.set(f, (tally.finalizers.get(f) ?? 0) + 1);
  }
}

interface Condition {
  type: string;
  status: 'True' | 'False';
  reason: string;
  message: string;
}

const sortedEntries = (m: Map<string, number>) => [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** The five conditions of a pass, without times. */
export function deletionConditions(tally: ContentTally): Condition[] {
  const remaining = sortedEntries(tally.remaining);
  const finalizers = sortedEntries(tally.finalizers);
  return [
    { type: 'NamespaceDeletionDiscoveryFailure', status: 'False', reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
    { type: 'NamespaceDeletionGroupVersionParsingFailure', status: 'False', reason: 'ParsedGroupVersions', message: 'All legacy kube types successfully parsed' },
    tally.failures.length > 0
      ? { type: 'NamespaceDeletionContentFailure', status: 'True', reason: 'ContentDeletionFailed', message: `Failed to delete all resource types, ${tally.failures.length} remaining: ${tally.failures.join(', ')}` }
      : { type: 'NamespaceDeletionContentFailure', status: 'False', reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization' },
    remaining.length > 0
      ? { type: 'NamespaceContentRemaining', status: 'True', reason: 'SomeResourcesRemain', message: `Some resources are remaining: ${remaining.map(([r, n]) => `${r} has ${n} resource instances`).join(', ')}` }
      : { type: 'NamespaceContentRemaining', status: 'False', reason: 'ContentRemoved', message: 'All content successfully removed' },
    finalizers.length > 0
      ? { type: 'NamespaceFinalizersRemaining', status: 'True', reason: 'SomeFinalizersRemain', message: `Some content in the namespace has finalizers remaining: ${finalizers.map(([f, n]) => `${f} in ${n} resource instances`).join(', ')}` }
      : { type: 'NamespaceFinalizersRemaining', status: 'False', reason: 'ContentHasNoFinalizers', message: 'All content-preserving finalizers finished' },
  ];
}

/**
 * `status.conditions` of a namespace after a pass: the five deletion conditions (a condition
 * keeps its `lastTransitionTime` while its status does not change; `now` otherwise), any other
 * condition kept. Undefined when nothing changes.
 */
export function nextConditions(current: Obj[] | undefined, tally: ContentTally, now: string): Obj[] | undefined {
  const old = new Map((current ?? []).map((c) => [c.type as string, c]));
  const fresh = deletionConditions(tally);
  const types = new Set(fresh.map((c) => c.type));
  let changed = false;
  const out: Obj[] = (current ?? []).filter((c) => !types.has(c.type as string));
  for (const c of fresh) {
    const prev = old.get(c.type);
    const same = prev && prev.status === c.status && prev.reason === c.reason && prev.message === c.message;
    if (!same) changed = true;
    out.push({ type: c.type, status: c.status, lastTransitionTime: prev && prev.status === c.status ? prev.lastTransitionTime : now, reason: c.reason, message: c.message });
  }
  return changed ? out : undefined;
}
