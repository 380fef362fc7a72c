/**
 * Table columns of PriorityClass and RuntimeClass (spec 000 § Table representation), as the
 * upstream v1.30 printers: PriorityClass: Name, Value (integer), Global-Default (boolean), Age;
 * RuntimeClass: Name, Handler, Age.
 */
import type { TablePrinter } from '../../apimachinery/table/types.js';
import { str, type Obj } from '../core/v1/obj-access.js';
import { AGE_COLUMN, age, column, int, NAME_COLUMN, objectName } from './common.js';

/** The PriorityClass printer. */
export const priorityClassPrinter: TablePrinter = Object.freeze({
  columns: Object.freeze([
    NAME_COLUMN,
    column('Value', 'integer', 'The priority of the pods of the class.'),
    column('Global-Default', 'boolean', 'Whether the class is the priority of pods without a class.'),
    AGE_COLUMN,
  ]),
  cells: (pc: Obj, now: number) => [objectName(pc), int(pc.value), pc.globalDefault === true, age(pc, now)],
});

/** The RuntimeClass printer. */
export const runtimeClassPrinter: TablePrinter = Object.freeze({
  columns: Object.freeze([NAME_COLUMN, column('Handler', 'string', 'The CRI handler of the class.'), AGE_COLUMN]),
  cells: (rc: Obj, now: number) => [objectName(rc), str(rc.handler), age(rc, now)],
});
