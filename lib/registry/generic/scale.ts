/**
 * The `scale` subresource of a workload kind (upstream `ScaleREST` of the deployment, replica-set,
 * stateful-set and replication-controller registries): GET answers an autoscaling/v1 Scale built
 * from the parent; PUT and PATCH (every patch type, apply included) change only the parent's
 * desired replicas, through the parent's store and strategy (generation, validation), with the
 * managed fields mapped both ways (scale-managed-fields.ts). A kind gets it with one declaration:
 * `withScale(storage)` for `spec.replicas` / `status.replicas` / a LabelSelector at
 * `spec.selector`, or `withScale(storage, scaleSubresource({ selector: selectorMapAt('spec.selector') }))`.
 */
import { type GroupResource, StatusError, newBadRequest, newConflict, newInvalid, newNotFound } from '../../apimachinery/errors.js';
import { SelectorParseError, labelSelectorFromObject, type LabelSelectorObject } from '../../apimachinery/labels/selector.js';
import { canonicalize } from '../../apimachinery/schema/canonical.js';
import { AUTOSCALING_GROUP, scale as scaleKind, validateScale } from '../../apis/autoscaling/v1/scale.js';
import type { KindDefinition, Obj } from '../../apis/define.js';
import type { RequestContext } from '../../request/context.js';
import type { GetOptions } from '../../storage/interface.js';
import type { KindedSubresource } from '../rest/updater.js';
import { metaOf } from './object-meta.js';
import type { ResourceStorage } from './resource-storage.js';
import { fieldPathOf, parentManagedFields, scaleManagedFields } from './scale-managed-fields.js';
import type { Store, TransformFunc, UpdateOptions } from './store.js';

/** Where a kind keeps what its Scale shows. */
export interface ScaleSubresource {
  /** The desired replicas in the parent (`['spec', 'replicas']`); a write sets it. */
  specReplicasPath: readonly string[];
  /** The observed replicas in the parent (`['status', 'replicas']`). */
  statusReplicasPath: readonly string[];
  /**
   * The parent's pod selector in the label-selector syntax (`app=web`).
   * @throws SelectorParseError for a selector that cannot be converted (answered 400).
   */
  selector(parent: Obj): string;
}

/** Options of scaleSubresource: dot paths, and the selector reader. */
export interface ScaleSubresourceOptions {
  /** Default `spec.replicas`. */
  specReplicasPath?: string;
  /** Default `status.replicas`. */
  statusReplicasPath?: string;
  /** Default `labelSelectorAt('spec.selector')` (Deployment, ReplicaSet, StatefulSet). */
  selector?: (parent: Obj) => string;
}

function at(obj: Obj, path: readonly string[]): unknown {
  let v: unknown = obj;
  for (const p of path) v = v !== null && typeof v === 'object' ? (v as Obj)[p] : undefined;
  return v;
}

/** Upstream LabelSelectorAsSelector(...).String() of the `metav1.LabelSelector` at `path` (nil selects nothing, `{}` everything: both print as ''). */
export function labelSelectorAt(path: string): (parent: Obj) => string {
  const p = path.split('.');
  return (parent) => labelSelectorFromObject(at(parent, p) as LabelSelectorObject | null | undefined).toString();
}

/** Upstream SelectorFromSet(...).String() of the `map[string]string` selector at `path` (ReplicationController). */
export function selectorMapAt(path: string): (parent: Obj) => string {
  const p = path.split('.');
  return (parent) => labelSelectorFromObject({ matchLabels: (at(parent, p) as Record<string, string> | undefined) ?? {} }).toString();
}

/** A kind's scale facts; every option defaults to the workload kinds' layout. */
export function scaleSubresource(opts: ScaleSubresourceOptions = {}): ScaleSubresource {
  return {
    specReplicasPath: (opts.specReplicasPath ?? 'spec.replicas').split('.'),
    statusReplicasPath: (opts.statusReplicasPath ?? 'status.replicas').split('.'),
    selector: opts.selector ?? labelSelectorAt('spec.selector'),
  };
}

/** Sets `value` at `path` in `obj`, creating the objects on the way. */
function setAt(obj: Obj, path: readonly string[], value: unknown): void {
  let node = obj;
  for (const p of path.slice(0, -1)) {
    const next = node[p];
    node = (next !== null && typeof next === 'object' ? next : (node[p] = {})) as Obj;
  }
  node[path[path.length - 1]!] = value;
}

/** The `scale` subresource of one resource, over its main store. */
export class ScaleREST implements KindedSubresource {
  readonly kind: KindDefinition = scaleKind;
  readonly gr: GroupResource;

  constructor(
    private readonly parent: Store,
    private readonly sub: ScaleSubresource,
  ) {
    this.gr = { group: parent.gr.group, resource: `${parent.gr.resource}/scale` };
  }

