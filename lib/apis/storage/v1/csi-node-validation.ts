/**
 * CSINode validation with the upstream paths and messages (upstream storage validation
 * `ValidateCSINode` / `ValidateCSINodeUpdate` of v1.30, long node IDs allowed as on every write
 * since 1.22). A driver's absent `name` or `nodeID` is the declarative walk's `Required value`.
 */
import { duplicate, type FieldError, FieldPath, invalid, required } from '../../../apimachinery/field-errors.js';
import { isQualifiedName } from '../../../apimachinery/validation/names.js';
import { validateNonnegative } from '../../../apimachinery/validation/formats.js';
import { list, obj, objs, str, type Obj } from '../../core/v1/obj-access.js';
import { semanticEqual } from '../../core/v1/semantic-equal.js';
import { validateCSIDriverName } from './group.js';

/** Longest `nodeID` of a driver. */
export const MAX_NODE_ID = 256;

const drivers = FieldPath.of('spec', 'drivers');

/** One driver: its name, node ID, allocatable count, uniqueness, and topology keys (errors at the driver). */
function validateDriver(d: Obj, path: FieldPath, names: Set<string>): FieldError[] {
  const name = str(d.name);
  const nodeID = str(d.nodeID);
  const errs = validateCSIDriverName(name, path.child('name'), true);
  if (nodeID.length > MAX_NODE_ID) errs.push(invalid(path.child('nodeID'), nodeID, `must be ${MAX_NODE_ID} characters or less`));
  errs.push(...validateNonnegative(obj(d.allocatable)?.count, path.child('allocatable', 'count')));
  if (names.has(name)) errs.push(duplicate(path.child('name'), name));
  names.add(name);
  const keys = new Set<string>();
  for (const key of list(d.topologyKeys).map(str)) {
    if (key === '') errs.push(required(path));
    if (keys.has(key)) errs.push(duplicate(path, key));
    keys.add(key);
    errs.push(...isQualifiedName(key).map((m) => invalid(path, key, m)));
  }
  return errs;
}

/** Create and update: every driver. */
export function validateCSINode(node: Obj): FieldError[] {
  const names = new Set<string>();
  return objs(obj(node.spec)?.drivers).flatMap((d, i) => validateDriver(d, drivers.index(i), names));
}

/** Update: a driver present before and after (by name) is immutable. */
export function validateCSINodeUpdate(node: Obj, old: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const next = objs(obj(node.spec)?.drivers);
  for (const before of objs(obj(old.spec)?.drivers)) {
    for (const after of next) {
      if (after.name === before.name && !semanticEqual(after, before)) errs.push(invalid(drivers, after, 'field is immutable'));
    }
  }
  return errs;
}
