/**
 * Table columns of the storage kinds (spec 000 § Table representation), as the upstream v1.30
 * printers:
 * - StorageClass: Name (` (default)` after a default class's name), Provisioner, ReclaimPolicy
 *   (`Delete` when unset), VolumeBindingMode (`Immediate` when unset), AllowVolumeExpansion, Age.
 * - CSIDriver: Name, AttachRequired (true when unset), PodInfoOnMount, StorageCapacity,
 *   TokenRequests (audiences joined with `,`, `<unset>`), RequiresRepublish, Modes (`,`, `<none>`), Age.
 * - CSINode: Name, Drivers (their number), Age.
 * - VolumeAttachment: Name, Attacher, PV, Node, Attached, Age.
 * - CSIStorageCapacity: Name, StorageClassName, Capacity (`<unset>`); no age.
 */
import { Quantity } from '../../apimachinery/quantity.js';
import type { TablePrinter } from '../../apimachinery/table/types.js';
import { list, objs, str, strMap, type Obj } from '../core/v1/obj-access.js';
import { DEFAULT_STORAGE_CLASS_ANNOTATIONS } from '../vendor.js';
import { AGE_COLUMN, age, at, column, NAME_COLUMN, objectName } from './common.js';

/** A set boolean, or `fallback` (Go's value of an unset pointer as upstream reads it). */
const bool = (v: unknown, fallback: boolean): boolean => (typeof v === 'boolean' ? v : fallback);

/** True when one of the default-class annotations is `"true"` (upstream `IsDefaultAnnotation`). */
export function isDefaultStorageClass(sc: Obj): boolean {
  const annotations = strMap(at(sc, 'metadata').annotations);
  return DEFAULT_STORAGE_CLASS_ANNOTATIONS.some((a) => annotations[a] === 'true');
}

/** The StorageClass printer. */
export const storageClassPrinter: TablePrinter = Object.freeze({
  columns: Object.freeze([
    NAME_COLUMN,
    column('Provisioner', 'string', 'The provisioner of volumes of the class.'),
    column('ReclaimPolicy', 'string', 'Reclaim policy of provisioned volumes.'),
    column('VolumeBindingMode', 'string', 'When claims are provisioned and bound.'),
    column('AllowVolumeExpansion', 'string', 'Whether volumes of the class may be expanded.'),
    AGE_COLUMN,
  ]),
  cells: (sc: Obj, now: number) => [
    objectName(sc) + (isDefaultStorageClass(sc) ? ' (default)' : ''),
    str(sc.provisioner),
    typeof sc.reclaimPolicy === 'string' ? sc.reclaimPolicy : 'Delete',
    typeof sc.volumeBindingMode === 'string' ? sc.volumeBindingMode : 'Immediate',
    bool(sc.allowVolumeExpansion, false),
    age(sc, now),
  ],
});

/** The CSIDriver printer. */
export const csiDriverPrinter: TablePrinter = Object.freeze({
  columns: Object.freeze([
    NAME_COLUMN,
    column('AttachRequired', 'boolean', 'Whether the driver needs an attach operation.'),
    column('PodInfoOnMount', 'boolean', 'Whether the driver gets pod information on mount.'),
    column('StorageCapacity', 'boolean', 'Whether scheduling considers the capacity the driver reports.'),
    column('TokenRequests', 'string', 'Audiences of the service-account tokens the driver needs.'),
    column('RequiresRepublish', 'boolean', 'Whether the driver wants volumes published periodically.'),
    column('Modes', 'string', 'Volume lifecycle modes the driver supports.'),
    AGE_COLUMN,
  ]),
  cells: (d: Obj, now: number) => {
    const spec = at(d, 'spec');
    const audiences = objs(spec.tokenRequests).map((t) => str(t.audience));
    const modes = list(spec.volumeLifecycleModes).map(str).join(',');
    return [
      objectName(d),
      bool(spec.attachRequired, true),
      bool(spec.podInfoOnMount, false),
      bool(spec.storageCapacity, false),
      audiences.length === 0 ? '<unset>' : audiences.join(','),
      bool(spec.requiresRepublish, false),
      modes === '' ? '<none>' : modes,
      age(d, now),
    ];
  },
});

/** The CSINode printer. */
export const csiNodePrinter: TablePrinter = Object.freeze({
  columns: Object.freeze([NAME_COLUMN, column('Drivers', 'integer', 'Number of CSI drivers registered on the node.'), AGE_COLUMN]),
  cells: (n: Obj, now: number) => [objectName(n), list(at(n, 'spec').drivers).length, age(n, now)],
});

/** The VolumeAttachment printer. */
export const volumeAttachmentPrinter: TablePrinter = Object.freeze({
  columns: Object.freeze([
    NAME_COLUMN,
    column('Attacher', 'string', 'The volume driver that handles the attachment.', { format: 'name' }),
    column('PV', 'string', 'The PersistentVolume to attach.'),
    column('Node', 'string', 'The node to attach the volume to.'),
    column('Attached', 'boolean', 'Whether the volume is attached.'),
    AGE_COLUMN,
  ]),
  cells: (va: Obj, now: number) => {
    const spec = at(va, 'spec');
    return [objectName(va), str(spec.attacher), str(at(spec, 'source').persistentVolumeName), str(spec.nodeName), bool(at(va, 'status').attached, false), age(va, now)];
  },
});

/** The canonical text of a quantity value, or `<unset>`. */
function quantityText(v: unknown): string {
  if (v === undefined || v === null) return '<unset>';
  try {
    return Quantity.parse(String(v)).toString();
  } catch {
    return String(v);
  }
}

/** The CSIStorageCapacity printer. */
export const csiStorageCapacityPrinter: TablePrinter = Object.freeze({
  columns: Object.freeze([
    NAME_COLUMN,
    column('StorageClassName', 'string', 'The StorageClass the capacity is for.'),
    column('Capacity', 'string', 'Available capacity.'),
  ]),
  cells: (c: Obj) => [objectName(c), str(c.storageClassName), quantityText(c.capacity)],
});
