/**
 * Table columns of the core storage and policy kinds (spec 000 § Table representation), cells as
 * the upstream v1.30 printers compute them:
 * - PersistentVolume: Name, Capacity (storage), Access Modes (`RWO,ROX,RWX,RWOP`), Reclaim
 *   Policy, Status (phase, `Terminating` once deleted), Claim (`namespace/name`), StorageClass
 *   (beta annotation first), VolumeAttributesClass (`<unset>`), Reason, Age; wide: VolumeMode.
 * - PersistentVolumeClaim: Name, Status, Volume, Capacity and Access Modes (from status, once
 *   bound to a volume), StorageClass, VolumeAttributesClass, Age; wide: VolumeMode.
 * - ResourceQuota: Name, Request and Limit (`name: used/hard` of each enforced resource, sorted;
 *   `limits.*` in Limit), Age.
 * - PodTemplate: Name, Containers, Images, Pod Labels.
 * LimitRange has no printer upstream (default Name / Created At table).
 */
import { Quantity, QuantityParseError } from '../../apimachinery/quantity.js';
import type { TablePrinter } from '../../apimachinery/table/types.js';
import { obj, str, strMap, type Obj } from '../core/v1/obj-access.js';
import { BETA_STORAGE_CLASS_ANNOTATION } from '../vendor.js';
import { AGE_COLUMN, age, at, column, formatLabels, NAME_COLUMN, objectName, podTemplateCells, WIDE } from './common.js';

/** A printer from its columns and cell function. */
function printer(columns: TablePrinter['columns'], cells: TablePrinter['cells']): TablePrinter {
  return Object.freeze({ columns: Object.freeze([...columns]), cells });
}

const ACCESS_MODE_ABBREVIATIONS: [string, string][] = [
  ['ReadWriteOnce', 'RWO'],
  ['ReadOnlyMany', 'ROX'],
  ['ReadWriteMany', 'RWX'],
  ['ReadWriteOncePod', 'RWOP'],
];

/** Upstream `GetAccessModesAsString`: the abbreviations of the listed modes, in a fixed order. */
function accessModes(modes: unknown): string {
  const set = new Set(Array.isArray(modes) ? modes.map(str) : []);
  return ACCESS_MODE_ABBREVIATIONS.filter(([mode]) => set.has(mode))
    .map(([, abbr]) => abbr)
    .join(',');
}

/** A quantity as Go's `Quantity.String()` prints it: canonical form, `0` when absent. */
function quantityText(v: unknown): string {
  if (v === undefined || v === null) return '0';
  try {
    return Quantity.parse(typeof v === 'number' ? String(v) : str(v)).toString();
  } catch (err) {
    if (err instanceof QuantityParseError) return str(v);
    throw err;
  }
}

/** The phase, or `Terminating` once the object is being deleted. */
function phase(o: Obj): string {
  return at(o, 'metadata').deletionTimestamp ? 'Terminating' : str(at(o, 'status').phase);
}

/** The storage class: the deprecated beta annotation first, then the spec field. */
function storageClass(o: Obj): string {
  const annotations = strMap(at(o, 'metadata').annotations);
  return annotations[BETA_STORAGE_CLASS_ANNOTATION] ?? str(at(o, 'spec').storageClassName);
}

/** A set optional string, or `<unset>`. */
const orUnset = (v: unknown): string => (typeof v === 'string' ? v : '<unset>');

const STORAGE_CLASS_DESCRIPTION = 'StorageClass of the pv';

