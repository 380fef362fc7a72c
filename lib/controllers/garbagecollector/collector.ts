/**
 * The garbage collector (upstream GarbageCollector, issue #12 item 3; spec 000 § Object deletion
 * lifecycle): informers over every served resource feed a {@link DependencyGraph}; a work queue
 * then
 * - deletes an object all of whose owners are absent (an owner is absent when no object of its
 *   kind and name exists, or one with another uid; a namespaced owner is looked up in the
 *   dependent's namespace, and a cluster-scoped dependent cannot have one), with the propagation
 *   its own finalizers ask for (Background otherwise), or in the Foreground when an owner waits
 *   for its dependents and it has dependents of its own;
 * - removes the references to absent owners, and to owners deleting in the foreground, from an
 *   object that still has a live owner;
 * - finishes a foreground deletion (removes `foregroundDeletion`) once no dependent blocks it
 *   (`blockOwnerDeletion`), deleting its dependents meanwhile;
 * - orphans: removes an owner's references from its dependents, then its `orphan` finalizer.
 * Owners are read live through their store before anything is deleted. Safe in several
 * replicas: every step is an idempotent write guarded by uid. Custom resources join and leave
 * the followed resources as their definitions are served (`addResource`).
 */
import { isReason, newNotFound } from '../../apimachinery/errors.js';
import type { Obj } from '../../apis/define.js';
import { canonicalGroup } from '../../apis/vendor.js';
import { Informer } from '../../client/informer.js';
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER, type Store } from '../../registry/generic/store.js';
import type { DeleteOptionsBody } from '../../registry/rest/strategy.js';
import type { RequestContext } from '../../request/context.js';
import { WorkQueue } from '../queue.js';
import { updateObject } from '../writes.js';
import { DependencyGraph, type GraphNode, nodeOf, type OwnerRef } from './graph.js';

/** What the collector works with. */
export interface GarbageCollectorConfig {
  /** Main stores of every served resource. */
  stores: Store[];
  /** Context of the collector's own requests (a privileged internal user). */
  ctx: RequestContext;
  onError: (err: unknown) => void;
}

/** How an owner reference stands (upstream classifyReferences). */
type OwnerState = 'solid' | 'dangling' | 'waiting';

const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? canonicalGroup(apiVersion.slice(0, apiVersion.indexOf('/'))) : '');

/** The garbage collector of one server. */
export class GarbageCollector {
  readonly graph = new DependencyGraph();
  private readonly queue = new WorkQueue();
  private readonly byGroupKind = new Map<string, number>();
  /** The stores by resource index; a removed resource leaves an empty slot. */
  private readonly stores: Array<Store | undefined>;
  /** The informers of the resources given at construction (the ones `waitForSync` waits for). */
  private readonly informers: Informer[];
  /** Resources added while not yet running: started by `run`. */
  private readonly pending: Array<{ informer: Informer; signal: AbortSignal }> = [];
  private signal: AbortSignal | undefined;

  constructor(private readonly cfg: GarbageCollectorConfig) {
    this.stores = [...cfg.stores];
    this.informers = cfg.stores.map((store, i) => this.track(store, i));
  }

  /** Indexes `store` as resource `i` and returns the informer feeding its objects into the graph. */
  private track(store: Store, i: number): Informer {
    this.byGroupKind.set(`${store.strategy.kind.group}/${store.strategy.kind.kind}`, i);
    const informer = new Informer(store.storage, store.prefixFor(''), this.cfg.onError);
    informer.addHandler((type, obj) => {
      const work = type === 'DELETED' ? this.graph.remove(String(obj.metadata?.uid ?? '')) : this.graph.upsert(nodeOf(obj, i));
      for (const key of work) this.queue.add(key);
    });
    return informer;
  }

