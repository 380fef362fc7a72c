/**
 * Pieces shared by the kinds' Table printers (spec 000 § Table representation): the `Name` and
 * `Age` columns, container and image lists, label and selector text as upstream prints them
 * (`<none>` when empty), and the `True` / `False` / `<unset>` of optional booleans.
 */
import { labelSelectorFromObject, type LabelSelectorObject } from '../../apimachinery/labels/selector.js';
import { column, creationTimestamp } from '../../apimachinery/table/columns.js';
import { ageSince } from '../../apimachinery/table/timestamps.js';
import type { TableColumnDefinition } from '../../apimachinery/table/types.js';
import { obj, objs, str, strMap, type Obj } from '../core/v1/obj-access.js';

export { NAME_COLUMN, objectName } from '../../apimachinery/table/columns.js';
export { column };

/** The age column: time since creation, printed like `3m12s`. */
export const AGE_COLUMN: TableColumnDefinition = column('Age', 'string', 'Time since the object was created.');

/** The wide-only container names and images columns of workload templates. */
export const CONTAINERS_COLUMN: TableColumnDefinition = column('Containers', 'string', 'Container names of the pod template.', { priority: 1 });
export const IMAGES_COLUMN: TableColumnDefinition = column('Images', 'string', 'Container images of the pod template.', { priority: 1 });

/** The wide-only selector column, with a kind-specific description. */
export function selectorColumn(description: string): TableColumnDefinition {
  return column('Selector', 'string', description, { priority: 1 });
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

/** The names and the images of `containers`, each joined with `,`. */
export function containerCells(containers: unknown): [string, string] {
  const list = objs(containers);
  return [list.map((c) => str(c.name)).join(','), list.map((c) => str(c.image)).join(',')];
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
