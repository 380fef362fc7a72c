/**
 * Whether a request falls under a policy's `matchConstraints` or a binding's `matchResources`
 * (upstream v1.30 `policy/matching` Matcher; spec 001 § Admission control): the object selector,
 * then `excludeResourceRules`, then `resourceRules` (none: every request, as for a binding),
 * then the namespace selector. The cheap synchronous tests come first, so a request no rule
 * selects costs no allocation and no I/O. A namespace that cannot be read is an error of the
 * policy (or binding) that the failure policy decides about, as upstream.
 */
import { StatusError } from '../../../apimachinery/errors.js';
import { obj, objs, str, type Obj } from '../../../apis/core/v1/obj-access.js';
import type { AdmissionAttributes } from '../../interface.js';
import { type AdmissionRule, anyRuleMatches, type EquivalentResources, matchRules, type MatchedResource } from '../../matching/rules.js';
import { compileSelector, type CompiledSelector, namespaceSelectorMatches, objectSelectorMatches } from '../../matching/selectors.js';
import type { ResourceAccess } from '../../plugin-deps.js';

/** A MatchResources object, compiled once. */
export interface CompiledMatchResources {
  readonly resourceRules: readonly AdmissionRule[];
  readonly excludeResourceRules: readonly AdmissionRule[];
  readonly matchPolicy: string | undefined;
  readonly namespaceSelector: CompiledSelector;
  readonly objectSelector: CompiledSelector;
}

/** Compiles a `matchConstraints` / `matchResources` object (absent: matches every request). */
export function compileMatchResources(mr: Obj | undefined): CompiledMatchResources {
  return {
    resourceRules: objs(mr?.resourceRules) as AdmissionRule[],
    excludeResourceRules: objs(mr?.excludeResourceRules) as AdmissionRule[],
    matchPolicy: typeof mr?.matchPolicy === 'string' ? mr.matchPolicy : undefined,
    namespaceSelector: compileSelector(obj(mr?.namespaceSelector)),
    objectSelector: compileSelector(obj(mr?.objectSelector)),
  };
}

/** The outcome of matching: the resource matched as, no match, or the error that stopped matching. */
export type MatchOutcome = MatchedResource | null | { error: string };

const exactMatch = (a: AdmissionAttributes): MatchedResource => ({
  group: a.requestGroup,
  version: a.requestVersion,
  resource: a.resource,
  subresource: a.subresource,
  kind: a.requestKind,
  exact: true,
});

/**
 * Matches `a` against `m`. Synchronous unless the namespace selector has to read the namespace.
 * @returns the resource the request is matched as (the addressed one when `m` has no resource
 *   rules), null when `m` does not select it, or `{ error }` (the namespace could not be read).
 */
export function matchResources(m: CompiledMatchResources, a: AdmissionAttributes, equivalents: EquivalentResources, namespaces: ResourceAccess): MatchOutcome | Promise<MatchOutcome> {
  if (!objectSelectorMatches(m.objectSelector, a)) return null;
  if (anyRuleMatches(m.excludeResourceRules, a, m.matchPolicy, equivalents)) return null;
  const matched = m.resourceRules.length === 0 ? exactMatch(a) : matchRules(m.resourceRules, a, m.matchPolicy, equivalents);
  if (!matched || m.namespaceSelector.everything) return matched;
  return namespaceSelectorMatches(m.namespaceSelector, a, namespaces).then(
    (ok) => (ok ? matched : null),
    (err: unknown) => {
      if (err instanceof StatusError) return { error: err.message };
      throw err;
    },
  );
}

/** Whether a match outcome is an error. */
export function isMatchError(o: MatchOutcome): o is { error: string } {
  return o !== null && 'error' in o;
}

/** The `metadata.name` of a policy or binding. */
export function nameOf(o: Obj): string {
  return str(obj(o.metadata)?.name);
}