/** The PersistentVolume printer. */
export const persistentVolumePrinter = printer(
  [
    NAME_COLUMN,
    column('Capacity', 'string', 'The resources and capacity of the volume.'),
    column('Access Modes', 'string', 'The ways the volume can be mounted.'),
    column('Reclaim Policy', 'string', 'What happens to the volume when released from its claim.'),
    column('Status', 'string', 'Whether the volume is available, bound to a claim, or released by a claim.'),
    column('Claim', 'string', 'The claim bound to the volume.'),
    column('StorageClass', 'string', STORAGE_CLASS_DESCRIPTION),
    column('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pv'),
    column('Reason', 'string', 'Why the volume is in its phase.'),
    AGE_COLUMN,
    column('VolumeMode', 'string', 'Whether the volume is a formatted filesystem or a raw block device.', WIDE),
  ],
  (pv, now) => {
    const spec = at(pv, 'spec');
    const claimRef = obj(spec.claimRef);
    return [
      objectName(pv),
      quantityText(obj(spec.capacity)?.storage),
      accessModes(spec.accessModes),
      str(spec.persistentVolumeReclaimPolicy),
      phase(pv),
      claimRef ? `${str(claimRef.namespace)}/${str(claimRef.name)}` : '',
      storageClass(pv),
      orUnset(spec.volumeAttributesClassName),
      str(at(pv, 'status').reason),
      age(pv, now),
      orUnset(spec.volumeMode),
    ];
  },
);

/** The PersistentVolumeClaim printer. */
export const persistentVolumeClaimPrinter = printer(
  [
    NAME_COLUMN,
    column('Status', 'string', 'The phase of the claim.'),
    column('Volume', 'string', 'The volume bound to the claim.'),
    column('Capacity', 'string', 'The resources of the bound volume.'),
    column('Access Modes', 'string', 'The access modes of the bound volume.'),
    column('StorageClass', 'string', 'StorageClass of the pvc'),
    column('VolumeAttributesClass', 'string', 'VolumeAttributesClass of the pvc'),
    AGE_COLUMN,
    column('VolumeMode', 'string', 'The volume mode the claim requires.', WIDE),
  ],
  (pvc, now) => {
    const spec = at(pvc, 'spec');
    const status = at(pvc, 'status');
    const bound = str(spec.volumeName) !== '';
    return [
      objectName(pvc),
      phase(pvc),
      str(spec.volumeName),
      bound ? quantityText(obj(status.capacity)?.storage) : '',
      bound ? accessModes(status.accessModes) : '',
      storageClass(pvc),
      orUnset(spec.volumeAttributesClassName),
      age(pvc, now),
      orUnset(spec.volumeMode),
    ];
  },
);

/** `name: used/hard` of each enforced resource, sorted by name, split into requests and limits. */
function quotaCells(status: Obj): [string, string] {
  const hard = obj(status.hard) ?? {};
  const used = obj(status.used) ?? {};
  const requests: string[] = [];
  const limits: string[] = [];
  for (const name of Object.keys(hard).sort()) {
    const pieces = name.split('.');
    const text = `${name}: ${quantityText(used[name])}/${quantityText(hard[name])}`;
    (pieces.length > 1 && pieces[0] === 'limits' ? limits : requests).push(text);
  }
  return [requests.join(', '), limits.join(', ')];
}

/** The ResourceQuota printer. */
export const resourceQuotaPrinter = printer(
  [
    NAME_COLUMN,
    column('Request', 'string', 'Request represents a minimum amount of cpu/memory that a container may consume.'),
    column('Limit', 'string', 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.'),
    AGE_COLUMN,
  ],
  (quota, now) => [objectName(quota), ...quotaCells(at(quota, 'status')), age(quota, now)],
);

/** The PodTemplate printer. */
export const podTemplatePrinter = printer(
  [
    NAME_COLUMN,
    column('Containers', 'string', 'Names of each container in the template.'),
    column('Images', 'string', 'Images referenced by each container in the template.'),
    column('Pod Labels', 'string', 'The labels for the pod template.'),
  ],
  (pt) => {
    const template = at(pt, 'template');
    const [containers, images] = podTemplateCells(template, '');
    return [objectName(pt), containers, images, formatLabels(at(template, 'metadata').labels)];
  },
);
