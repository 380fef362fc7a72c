/**
 * Pieces shared by the kinds' Table printers (spec 000 § Table representation): the `Name` and
 * `Age` columns, the wide-only columns and cells of pod templates, label and selector text as
 * upstream prints them (`<none>` when empty), condition lookups, and the `True` / `False` /
 * `<unset>` of optional booleans.
 */
import { labelSelectorFromObject, type LabelSelectorObject } from '../../apimachinery/labels/selector.js';
import { column, creationTimestamp } from '../../apimachinery/table/columns.js';
import { ageSince } from '../../apimachinery/table/timestamps.js';
import type { TableColumnDefinition } from '../../apimachinery/table/types.js';
import { obj, objs, str, strMap, type Obj } from '../core/v1/obj-access.js';

export { NAME_COLUMN, objectName } from '../../apimachinery/table/columns.js';
export { column };

/** Column options of a wide-only column (shown with `-o wide`). */
export const WIDE = { priority: 1 } as const;

/** The age column: time since creation, printed like `3m12s`. */
export const AGE_COLUMN: TableColumnDefinition = column('Age', 'string', 'Time since the object was created.');

/** The wide-only selector column, with a kind-specific description. */
export function selectorColumn(description: string): TableColumnDefinition {
  return column('Selector', 'string', description, WIDE);
}

/**
 * The wide-only columns of a workload's pod template: Containers, Images (names and images of
 * its containers) and Selector (with a kind-specific description); cells from podTemplateCells.
 */
export function podTemplateColumns(selectorDescription: string): TableColumnDefinition[] {
  return [
    column('Containers', 'string', 'Container names of the pod template.', WIDE),
    column('Images', 'string', 'Container images of the pod template.', WIDE),
    selectorColumn(selectorDescription),
  ];
}

/** The age of `o` at `now` (`<unknown>` without a creation time). */
export function age(o: Obj, now: number): string {
  return ageSince(creationTimestamp(o), now);
}

/** Reads a nested object along `path`, or an empty object. */
export function at(o: Obj, ...path: string[]): Obj {
  let cur: Obj = o;
  for (const key of path) cur = obj(cur[key]) ?? {};
  return cur;
}

/** The cells of podTemplateColumns: the template's container names and images, each joined with `,`, then `selector`. */
export function podTemplateCells(template: Obj, selector: string): string[] {
  const containers = objs(at(template, 'spec').containers);
  return [containers.map((c) => str(c.name)).join(','), containers.map((c) => str(c.image)).join(','), selector];
}

/** The status of the first condition of `type` in `status.conditions`, if any. */
export function conditionStatus(status: Obj, type: string): string | undefined {
  return objs(status.conditions).find((c) => c.type === type)?.status as string | undefined;
}

/** `k=v` pairs sorted as text and joined with `,`; `<none>` for no labels (upstream `FormatLabels`). */
export function formatLabels(labels: unknown): string {
  const pairs = Object.entries(strMap(labels)).map(([k, v]) => `${k}=${v}`);
  return pairs.length === 0 ? '<none>' : pairs.sort().join(',');
}

/** The selector text of a `metav1.LabelSelector`, or `errorText` when it cannot be converted. */
function selectorText(selector: unknown, errorText: string): string {
  try {
    return labelSelectorFromObject(obj(selector) as LabelSelectorObject | undefined).toString();
  } catch {
    return errorText;
  }
}

/** Upstream `FormatLabelSelector`: the selector text, `<none>` when empty, `<error>` when invalid. */
export function formatLabelSelector(selector: unknown): string {
  const text = selectorText(selector, '<error>');
  return text === '' ? '<none>' : text;
}

/** The selector text as Deployments print it: empty stays empty, invalid is `<invalid>`. */
export function selectorString(selector: unknown): string {
  return selectorText(selector, '<invalid>');
}

/** `True` / `False` for a set boolean, `<unset>` otherwise. */
export function boolPtr(v: unknown): string {
  if (typeof v !== 'boolean') return '<unset>';
  return v ? 'True' : 'False';
}

/** `s`, or `<none>` when empty. */
export function orNone(s: string): string {
  return s === '' ? '<none>' : s;
}

/** A number field read as an integer (0 when absent), as Go's zero value. */
export function int(v: unknown): number {
  return typeof v === 'number' ? v : 0;
}

/** The number of keys of a map field (0 when absent). */
export function countKeys(v: unknown): number {
  return Object.keys(obj(v) ?? {}).length;
}