  /**
   * Collects the objects of one more resource from now on (a custom resource, issue #14): its
   * objects join the graph and its kind can own others. Returns the function that stops
   * following it (its objects are left in the graph until they are deleted; a later resource of
   * the same kind takes its place as owner).
   */
  addResource(store: Store): () => void {
    const i = this.stores.length;
    this.stores.push(store);
    const informer = this.track(store, i);
    const stop = new AbortController();
    if (this.signal) void informer.run(AbortSignal.any([this.signal, stop.signal]));
    else this.pending.push({ informer, signal: stop.signal });
    return () => {
      stop.abort();
      const key = `${store.strategy.kind.group}/${store.strategy.kind.kind}`;
      if (this.byGroupKind.get(key) === i) this.byGroupKind.delete(key);
      this.stores[i] = undefined;
    };
  }

  /** Starts the informers, waits until the initial ones have listed, then works until `signal` aborts. */
  async run(signal: AbortSignal): Promise<void> {
    this.signal = signal;
    for (const i of this.informers) void i.run(signal);
    for (const p of this.pending.splice(0)) if (!p.signal.aborted) void p.informer.run(AbortSignal.any([signal, p.signal]));
    await Promise.all(this.informers.map((i) => i.waitForSync()));
    await this.queue.run(signal, (key) => this.sync(key), (err) => this.cfg.onError(err));
  }

  /** Resolves once every informer has listed (for tests and readiness). */
  async waitForSync(): Promise<void> {
    await Promise.all(this.informers.map((i) => i.waitForSync()));
  }

  private async sync(key: string): Promise<void> {
    const uid = key.slice(key.indexOf(':') + 1);
    const node = this.graph.node(uid);
    if (!node) return;
    if (key.startsWith('orphan:')) await this.orphanDependents(node);
    else await this.attemptToDelete(node);
  }

  /** The store of `n`'s resource; undefined once that resource is no longer followed. */
  private storeOf(n: GraphNode): Store | undefined {
    return this.stores[n.resource];
  }

  /** The live object of `n`, or undefined when it is gone, was replaced (another uid) or its resource is no longer served. */
  private async live(n: GraphNode): Promise<Obj | undefined> {
    const store = this.storeOf(n);
    if (!store) return undefined;
    try {
      const obj = await store.get(this.cfg.ctx, n.namespace, n.name);
      return (obj.metadata as Obj).uid === n.uid ? obj : undefined;
    } catch (err) {
      if (isReason(err, 'NotFound')) return undefined;
      throw err;
    }
  }

  /** Where the owner of `ref` would be, or undefined when it cannot exist for this dependent. */
  private ownerStore(ref: OwnerRef, dependent: GraphNode): { store: Store; namespace: string } | 'unknown' | undefined {
    const i = this.byGroupKind.get(`${groupOf(ref.apiVersion)}/${ref.kind}`);
    const store = i === undefined ? undefined : this.stores[i];
    if (!store) return 'unknown';
    if (!store.strategy.namespaceScoped()) return { store, namespace: '' };
    return dependent.namespace === '' ? undefined : { store, namespace: dependent.namespace };
  }

  /**
   * Solid, dangling (absent) or waiting for its dependents (deleting in the foreground). An owner
   * of a kind this server does not serve counts as solid: nothing can be decided about it.
   */
  private async classify(ref: OwnerRef, dependent: GraphNode): Promise<OwnerState> {
    const where = this.ownerStore(ref, dependent);
    if (where === 'unknown') return 'solid';
    if (!where) return 'dangling';
    let owner: Obj;
    try {
      owner = await where.store.get(this.cfg.ctx, where.namespace, ref.name);
    } catch (err) {
      if (isReason(err, 'NotFound')) return 'dangling';
      throw err;
    }
    const m = owner.metadata as Obj;
    if (m.uid !== ref.uid) return 'dangling';
    return m.deletionTimestamp && ((m.finalizers as string[] | undefined) ?? []).includes(FOREGROUND_FINALIZER) ? 'waiting' : 'solid';
  }

