/**
 * The Lease's Table columns (spec 000 § Table representation): Name, Holder (the holder
 * identity, empty when none), Age — as the upstream v1.30 printer.
 */
import type { TablePrinter } from '../../apimachinery/table/types.js';
import { str, type Obj } from '../core/v1/obj-access.js';
import { AGE_COLUMN, age, at, column, NAME_COLUMN, objectName } from './common.js';

const COLUMNS = Object.freeze([NAME_COLUMN, column('Holder', 'string', 'Identity of the current holder of the lease.'), AGE_COLUMN]);

/** The Lease printer. */
export const leasePrinter: TablePrinter = Object.freeze({
  columns: COLUMNS,
  cells: (lease: Obj, now: number) => [objectName(lease), str(at(lease, 'spec').holderIdentity), age(lease, now)],
});
