/**
 * The label selectors of admission webhooks and policies (upstream v1.30 `namespace` and
 * `object` matchers; spec 001 § Admission control): `objectSelector` is tested against the labels
 * of the new and of the old object (either matching selects the request); `namespaceSelector`
 * against the labels of the request's namespace — of the new object itself for a create or
 * update of a Namespace, and always selecting requests of other cluster-scoped resources. An
 * absent selector selects everything, as `{}` does.
 */
import { newNotFound } from '../../apimachinery/errors.js';
import { type LabelSelector, labelSelectorFromObject } from '../../apimachinery/labels/selector.js';
import type { Obj } from '../../apis/define.js';
import type { AdmissionAttributes } from '../interface.js';
import type { ResourceAccess } from '../plugin-deps.js';

type LabelSelectorObject = Parameters<typeof labelSelectorFromObject>[0];

/** A compiled selector; `everything` when absent or empty (the common case, tested without work). */
export interface CompiledSelector {
  everything: boolean;
  selector: LabelSelector;
}

/** Compiles a selector object once (configuration load); an invalid one was refused by validation, so it throws only on a bug. */
export function compileSelector(sel: LabelSelectorObject | undefined): CompiledSelector {
  const everything = sel == null || (Object.keys(sel.matchLabels ?? {}).length === 0 && (sel.matchExpressions ?? []).length === 0);
  return { everything, selector: labelSelectorFromObject(sel ?? {}) };
}

function labelsOf(o: Obj | null | undefined): Record<string, string> | undefined {
  return ((o?.metadata as Obj | undefined)?.labels as Record<string, string> | undefined) ?? undefined;
}

/** Whether `sel` selects the request by its new or old object's labels. */
export function objectSelectorMatches(sel: CompiledSelector, a: AdmissionAttributes): boolean {
  if (sel.everything) return true;
  const labels = labelsOf(a.object);
  if (a.object && sel.selector.matches(labels ?? {})) return true;
  return a.oldObject !== null && sel.selector.matches(labelsOf(a.oldObject) ?? {});
}

/**
 * Whether `sel` selects the request by its namespace's labels: requests of cluster-scoped
 * resources other than Namespaces always match; a create or update of a Namespace itself (not
 * of a subresource) is tested on the new object's labels; every other request on the labels of
 * its namespace, read from the informer, then from storage when the informer has not seen the
 * namespace yet (upstream's namespace matcher).
 * @throws StatusError 404 NotFound (`namespaces "<ns>" not found`) when the namespace does not
 *   exist, as upstream; the caller decides whether its failure policy applies.
 */
export async function namespaceSelectorMatches(sel: CompiledSelector, a: AdmissionAttributes, namespaces: ResourceAccess): Promise<boolean> {
  const isNamespace = a.resource === 'namespaces';
  if (a.namespace === '' && !isNamespace) return true;
  if (sel.everything) return true;
  if (isNamespace && a.subresource === '' && (a.operation === 'CREATE' || a.operation === 'UPDATE')) {
    return sel.selector.matches(labelsOf(a.object) ?? {});
  }
  const ns = namespaces.lister.get('', a.namespace) ?? (await namespaces.get('', a.namespace));
  if (!ns) throw newNotFound({ group: '', resource: 'namespaces' }, a.namespace);
  return sel.selector.matches(labelsOf(ns) ?? {});
}
