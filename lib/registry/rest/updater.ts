/**
 * The get-and-update capability of a stored subresource whose body and answer are a kind of its
 * own, computed from its parent object — `deployments/scale` answers an autoscaling/v1 Scale —
 * served as GET, PUT and PATCH (every patch type, apply included) of `<object path>/<name>`
 * (ARCHITECTURE.md § Layers: the installer offers the verbs a resource's storage implements).
 * The generic Store has the same shape for the parent's own kind.
 */
import type { GroupResource } from '../../apimachinery/errors.js';
import type { KindDefinition, Obj } from '../../apis/define.js';
import type { RequestContext } from '../../request/context.js';
import type { GetOptions } from '../../storage/interface.js';
import type { TransformFunc, UpdateOptions } from '../generic/store.js';

/** What the get, update and patch handlers need of the (sub)resource they address. */
export interface GetterUpdater {
  /** The resource named in NotFound and Conflict answers. */
  readonly gr: GroupResource;
  /** Reads the object the subresource shows. @throws StatusError NotFound. */
  get(ctx: RequestContext, namespace: string, name: string, opts?: GetOptions): Promise<Obj>;
  /**
   * Updates through `transform`, which maps the current object (as the subresource shows it) to
   * the one the client wants; retried on conflict for unconditional writes.
   * @throws StatusError NotFound, Conflict (stale resourceVersion), Invalid, or what `transform` throws.
   */
  update(ctx: RequestContext, namespace: string, name: string, transform: TransformFunc, opts?: UpdateOptions): Promise<{ obj: Obj; created: boolean }>;
}

/** A get/update subresource with a kind of its own (`scale` → Scale). */
export interface KindedSubresource extends GetterUpdater {
  /** The kind of the request body and of the answer. */
  readonly kind: KindDefinition;
}
