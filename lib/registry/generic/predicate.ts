/**
 * Selection predicates from label and field selectors, evaluated against an object's labels and
 * its kind's selectable fields (spec 000 § Collections; issue #4 item 6).
 */
import type { FieldSelector } from '../../apimachinery/fields/selector.js';
import type { LabelSelector } from '../../apimachinery/labels/selector.js';
import type { SelectionPredicate, StoredObject } from '../../storage/interface.js';
import type { AttrsStrategy } from '../rest/strategy.js';

/** Builds the predicate of a list or watch. */
export function newSelectionPredicate(label: LabelSelector, field: FieldSelector, attrs: AttrsStrategy): SelectionPredicate {
  const labelEmpty = label.empty();
  const fieldEmpty = field.empty();
  const name = field.requiresExactMatch('metadata.name');
  return {
    empty: () => labelEmpty && fieldEmpty,
    matches(obj: StoredObject): boolean {
      if (!labelEmpty && !label.matches((obj.metadata?.labels as Record<string, string> | undefined) ?? {})) return false;
      if (!fieldEmpty && !field.matches(attrs.selectableFields(obj))) return false;
      return true;
    },
    matchesSingleName: () => name,
    matchesSingleField: (f) => field.requiresExactMatch(f),
  };
}
