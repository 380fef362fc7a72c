/**
 * The generic registry store: the create / get / list / update / delete / watch pipeline every
 * resource shares, parameterized by a strategy (ARCHITECTURE.md § One request, end to end;
 * spec 000 § Update rules, § Object deletion lifecycle, § Resource versions).
 */
import {
  type GroupResource,
  OBJECT_MODIFIED_MESSAGE,
  StatusError,
  type Status,
  newAlreadyExists,
  newBadRequest,
  newConflict,
  newInvalid,
  newNotFound,
  successStatus,
} from '../../apimachinery/errors.js';
import { deepCopy } from '../../apimachinery/deep-equal.js';
import { GoSyntax, invalid } from '../../apimachinery/field-errors.js';
import type { Obj } from '../../apis/define.js';
import { addWarning, type RequestContext } from '../../request/context.js';
import { isStorageError } from '../../storage/errors.js';
import { DELETE_OBJECT, type GetOptions, type ListOptions, type StorageInterface, type StoredObject, type Watcher } from '../../storage/interface.js';
import type { DeleteOptionsBody, Strategy } from '../rest/strategy.js';
import { type DeletionMeta, planDeletion } from './deletion.js';
import { carryUpdateMetadata, fillCreateMetadata, generateName, metaOf } from './object-meta.js';
import { interpretStorageError } from './storage-errors.js';

/** Admission's validating phase, handed down by the handler (the registry never imports admission). */
export type ValidateObjectFunc = (obj: Obj, old: Obj | null) => Promise<void>;

/**
 * Produces the object to write from the current one (`null` when it does not exist): a deep copy
 * it may change, or with {@link UpdateOptions.transformReadsOnly} the storage's object, only to be read.
 */
export type TransformFunc = (current: Obj | null) => Promise<Obj>;

/** Options of create. */
export interface CreateOptions {
  dryRun?: boolean;
  validate?: ValidateObjectFunc;
}

/** Options of update. */
export interface UpdateOptions {
  dryRun?: boolean;
  /** Create when missing even if the strategy disallows create-on-update (apply patches). */
  forceAllowCreate?: boolean;
  createValidation?: ValidateObjectFunc;
  updateValidation?: ValidateObjectFunc;
  /**
   * The transform only reads the current object it is given (it builds the next object apart,
   * and treats the current one as the old object of managed fields and admission): it is then
   * handed the storage's object itself, possibly the watch cache's, instead of a deep copy of it.
   */
  transformReadsOnly?: boolean;
}

/** Options of delete. */
export interface DeleteOpts {
  dryRun?: boolean;
  validate?: (obj: Obj) => Promise<void>;
}

/** A collection object (`<Kind>List`). */
export interface ListObject extends Obj {
  apiVersion: string;
  kind: string;
  metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number };
  items: Obj[];
}

/** Configuration of a store. */
export interface StoreConfig {
  storage: StorageInterface;
  strategy: Strategy;
  /** Key root of the resource: `<prefix>/<group or core>/<resource>`. */
  keyRoot: string;
}

/** Finalizers the store adds for a propagation policy (garbage-collector contract). */
export const ORPHAN_FINALIZER = 'orphan';
export const FOREGROUND_FINALIZER = 'foregroundDeletion';

/** The generic store of one resource (or subresource, with its own strategy). */
export class Store {
  readonly gr: GroupResource;
  readonly storage: StorageInterface;
  readonly strategy: Strategy;
  private readonly keyRoot: string;

  constructor(cfg: StoreConfig) {
    this.storage = cfg.storage;
    this.strategy = cfg.strategy;
    this.keyRoot = cfg.keyRoot;
    this.gr = { group: cfg.strategy.kind.group, resource: cfg.strategy.kind.resource };
  }

  /** Storage key of one object. */
  keyFor(namespace: string, name: string): string {
    return this.strategy.namespaceScoped() ? `${this.keyRoot}/${namespace}/${name}` : `${this.keyRoot}/${name}`;
  }

