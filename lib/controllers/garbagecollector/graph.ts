/**
 * The garbage collector's dependency graph (upstream GraphBuilder, issue #12 item 3; spec 000 §
 * Object deletion lifecycle): every object of every served resource by uid, with its owner
 * references, whether it is being deleted and with which garbage-collection finalizer, and the
 * reverse index owner uid → dependent uids (an owner need not exist: references to absent owners
 * are what the collector looks for). Fed by informer events, it answers which work an event
 * implies: dependents to check when an owner goes or starts deleting in the foreground, objects
 * whose owners are unknown, owners to orphan or to finish.
 */
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from '../../registry/generic/store.js';
import type { StoredObject } from '../../storage/interface.js';

/** One owner reference as the collector uses it. */
export interface OwnerRef {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  blockOwnerDeletion: boolean;
}

/** An object in the graph: where it lives (resource index, namespace, name) and its GC state. */
export interface GraphNode {
  uid: string;
  /** Index of the object's resource in the collector's resource list. */
  resource: number;
  namespace: string;
  name: string;
  owners: OwnerRef[];
  /** metadata.deletionTimestamp is set. */
  beingDeleted: boolean;
  /** Being deleted with the `foregroundDeletion` finalizer. */
  deletingDependents: boolean;
  /** Being deleted with the `orphan` finalizer. */
  orphaning: boolean;
}

/** Work an event implies, as queue keys: `delete:<uid>` (attempt to delete) or `orphan:<uid>`. */
export type WorkKey = `delete:${string}` | `orphan:${string}`;

/** The owner references of a stored object (malformed entries skipped). */
export function ownerRefsOf(obj: StoredObject): OwnerRef[] {
  const refs = obj.metadata?.ownerReferences;
  if (!Array.isArray(refs)) return [];
  const out: OwnerRef[] = [];
  for (const r of refs as Record<string, unknown>[]) {
    if (!r || typeof r.uid !== 'string' || r.uid === '') continue;
    out.push({ apiVersion: String(r.apiVersion ?? ''), kind: String(r.kind ?? ''), name: String(r.name ?? ''), uid: r.uid, blockOwnerDeletion: r.blockOwnerDeletion === true });
  }
  return out;
}

/** The graph node of `obj` in resource `resource`. */
export function nodeOf(obj: StoredObject, resource: number): GraphNode {
  const m = obj.metadata ?? {};
  const finalizers = Array.isArray(m.finalizers) ? (m.finalizers as string[]) : [];
  const beingDeleted = !!m.deletionTimestamp;
  return {
    uid: String(m.uid ?? ''),
    resource,
    namespace: String(m.namespace ?? ''),
    name: String(m.name ?? ''),
    owners: ownerRefsOf(obj),
    beingDeleted,
    deletingDependents: beingDeleted && finalizers.includes(FOREGROUND_FINALIZER),
    orphaning: beingDeleted && finalizers.includes(ORPHAN_FINALIZER),
  };
}

/** The dependency graph of one collector. */
export class DependencyGraph {
  private readonly nodes = new Map<string, GraphNode>();
  private readonly dependentsOf = new Map<string, Set<string>>();

  /** The node of `uid`, if the object is known. */
  node(uid: string): GraphNode | undefined {
    return this.nodes.get(uid);
  }

  /** The known objects whose owner references name `uid`. */
  dependents(uid: string): GraphNode[] {
    const out: GraphNode[] = [];
    for (const d of this.dependentsOf.get(uid) ?? []) {
      const n = this.nodes.get(d);
      if (n) out.push(n);
    }
    return out;
  }

  /** Objects known. */
  get size(): number {
    return this.nodes.size;
  }

  private link(n: GraphNode): void {
    for (const o of n.owners) {
      let s = this.dependentsOf.get(o.uid);
      if (!s) this.dependentsOf.set(o.uid, (s = new Set()));
      s.add(n.uid);
    }
  }

  private unlink(n: GraphNode): void {
    for (const o of n.owners) {
      const s = this.dependentsOf.get(o.uid);
      if (!s) continue;
      s.delete(n.uid);
      if (s.size === 0) this.dependentsOf.delete(o.uid);
    }
  }

  /**
   * Records an added or modified object and returns the work it implies (upstream
   * processGraphChanges): the object itself when an owner is unknown or is waiting for its
   * dependents; its dependents (and itself) when it starts deleting in the foreground; itself for
   * orphaning; owners in the foreground whose reference from it went away or stopped blocking.
   */
  upsert(n: GraphNode): WorkKey[] {
    if (n.uid === '') return [];
    const old = this.nodes.get(n.uid);
    if (old) this.unlink(old);
    this.nodes.set(n.uid, n);
    this.link(n);
    const work: WorkKey[] = [];
    if (n.orphaning) work.push(`orphan:${n.uid}`);
    if (n.deletingDependents && !old?.deletingDependents) {
      for (const d of this.dependentsOf.get(n.uid) ?? []) work.push(`delete:${d}`);
      work.push(`delete:${n.uid}`);
    }
    for (const o of n.owners) {
      const owner = this.nodes.get(o.uid);
      if (!owner || owner.deletingDependents) {
        work.push(`delete:${n.uid}`);
        break;
      }
    }
    if (old) {
      for (const o of old.owners) {
        const still = n.owners.find((x) => x.uid === o.uid);
        if (o.blockOwnerDeletion && !still?.blockOwnerDeletion && this.nodes.get(o.uid)?.deletingDependents) work.push(`delete:${o.uid}`);
      }
    }
    return work;
  }

  /**
   * Forgets a deleted object and returns the work it implies: its dependents (their owner is
   * gone) and its owners that wait for their dependents (one fewer to wait for).
   */
  remove(uid: string): WorkKey[] {
    const n = this.nodes.get(uid);
    if (!n) return [];
    this.unlink(n);
    this.nodes.delete(uid);
    const work: WorkKey[] = [];
    for (const d of this.dependentsOf.get(uid) ?? []) work.push(`delete:${d}`);
    for (const o of n.owners) if (this.nodes.get(o.uid)?.deletingDependents) work.push(`delete:${o.uid}`);
    return work;
  }
}
