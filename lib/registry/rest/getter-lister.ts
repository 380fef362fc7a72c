/**
 * The read-only capability: a resource whose only verbs are `get` and `list`, whose objects are
 * computed when read rather than stored — ComponentStatus (ARCHITECTURE.md § Layers: the
 * installer offers the verbs a resource's storage implements; registry/rest/creater.ts is the
 * create-only counterpart). No watch: upstream's installer registers no watch route for a
 * storage that is not a Watcher.
 */
import type { FieldSelector } from '../../apimachinery/fields/selector.js';
import type { LabelSelector } from '../../apimachinery/labels/selector.js';
import type { KindDefinition, Obj } from '../../apis/define.js';
import type { RequestContext } from '../../request/context.js';

/** The selectors of a list. */
export interface ListSelectors {
  label: LabelSelector;
  field: FieldSelector;
}

/** A read-only resource. */
export interface GetterLister {
  /** The kind of the answers. */
  readonly kind: KindDefinition;
  /** The field labels a list's field selector may use (others are 400, as for a stored kind). */
  readonly fieldLabels: readonly string[];
  /**
   * One object, computed now, with its kind and apiVersion.
   * @throws StatusError when `name` names nothing (with the resource's own status and message).
   */
  get(ctx: RequestContext, namespace: string, name: string): Promise<Obj>;
  /** The `<Kind>List` of the objects matching `selectors`, computed now. */
  list(ctx: RequestContext, namespace: string, selectors: ListSelectors): Promise<Obj>;
}
