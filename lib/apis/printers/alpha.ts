/**
 * Table columns of the v1alpha1 kinds served when enabled (spec 000 § Table representation),
 * cells as the upstream v1.30 printers compute them:
 * - VolumeAttributesClass: Name, DriverName, Age.
 * - IPAddress: Name, ParentRef (`<resource>[.<group>][/<namespace>]/<name>` lower-cased, `<none>`).
 * - ServiceCIDR: Name, CIDRs (joined with `,`), Age.
 * - ClusterTrustBundle: Name, SignerName.
 */
import type { TablePrinter } from '../../apimachinery/table/types.js';
import { list, obj, str, type Obj } from '../core/v1/obj-access.js';
import { AGE_COLUMN, age, at, column, NAME_COLUMN, objectName } from './common.js';

/** A printer from its columns and cell function. */
function printer(columns: TablePrinter['columns'], cells: TablePrinter['cells']): TablePrinter {
  return Object.freeze({ columns: Object.freeze([...columns]), cells });
}

/** The VolumeAttributesClass printer. */
export const volumeAttributesClassPrinter = printer(
  [NAME_COLUMN, column('DriverName', 'string', 'Name of the CSI driver.'), AGE_COLUMN],
  (vac: Obj, now: number) => [objectName(vac), str(vac.driverName), age(vac, now)],
);

/** An IPAddress's parent as upstream prints it. */
function parentRefCell(ref: Obj | undefined): string {
  if (ref === undefined) return '<none>';
  const group = str(ref.group);
  const resource = str(ref.resource);
  let out = (group === '' ? resource : `${resource}.${group}`).toLowerCase();
  if (str(ref.namespace) !== '') out += `/${str(ref.namespace)}`;
  return `${out}/${str(ref.name)}`;
}

/** The IPAddress printer. */
export const ipAddressPrinter = printer(
  [NAME_COLUMN, column('ParentRef', 'string', 'The object the address is allocated to.')],
  (ip: Obj) => [objectName(ip), parentRefCell(obj(at(ip, 'spec').parentRef))],
);

/** The ServiceCIDR printer. */
export const serviceCIDRPrinter = printer(
  [NAME_COLUMN, column('CIDRs', 'string', 'The ranges Service cluster IPs are allocated from.'), AGE_COLUMN],
  (cidr: Obj, now: number) => [objectName(cidr), list(at(cidr, 'spec').cidrs).map(str).join(','), age(cidr, now)],
);

/** The ClusterTrustBundle printer. */
export const clusterTrustBundlePrinter = printer(
  [NAME_COLUMN, column('SignerName', 'string', 'The signer the trust anchors are associated with.')],
  (ctb: Obj) => [objectName(ctb), str(at(ctb, 'spec').signerName)],
);
