/**
 * The PodDisruptionBudget's Table columns (spec 000 § Table representation): Name, Min Available
 * and Max Unavailable (the int or percentage, `N/A` when unset), Allowed Disruptions, Age — as the
 * upstream v1.30 printer.
 */
import type { TablePrinter } from '../../apimachinery/table/types.js';
import type { Obj } from '../core/v1/obj-access.js';
import { AGE_COLUMN, age, at, column, int, NAME_COLUMN, objectName } from './common.js';

const COLUMNS = Object.freeze([
  NAME_COLUMN,
  column('Min Available', 'string', 'The minimum number of pods that must be available.'),
  column('Max Unavailable', 'string', 'The maximum number of pods that may be unavailable.'),
  column('Allowed Disruptions', 'integer', 'Calculated number of pods that may be disrupted at this time.'),
  AGE_COLUMN,
]);

/** An IntOrString as upstream's String() prints it (`2`, `50%`); `N/A` when unset. */
function intOrPercent(v: unknown): string {
  return typeof v === 'number' || typeof v === 'string' ? String(v) : 'N/A';
}

/** The PodDisruptionBudget printer. */
export const podDisruptionBudgetPrinter: TablePrinter = Object.freeze({
  columns: COLUMNS,
  cells: (pdb: Obj, now: number) => {
    const spec = at(pdb, 'spec');
    return [objectName(pdb), intOrPercent(spec.minAvailable), intOrPercent(spec.maxUnavailable), int(at(pdb, 'status').disruptionsAllowed), age(pdb, now)];
  },
});