  /** Storage prefix of a collection ('' namespace = all namespaces). */
  prefixFor(namespace: string): string {
    return this.strategy.namespaceScoped() && namespace ? `${this.keyRoot}/${namespace}/` : `${this.keyRoot}/`;
  }

  private withTypeMeta(obj: Obj): Obj {
    // A custom resource is stored in the version it was written in, which conversion reads.
    if (this.strategy.kind.custom) return obj;
    obj.apiVersion = this.strategy.kind.apiVersion;
    obj.kind = this.strategy.kind.kind;
    return obj;
  }

  private fail(err: unknown, name: string, verb: string): never {
    throw interpretStorageError(err, this.gr, name, verb);
  }

  /** Reads one object. */
  async get(_ctx: RequestContext, namespace: string, name: string, opts: GetOptions = {}): Promise<Obj> {
    try {
      const obj = await this.storage.get(this.keyFor(namespace, name), opts);
      if (!obj) throw newNotFound(this.gr, name);
      return this.withTypeMeta(obj);
    } catch (err) {
      this.fail(err, name, 'get');
    }
  }

  /** Reads a collection as a `<Kind>List`. */
  async list(_ctx: RequestContext, namespace: string, opts: ListOptions): Promise<ListObject> {
    try {
      const res = await this.storage.getList(this.prefixFor(namespace), opts);
      const metadata: ListObject['metadata'] = { resourceVersion: res.resourceVersion };
      if (res.continue) metadata.continue = res.continue;
      if (res.remainingItemCount !== undefined) metadata.remainingItemCount = res.remainingItemCount;
      return {
        kind: this.strategy.kind.listKind,
        apiVersion: this.strategy.kind.apiVersion,
        metadata,
        items: res.items.map((o) => this.withTypeMeta(o)),
      };
    } catch (err) {
      this.fail(err, '', 'list');
    }
  }

  /** Watches a collection, or one object when `name` is given. */
  async watch(_ctx: RequestContext, namespace: string, name: string, opts: ListOptions): Promise<Watcher> {
    const key = name ? this.keyFor(namespace, name) : this.prefixFor(namespace);
    try {
      return await this.storage.watch(key, opts);
    } catch (err) {
      this.fail(err, name, 'watch');
    }
  }