  /**
   * The Scale of `parent`: its name, namespace, uid, resourceVersion and creationTimestamp, the
   * desired and observed replicas and the selector; with the Scale view of its managed fields
   * when `withManagedFields` (what a write records against).
   * @throws StatusError 400 for a selector that cannot be converted.
   */
  scaleOf(parent: Obj, withManagedFields = false): Obj {
    const m = metaOf(parent);
    const metadata: Obj = {};
    for (const k of ['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp']) if (m[k] !== undefined) metadata[k] = m[k];
    if (withManagedFields) {
      const entries = scaleManagedFields(m.managedFields, this.parent.strategy.kind.apiVersion, fieldPathOf(this.sub.specReplicasPath));
      if (entries) metadata.managedFields = entries;
    }
    let selector: string;
    try {
      selector = this.sub.selector(parent);
    } catch (err) {
      if (err instanceof SelectorParseError) throw newBadRequest(err.message);
      throw err;
    }
    const replicas = (path: readonly string[]) => {
      const v = at(parent, path);
      return typeof v === 'number' ? v : 0;
    };
    return canonicalize(scaleKind.schema, {
      kind: scaleKind.kind,
      apiVersion: scaleKind.apiVersion,
      metadata,
      spec: { replicas: replicas(this.sub.specReplicasPath) },
      status: { replicas: replicas(this.sub.statusReplicasPath), selector },
    });
  }

  /** A NotFound of the parent, named as the subresource (`deployments/scale.apps "x" not found`), as upstream. */
  private renameNotFound(err: unknown, name: string): unknown {
    if (err instanceof StatusError && err.status.reason === 'NotFound' && err.status.details?.kind === this.parent.gr.resource) return newNotFound(this.gr, name);
    return err;
  }

  /** Reads the parent's Scale. @throws StatusError 404 `<resource>/scale.<group> "x" not found`. */
  async get(ctx: RequestContext, namespace: string, name: string, opts: GetOptions = {}): Promise<Obj> {
    try {
      return this.scaleOf(await this.parent.get(ctx, namespace, name, opts));
    } catch (err) {
      throw this.renameNotFound(err, name);
    }
  }

  /**
   * Applies a Scale write to the parent (upstream scaleUpdatedObjectInfo): the client's Scale
   * from `transform`, in the request's namespace, validated (422 `Scale.autoscaling`), its uid a
   * precondition (409), its resourceVersion the parent's (a stale one is 409); only the desired
   * replicas and the managed fields of the parent change, through the parent's strategy. Never
   * creates (apply on a missing parent is 404). Validating admission sees Scales.
   */
  async update(ctx: RequestContext, namespace: string, name: string, transform: TransformFunc, opts: UpdateOptions = {}): Promise<{ obj: Obj; created: boolean }> {
    const validate = opts.updateValidation;
    try {
      const { obj } = await this.parent.update(
        ctx,
        namespace,
        name,
        async (current) => {
          if (!current) throw newNotFound(this.gr, name);
          const next = await transform(this.scaleOf(current, true));
          const meta = (next.metadata ??= {}) as Obj;
          if (meta.namespace === undefined || meta.namespace === '') meta.namespace = namespace;
          else if (meta.namespace !== namespace) throw newBadRequest('the namespace of the provided object does not match the namespace sent on the request');
          const errs = validateScale(next);
          if (errs.length > 0) throw newInvalid({ group: AUTOSCALING_GROUP, kind: scaleKind.kind }, name, errs);
          const uid = metaOf(current).uid;
          if (meta.uid && meta.uid !== uid) throw newConflict(this.gr, name, `Precondition failed: UID in precondition: ${String(meta.uid)}, UID in object meta: ${String(uid)}`);
          const parentMeta = metaOf(current);
          const replicas = (next.spec as Obj | undefined)?.replicas;
          setAt(current, this.sub.specReplicasPath, typeof replicas === 'number' ? replicas : 0);
          if (meta.resourceVersion === undefined || meta.resourceVersion === '') delete parentMeta.resourceVersion;
          else parentMeta.resourceVersion = meta.resourceVersion;
          const entries = parentManagedFields(parentMeta.managedFields, meta.managedFields, this.parent.strategy.kind.apiVersion, fieldPathOf(this.sub.specReplicasPath));
          if (entries === undefined) delete parentMeta.managedFields;
          else parentMeta.managedFields = entries;
          return current;
        },
        {
          dryRun: opts.dryRun,
          updateValidation: validate ? async (o, old) => validate(this.scaleOf(o), old ? this.scaleOf(old) : null) : undefined,
        },
      );
      return { obj: this.scaleOf(obj), created: false };
    } catch (err) {
      throw this.renameNotFound(err, name);
    }
  }
}

/**
 * Adds the `scale` subresource to a resource's storage (`sub`: where the kind keeps its
 * replicas and selector, default scaleSubresource()). Returns `storage`.
 */
export function withScale(storage: ResourceStorage, sub: ScaleSubresource = scaleSubresource()): ResourceStorage {
  storage.updaters = new Map([...(storage.updaters ?? []), ['scale', new ScaleREST(storage.store, sub)]]);
  return storage;
}
