/**
 * What the flow-control configuration ensurer decides about one existing object (upstream v1.30
 * `pkg/registry/flowcontrol/ensurer`): pure functions over decoded objects.
 *
 * - Mandatory objects (`exempt`, `catch-all`) always get the built-in spec back and the autoupdate
 *   annotation `"true"`; of the `exempt` level, `spec.exempt` (shares and lendable percent) is
 *   left to the operator.
 * - A suggested object is kept up to date while its autoupdate annotation parses as true; with no
 *   (or an unparseable) annotation, only while its `metadata.generation` is 1 (nobody changed its
 *   spec). The annotation is then written with what was decided: `"true"` or `"false"`.
 * - An object that is not built in is deleted when its annotation parses as true (a default
 *   object a former release created and this one dropped).
 */
import { deepCopy } from '../../apimachinery/deep-equal.js';
import { applyDefaults } from '../../apimachinery/schema/defaults.js';
import type { KindDefinition, Obj } from '../../apis/define.js';
import { EXEMPT, specsEqual } from '../../apis/flowcontrol/v1/index.js';
import { APF_AUTOUPDATE_ANNOTATION } from '../../apis/vendor.js';

type Meta = { name?: string; generation?: number; annotations?: Record<string, string> };
const metaOf = (o: Obj): Meta => (o.metadata ?? {}) as Meta;

/** Go's `strconv.ParseBool`: the boolean a text spells, or undefined when it spells none. */
export function parseBool(text: string | undefined): boolean | undefined {
  if (text === undefined) return undefined;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
  return undefined;
}

/** The parsed autoupdate annotation of `o`, undefined when absent or not a boolean. */
export function autoUpdateOf(o: Obj): boolean | undefined {
  return parseBool(metaOf(o).annotations?.[APF_AUTOUPDATE_ANNOTATION]);
}

/** Whether a suggested object's spec may be updated: the annotation, or else an untouched spec (generation 1). */
export function shouldUpdateSpec(current: Obj): boolean {
  return autoUpdateOf(current) ?? metaOf(current).generation === 1;
}

/**
 * Whether `current`'s spec is what `bootstrap` asks, once defaulted (upstream `SpecEqualish`);
 * for the `exempt` level, its `spec.exempt` values are the operator's and not compared (but
 * `spec.exempt` must be there).
 */
export function specEqualish(kind: KindDefinition, bootstrap: Obj, current: Obj): boolean {
  const expected = deepCopy(bootstrap);
  applyDefaults(kind.schema, expected);
  const want = (expected.spec ?? {}) as Obj;
  const have = (current.spec ?? {}) as Obj;
  if (kind.kind === 'PriorityLevelConfiguration' && metaOf(bootstrap).name === EXEMPT) {
    const exempt = have.exempt as Obj | undefined;
    if (!exempt) return false;
    want.exempt = { ...(want.exempt as Obj), nominalConcurrencyShares: exempt.nominalConcurrencyShares, lendablePercent: exempt.lendablePercent };
  }
  return specsEqual(want, have);
}

/**
 * The revised copy of `current` the ensurer writes (upstream `ReviseIfNeeded`), or undefined when
 * nothing needs to change: the bootstrap spec when the spec is kept up to date and differs, the
 * autoupdate annotation set to the decision when it does not already say so.
 */
export function reviseIfNeeded(kind: KindDefinition, current: Obj, bootstrap: Obj, mandatory: boolean): Obj | undefined {
  const autoUpdateSpec = mandatory || shouldUpdateSpec(current);
  const updateAnnotation = autoUpdateOf(current) !== autoUpdateSpec;
  const specChanged = autoUpdateSpec && !specEqualish(kind, bootstrap, current);
  if (!updateAnnotation && !specChanged) return undefined;
  const revised = deepCopy(current);
  if (specChanged) revised.spec = deepCopy(bootstrap.spec);
  if (updateAnnotation) {
    const meta = (revised.metadata ??= {}) as Meta;
    meta.annotations = { ...(meta.annotations ?? {}), [APF_AUTOUPDATE_ANNOTATION]: String(autoUpdateSpec) };
  }
  return revised;
}

/** Whether an object no built-in object is named after is to be deleted (upstream `RemoveUnwantedObjects`). */
export function isUnwanted(current: Obj, wantedNames: ReadonlySet<string>): boolean {
  return !wantedNames.has(metaOf(current).name ?? '') && autoUpdateOf(current) === true;
}
