/**
 * The ComponentStatus's Table columns (spec 000 § Table representation), as the upstream v1.30
 * printer: Name; Status — `Healthy` when the `Healthy` condition is `True`, `Unhealthy` when it is
 * anything else, `Unknown` without one; Message and Error of that condition. No Age column.
 */
import type { TablePrinter } from '../../apimachinery/table/types.js';
import { objs, str, type Obj } from '../core/v1/obj-access.js';
import { column, NAME_COLUMN, objectName } from './common.js';

const COLUMNS = Object.freeze([
  NAME_COLUMN,
  column('Status', 'string', 'Status of the component conditions'),
  column('Message', 'string', 'Message of the component conditions'),
  column('Error', 'string', 'Error of the component conditions'),
]);

/** The cells of the first `Healthy` condition: status word, message, error. */
function healthCells(cs: Obj): [string, string, string] {
  const healthy = objs(cs.conditions).find((c) => c.type === 'Healthy');
  if (!healthy) return ['Unknown', '', ''];
  return [healthy.status === 'True' ? 'Healthy' : 'Unhealthy', str(healthy.message), str(healthy.error)];
}

/** The ComponentStatus printer. */
export const componentStatusPrinter: TablePrinter = Object.freeze({
  columns: COLUMNS,
  cells: (cs: Obj) => [objectName(cs), ...healthCells(cs)],
});
