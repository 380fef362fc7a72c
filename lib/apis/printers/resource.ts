/**
 * Table columns of the alpha kinds of `resource.<vendor>/v1alpha2`,
 * `internal.apiserver.<vendor>/v1alpha1` and `storagemigration.<vendor>/v1alpha1` (spec 000
 * § Table representation), cells as upstream v1.30's printers compute them:
 * - ResourceClass: Name, DriverName, Age.
 * - ResourceClaim: Name, ResourceClassName, AllocationMode, State (`deleted`, `pending`,
 *   `allocated`, `reserved`, `deallocating` joined with `,`), Age.
 * - ResourceClaimTemplate: Name, ResourceClassName, AllocationMode, Age.
 * - PodSchedulingContext: Name, SelectedNode, Age.
 * - ResourceSlice: Name, NodeName, DriverName, Age.
 * - ResourceClaimParameters / ResourceClassParameters: Name, GeneratedFrom
 *   (`<kind>.<apiGroup> [<namespace>/]<name>`, empty without a source), Age.
 * - StorageVersion: Name, CommonEncodingVersion (`<unset>`), StorageVersions (the first three
 *   `<apiServerID>=<encodingVersion>` joined with `,`, then ` + <n> more...`; `<unset>`), Age.
 * StorageVersionMigration has no printer upstream: the default table.
 */
import type { TablePrinter } from '../../apimachinery/table/types.js';
import { list, obj, objs, str, type Obj } from '../core/v1/obj-access.js';
import { AGE_COLUMN, age, at, column, NAME_COLUMN, objectName } from './common.js';

function printer(columns: TablePrinter['columns'], cells: TablePrinter['cells']): TablePrinter {
  return Object.freeze({ columns: Object.freeze([...columns]), cells });
}

const DRIVER_NAME = column('DriverName', 'string', 'Name of the dynamic resource driver.');
const CLASS_NAME = column('ResourceClassName', 'string', 'The ResourceClass of the claim.');
const ALLOCATION_MODE = column('AllocationMode', 'string', 'Immediate or WaitForFirstConsumer.');
const GENERATED_FROM = column('GeneratedFrom', 'string', 'The object these parameters were generated from.');

/** The ResourceClass printer. */
export const resourceClassPrinter = printer([NAME_COLUMN, DRIVER_NAME, AGE_COLUMN], (o: Obj, now: number) => [objectName(o), str(o.driverName), age(o, now)]);

/** A claim's state as upstream summarizes it. */
export function resourceClaimState(claim: Obj): string {
  const deleted = obj(claim.metadata)?.deletionTimestamp !== undefined;
  const status = at(claim, 'status');
  const states: string[] = [];
  if (deleted) states.push('deleted');
  if (obj(status.allocation) === undefined) {
    if (!deleted) states.push('pending');
  } else {
    states.push('allocated');
    if (list(status.reservedFor).length > 0) states.push('reserved');
    else if (deleted || status.deallocationRequested === true) states.push('deallocating');
  }
  return states.join(',');
}

/** The ResourceClaim printer. */
export const resourceClaimPrinter = printer(
  [NAME_COLUMN, CLASS_NAME, ALLOCATION_MODE, column('State', 'string', 'A summary of the current state (allocated, pending, reserved, etc.).'), AGE_COLUMN],
  (o: Obj, now: number) => {
    const spec = at(o, 'spec');
    return [objectName(o), str(spec.resourceClassName), str(spec.allocationMode), resourceClaimState(o), age(o, now)];
  },
);

/** The ResourceClaimTemplate printer. */
export const resourceClaimTemplatePrinter = printer([NAME_COLUMN, CLASS_NAME, ALLOCATION_MODE, AGE_COLUMN], (o: Obj, now: number) => {
  const spec = at(o, 'spec', 'spec');
  return [objectName(o), str(spec.resourceClassName), str(spec.allocationMode), age(o, now)];
});

/** The PodSchedulingContext printer. */
export const podSchedulingContextPrinter = printer(
  [NAME_COLUMN, column('SelectedNode', 'string', 'The node for which allocation is attempted.'), AGE_COLUMN],
  (o: Obj, now: number) => [objectName(o), str(at(o, 'spec').selectedNode), age(o, now)],
);

/** The ResourceSlice printer. */
export const resourceSlicePrinter = printer(
  [NAME_COLUMN, column('NodeName', 'string', 'The node providing the resources.'), DRIVER_NAME, AGE_COLUMN],
  (o: Obj, now: number) => [objectName(o), str(o.nodeName), str(o.driverName), age(o, now)],
);

/** `<kind>.<apiGroup> [<namespace>/]<name>` of a `generatedFrom` reference, empty without one. */
function generatedFrom(o: Obj): string {
  const ref = obj(o.generatedFrom);
  if (ref === undefined) return '';
  const ns = str(ref.namespace);
  return `${str(ref.kind)}.${str(ref.apiGroup)} ${ns === '' ? '' : `${ns}/`}${str(ref.name)}`;
}

/** The ResourceClaimParameters and ResourceClassParameters printer. */
export const resourceParametersPrinter = printer([NAME_COLUMN, GENERATED_FROM, AGE_COLUMN], (o: Obj, now: number) => [objectName(o), generatedFrom(o), age(o, now)]);

/** The first three server storage versions, then how many more (upstream `formatStorageVersions`). */
function storageVersionsCell(svs: Obj[]): string {
  const MAX = 3;
  const shown = svs.slice(0, MAX).map((sv) => `${str(sv.apiServerID)}=${str(sv.encodingVersion)}`);
  if (svs.length > MAX) return `${shown.join(',')} + ${svs.length - MAX} more...`;
  return shown.length === 0 ? '<unset>' : shown.join(',');
}

/** The StorageVersion printer. */
export const storageVersionPrinter = printer(
  [
    NAME_COLUMN,
    column('CommonEncodingVersion', 'string', 'The encoding version every API server agrees on.'),
    column('StorageVersions', 'string', 'The encoding version of each API server.'),
    AGE_COLUMN,
  ],
  (o: Obj, now: number) => {
    const status = at(o, 'status');
    const common = typeof status.commonEncodingVersion === 'string' ? status.commonEncodingVersion : '<unset>';
    return [objectName(o), common, storageVersionsCell(objs(status.storageVersions)), age(o, now)];
  },
);
