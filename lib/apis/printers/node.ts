/**
 * The Node's Table columns (spec 000 § Table representation): Name, Status, Roles, Age, Version;
 * wide: Internal-IP, External-IP, OS-Image, Kernel-Version, Container-Runtime. Cells as the
 * upstream v1.30 printer:
 * - Status: `Ready` / `NotReady` from the (last) Ready condition (`Unknown` without it), then
 *   `,SchedulingDisabled` for a cordoned node.
 * - Roles: from `node-role.<vendor domain>/<role>` label keys and the `<vendor domain>/role`
 *   label value, sorted, joined with `,`; `<none>`.
 * - Internal-IP / External-IP: the first address of that type, `<none>`; the node info fields
 *   `<unknown>` when empty.
 */
import type { TablePrinter } from '../../apimachinery/table/types.js';
import { objs, str, strMap, type Obj } from '../core/v1/obj-access.js';
import { VENDOR_DOMAIN, vendorKey } from '../vendor.js';
import { AGE_COLUMN, age, at, column, NAME_COLUMN, objectName, orNone, WIDE } from './common.js';

/** Label key prefix naming a role in the key (upstream `node-role.<domain>/`). */
const ROLE_LABEL_PREFIX = `node-role.${VENDOR_DOMAIN}/`;
/** Label whose value names a role. */
const ROLE_LABEL = vendorKey('role');

const COLUMNS = Object.freeze([
  NAME_COLUMN,
  column('Status', 'string', 'Readiness of the node, and whether scheduling is disabled.'),
  column('Roles', 'string', 'Roles of the node, from its role labels.'),
  AGE_COLUMN,
  column('Version', 'string', 'Version of the node agent.'),
  column('Internal-IP', 'string', 'The first internal address of the node.', WIDE),
  column('External-IP', 'string', 'The first external address of the node.', WIDE),
  column('OS-Image', 'string', 'Operating system image reported by the node.', WIDE),
  column('Kernel-Version', 'string', 'Kernel version reported by the node.', WIDE),
  column('Container-Runtime', 'string', 'Container runtime and version reported by the node.', WIDE),
]);

function nodeStatus(node: Obj): string {
  const ready = objs(at(node, 'status').conditions).findLast((c) => c.type === 'Ready');
  const parts = [ready === undefined ? 'Unknown' : ready.status === 'True' ? 'Ready' : 'NotReady'];
  if (at(node, 'spec').unschedulable === true) parts.push('SchedulingDisabled');
  return parts.join(',');
}

/** The node's roles, sorted and unique. */
export function nodeRoles(node: Obj): string[] {
  const roles = new Set<string>();
  for (const [key, value] of Object.entries(strMap(at(node, 'metadata').labels))) {
    if (key.startsWith(ROLE_LABEL_PREFIX)) {
      const role = key.slice(ROLE_LABEL_PREFIX.length);
      if (role !== '') roles.add(role);
    } else if (key === ROLE_LABEL && value !== '') {
      roles.add(value);
    }
  }
  return [...roles].sort();
}

function address(node: Obj, type: string): string {
  const found = objs(at(node, 'status').addresses).find((a) => a.type === type);
  return found === undefined ? '<none>' : str(found.address);
}

function nodeCells(node: Obj, now: number): string[] {
  const info = at(node, 'status', 'nodeInfo');
  const known = (v: unknown): string => str(v) || '<unknown>';
  return [
    objectName(node),
    nodeStatus(node),
    orNone(nodeRoles(node).join(',')),
    age(node, now),
    str(info.kubeletVersion),
    address(node, 'InternalIP'),
    address(node, 'ExternalIP'),
    known(info.osImage),
    known(info.kernelVersion),
    known(info.containerRuntimeVersion),
  ];
}

/** The Node printer. */
export const nodePrinter: TablePrinter = Object.freeze({ columns: COLUMNS, cells: nodeCells });