  private checkNamespace(obj: Obj, namespace: string): void {
    const meta = metaOf(obj);
    if (!this.strategy.namespaceScoped()) {
      delete meta.namespace;
      return;
    }
    if (meta.namespace !== undefined && meta.namespace !== '' && meta.namespace !== namespace) {
      throw newBadRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    meta.namespace = namespace;
  }

  /** Runs upstream `BeforeCreate`: system metadata, prepare, validate, warnings, canonicalize. */
  private beforeCreate(ctx: RequestContext, obj: Obj, namespace: string): void {
    this.checkNamespace(obj, namespace);
    const meta = metaOf(obj);
    if (meta.generateName && !meta.name) meta.name = generateName(meta.generateName as string);
    fillCreateMetadata(obj, new Date());
    this.strategy.prepareForCreate(ctx, obj);
    const errs = this.strategy.validate(ctx, obj);
    if (errs.length > 0) throw newInvalid({ group: this.gr.group, kind: this.strategy.kind.kind }, (meta.name as string) ?? '', errs);
    for (const w of this.strategy.warningsOnCreate(ctx, obj)) addWarning(ctx, w);
    this.strategy.canonicalize(obj);
  }

  /** Creates an object (spec 000 § Resource operations: Create). */
  async create(ctx: RequestContext, namespace: string, obj: Obj, opts: CreateOptions = {}): Promise<Obj> {
    this.withTypeMeta(obj);
    this.beforeCreate(ctx, obj, namespace);
    await opts.validate?.(obj, null);
    const meta = metaOf(obj);
    const name = meta.name as string;
    try {
      const created = await this.storage.create(this.keyFor(namespace, name), obj, { dryRun: opts.dryRun });
      return this.withTypeMeta(created);
    } catch (err) {
      if (isStorageError(err, 'KeyExists') && meta.generateName) {
        const e = newAlreadyExists(this.gr, name);
        e.status.message += ', the server was not able to generate a unique name for the object';
        throw e;
      }
      this.fail(err, name, 'create');
    }
  }

  /** Runs upstream `BeforeUpdate`: carry system metadata, prepare, validate, warnings, canonicalize. */
  private beforeUpdate(ctx: RequestContext, obj: Obj, old: Obj, namespace: string): void {
    this.checkNamespace(obj, namespace);
    carryUpdateMetadata(obj, old);
    this.strategy.prepareForUpdate(ctx, obj, old);
    const errs = this.strategy.validateUpdate(ctx, obj, old);
    if (errs.length > 0) throw newInvalid({ group: this.gr.group, kind: this.strategy.kind.kind }, (metaOf(obj).name as string) ?? '', errs);
    for (const w of this.strategy.warningsOnUpdate(ctx, obj, old)) addWarning(ctx, w);
    this.strategy.canonicalize(obj);
  }

  /**
   * Updates (or, where allowed, creates) an object through `transform`, retried on conflict for
   * unconditional updates; a stale `metadata.resourceVersion` in the new object is 409 Conflict,
   * a missing one 422 Invalid where the strategy forbids unconditional updates (subresource
   * stores included: their strategies inherit the main one's rule).
   * Returns the stored object and whether it was created.
   */
  async update(ctx: RequestContext, namespace: string, name: string, transform: TransformFunc, opts: UpdateOptions = {}): Promise<{ obj: Obj; created: boolean }> {
    const key = this.keyFor(namespace, name);
    let created = false;
    let result: StoredObject;
    try {
      result = await this.storage.guaranteedUpdate(key, { ignoreNotFound: true, dryRun: opts.dryRun, tryUpdateReadsOnly: true }, async (current) => {
        const exists = current.metadata !== undefined;
        if (!exists) {
          if (!this.strategy.allowCreateOnUpdate() && !opts.forceAllowCreate) throw newNotFound(this.gr, name);
          const obj = this.withTypeMeta(await transform(null));
          const rv = metaOf(obj).resourceVersion;
          if (rv !== undefined && rv !== '') throw newNotFound(this.gr, name);
          this.beforeCreate(ctx, obj, namespace);
          await opts.createValidation?.(obj, null);
          created = true;
          return obj;
        }
        created = false;
        const obj = this.withTypeMeta(await transform(opts.transformReadsOnly ? current : deepCopy(current)));
        const newRV = metaOf(obj).resourceVersion as string | undefined;
        const oldRV = metaOf(current).resourceVersion as string;
        if (newRV === undefined || newRV === '') {
          if (!this.strategy.allowUnconditionalUpdate()) {
            // Upstream names the resource as the kind here and prints the missing version as
            // Go's `%#v` of a uint64 zero.
            throw newInvalid({ group: this.gr.group, kind: this.gr.resource }, name, [
              invalid('metadata.resourceVersion', new GoSyntax('0x0'), 'must be specified for an update'),
            ]);
          }
        } else if (newRV !== oldRV) {
          throw newConflict(this.gr, name, OBJECT_MODIFIED_MESSAGE);
        }
        this.beforeUpdate(ctx, obj, current, namespace);
        await opts.updateValidation?.(obj, current);
        return obj;
      });
    } catch (err) {
      this.fail(err, name, 'update');
    }
    if (!created && !opts.dryRun && this.shouldDeleteAfterUpdate(result)) {
      return { obj: await this.deleteAfterFinalizers(result, name), created };
    }
    return { obj: this.withTypeMeta(result), created };
  }

  /**
   * An update that left a terminating object with no finalizers and no grace period removes it
   * (upstream `ShouldDeleteDuringUpdate`; the namespace stores also wait for `spec.finalizers`).
   */
  protected shouldDeleteAfterUpdate(obj: StoredObject): boolean {
    const meta = obj.metadata ?? {};
    const finalizers = (meta.finalizers as string[] | undefined) ?? [];
    return !!meta.deletionTimestamp && finalizers.length === 0 && (meta.deletionGracePeriodSeconds ?? 0) === 0;
  }

  private async deleteAfterFinalizers(obj: StoredObject, name: string): Promise<Obj> {
    const meta = obj.metadata ?? {};
    const key = this.keyFor((meta.namespace as string) ?? '', name);
    try {
      await this.storage.delete(key, { preconditions: { uid: meta.uid as string, resourceVersion: meta.resourceVersion as string }, cachedExisting: obj });
    } catch (err) {
      if (!isStorageError(err, 'KeyNotFound') && !isStorageError(err, 'InvalidPreconditions')) this.fail(err, name, 'delete');
    }
    return this.withTypeMeta(obj);
  }

  /**
   * The finalizers after applying the deletion's propagation policy (upstream garbage-collection
   * contract): Orphan adds `orphan`, Foreground adds `foregroundDeletion`, Background removes both;
   * without a policy, existing finalizers decide.
   */
  private gcFinalizers(options: DeleteOptionsBody, current: string[]): string[] {
    let orphan: boolean;
    let foreground: boolean;
    if (options.orphanDependents !== undefined) {
      orphan = options.orphanDependents;
      foreground = false;
    } else if (options.propagationPolicy !== undefined) {
      orphan = options.propagationPolicy === 'Orphan';
      foreground = options.propagationPolicy === 'Foreground';
    } else {
      orphan = current.includes(ORPHAN_FINALIZER);
      foreground = !orphan && current.includes(FOREGROUND_FINALIZER);
    }
    const out = current.filter((f) => (f !== ORPHAN_FINALIZER || orphan) && (f !== FOREGROUND_FINALIZER || foreground));
    if (orphan && !out.includes(ORPHAN_FINALIZER)) out.push(ORPHAN_FINALIZER);
    if (foreground && !out.includes(FOREGROUND_FINALIZER)) out.push(FOREGROUND_FINALIZER);
    return out;
  }

  /**
   * Deletes an object: removed at once when it has no finalizers and no grace period, else kept
   * with a deletionTimestamp (spec 000 § Object deletion lifecycle). A pending graceful deletion
   * is changed only by a shorter grace period; an object waiting for its finalizers takes the
   * request's propagation policy (`planDeletion`). The decision is made in one read-decide-write
   * loop on the object's current state (upstream `BeforeDelete` and
   * `updateForGracefulDeletionAndFinalizers`), so it always stands on the state the write
   * commits against. A kind with graceful deletion whose grace period comes to 0 (an unscheduled
   * Pod, `--grace-period=0`) is written terminating first and then removed, as upstream does:
   * watchers see MODIFIED, then DELETED, and the answer is that terminating state
   * ({@link removeMarked}). Returns the response body (the object, or a Success Status for
   * kinds that answer so) and whether it is gone.
   */
  async delete(ctx: RequestContext, namespace: string, name: string, options: DeleteOptionsBody, opts: DeleteOpts = {}): Promise<{ body: Obj | Status; deleted: boolean }> {
    const key = this.keyFor(namespace, name);
    /** `marked`: written terminating with no grace period and no finalizer left, to be removed next. */
    let outcome: 'deleted' | 'kept' | 'marked' = 'kept';
    let last: StoredObject;
    try {
      // The callback only reads `cur` (possibly the watch cache's object) and marks a deletion on a new object and metadata.
      last = await this.storage.guaranteedUpdate(key, { preconditions: options.preconditions, dryRun: opts.dryRun, tryUpdateReadsOnly: true }, async (cur) => {
        const m = metaOf(cur);
        outcome = 'kept';
        // The strategy may fill in the options (a Pod's grace period): each attempt starts afresh.
        const attempt = { ...options };
        const plan = planDeletion(m as DeletionMeta, options.gracePeriodSeconds, () => (this.strategy.checkGracefulDelete(ctx, cur, attempt) ? attempt.gracePeriodSeconds : undefined), Date.now());
        // A deletion already pending keeps its course: DeleteOptions cannot change its finalizers.
        if (plan.pending) return cur;
        const finalizers = this.gcFinalizers(attempt, (m.finalizers as string[] | undefined) ?? []);
        await opts.validate?.(cur);
        if (plan.immediate && finalizers.length === 0) {
          if (!plan.graceful) {
            outcome = 'deleted';
            return DELETE_OBJECT;
          }
          outcome = 'marked';
        }
        const marked: Record<string, unknown> = { ...m };
        // The first deletion of an object that tracks its generation is a change of its spec (upstream).
        if (!m.deletionTimestamp && typeof m.generation === 'number' && m.generation > 0) marked.generation = m.generation + 1;
        marked.deletionTimestamp = plan.deletionTimestamp;
        marked.deletionGracePeriodSeconds = plan.deletionGracePeriodSeconds;
        if (finalizers.length > 0) marked.finalizers = finalizers;
        else delete marked.finalizers;
        return { ...cur, metadata: marked };
      });
    } catch (err) {
      this.fail(err, name, 'delete');
    }
    // Assigned in the callback, which the compiler does not follow.
    const decided = outcome as 'deleted' | 'kept' | 'marked';
    if (decided === 'kept') return { body: this.withTypeMeta(last), deleted: false };
    if (decided === 'marked') {
      // A dry run stops at the terminating state it would have written (upstream answers with it).
      if (opts.dryRun) return { body: this.withTypeMeta(last), deleted: true };
      last = await this.removeMarked(key, name, last, options, opts);
    }
    if (this.strategy.returnDeletedObject()) return { body: this.withTypeMeta(last), deleted: true };
    const lastMeta = last.metadata ?? {};
    return {
      body: successStatus({
        name,
        ...(this.gr.group ? { group: this.gr.group } : {}),
        kind: this.gr.resource,
        uid: lastMeta.uid as string,
      }),
      deleted: true,
    };
  }

  /**
   * The second step of a graceful deletion with no grace period left (upstream `Store.Delete`
   * after `updateForGracefulDeletionAndFinalizers`): removes the object just written terminating
   * (`marked`), whatever its state now, under the request's UID precondition and, when the
   * request gave a resourceVersion precondition, the written resourceVersion; admission's
   * validation runs again on the state removed. Someone else removing it first is a success: the
   * answer is then the state written (upstream `ignoreNotFound`).
   * @returns the object's last state. @throws StatusError as {@link fail} does.
   */
  private async removeMarked(key: string, name: string, marked: StoredObject, options: DeleteOptionsBody, opts: DeleteOpts): Promise<StoredObject> {
    const given = options.preconditions;
    const preconditions = given && { uid: given.uid, resourceVersion: given.resourceVersion === undefined ? undefined : (marked.metadata?.resourceVersion as string) };
    try {
      return await this.storage.delete(key, { preconditions, validateDeletion: opts.validate, cachedExisting: marked });
    } catch (err) {
      if (isStorageError(err, 'KeyNotFound')) return marked;
      return this.fail(err, name, 'delete');
    }
  }

  /** Deletes every object of a collection matching the list options; returns the deleted items. */
  async deleteCollection(ctx: RequestContext, namespace: string, options: DeleteOptionsBody, listOpts: ListOptions, opts: DeleteOpts = {}): Promise<ListObject> {
    const list = await this.list(ctx, namespace, { ...listOpts, limit: 0, continue: '' });
    const items: Obj[] = [];
    for (const item of list.items) {
      const m = metaOf(item);
      try {
        const res = await this.delete(ctx, (m.namespace as string) ?? '', m.name as string, { ...options, preconditions: undefined }, opts);
        items.push(res.body.kind === 'Status' ? item : (res.body as Obj));
      } catch (err) {
        if (err instanceof StatusError && err.status.reason === 'NotFound') continue;
        throw err;
      }
    }
    return { ...list, items };
  }
}