  /** Upstream attemptToDeleteItem. */
  private async attemptToDelete(n: GraphNode): Promise<void> {
    const obj = await this.live(n);
    if (!obj) return;
    const current = nodeOf(obj, n.resource);
    if (current.beingDeleted && !current.deletingDependents) return;
    if (current.deletingDependents) {
      await this.finishForeground(current);
      return;
    }
    if (current.owners.length === 0) return;
    const states = await Promise.all(current.owners.map((o) => this.classify(o, current)));
    const notSolid = new Set(current.owners.filter((_, i) => states[i] !== 'solid').map((o) => o.uid));
    if (states.includes('solid')) {
      if (notSolid.size > 0) await this.removeOwnerRefs(current, notSolid);
      return;
    }
    const finalizers = ((obj.metadata as Obj).finalizers as string[] | undefined) ?? [];
    let policy: DeleteOptionsBody['propagationPolicy'] = 'Background';
    if (states.includes('waiting') && this.graph.dependents(current.uid).length > 0) policy = 'Foreground';
    else if (finalizers.includes(ORPHAN_FINALIZER)) policy = 'Orphan';
    else if (finalizers.includes(FOREGROUND_FINALIZER)) policy = 'Foreground';
    await this.delete(current, policy);
  }

  /** Upstream processDeletingDependentsItem: wait for blocking dependents, then remove the finalizer. */
  private async finishForeground(owner: GraphNode): Promise<void> {
    const blocking = this.graph.dependents(owner.uid).filter((d) => d.owners.some((o) => o.uid === owner.uid && o.blockOwnerDeletion));
    if (blocking.length === 0) {
      await this.removeFinalizer(owner, FOREGROUND_FINALIZER);
      return;
    }
    for (const d of blocking) if (!d.deletingDependents) this.queue.add(`delete:${d.uid}`);
  }

  /** Upstream attemptToOrphan: drop the owner from its dependents, then its `orphan` finalizer. */
  private async orphanDependents(owner: GraphNode): Promise<void> {
    const obj = await this.live(owner);
    if (!obj || !nodeOf(obj, owner.resource).orphaning) return;
    for (const d of this.graph.dependents(owner.uid)) await this.removeOwnerRefs(d, new Set([owner.uid]));
    await this.removeFinalizer(owner, ORPHAN_FINALIZER);
  }

  private async delete(n: GraphNode, propagationPolicy: DeleteOptionsBody['propagationPolicy']): Promise<void> {
    const store = this.storeOf(n);
    if (!store) return;
    try {
      await store.delete(this.cfg.ctx, n.namespace, n.name, { propagationPolicy, preconditions: { uid: n.uid } });
    } catch (err) {
      if (!isReason(err, 'NotFound') && !isReason(err, 'Conflict')) throw err;
    }
  }

  /** Changes the metadata of the live object of `n` (same uid) with `mutate`; nothing when it is gone. */
  private async updateLive(n: GraphNode, mutate: (meta: Obj) => void): Promise<void> {
    const store = this.storeOf(n);
    if (!store) return;
    await updateObject(this.cfg.ctx, store, n.namespace, n.name, (obj) => {
      const meta = obj.metadata as Obj;
      if (meta.uid !== n.uid) throw newNotFound(store.gr, n.name);
      mutate(meta);
    });
  }

  private async removeOwnerRefs(n: GraphNode, uids: ReadonlySet<string>): Promise<void> {
    await this.updateLive(n, (m) => {
      const refs = ((m.ownerReferences as Obj[] | undefined) ?? []).filter((r) => !uids.has(r.uid as string));
      if (refs.length > 0) m.ownerReferences = refs;
      else delete m.ownerReferences;
    });
  }

  private async removeFinalizer(n: GraphNode, finalizer: string): Promise<void> {
    await this.updateLive(n, (m) => {
      const finalizers = ((m.finalizers as string[] | undefined) ?? []).filter((f) => f !== finalizer);
      if (finalizers.length > 0) m.finalizers = finalizers;
      else delete m.finalizers;
    });
  }
}
