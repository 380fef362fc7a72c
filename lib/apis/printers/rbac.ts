/**
 * Table columns of the RBAC bindings (spec 000 § Table representation): Name, Role
 * (`<kind>/<name>` of roleRef), Age; wide: Users, Groups, ServiceAccounts (`namespace/name`),
 * each joined with `, ` — as the upstream v1.30 printers. Role and ClusterRole have no columns of
 * their own upstream: they print the default Name / Created At table.
 */
import type { TablePrinter } from '../../apimachinery/table/types.js';
import { objs, str, type Obj } from '../core/v1/obj-access.js';
import { AGE_COLUMN, age, at, column, NAME_COLUMN, objectName, WIDE } from './common.js';

function bindingColumns(what: string): TablePrinter['columns'] {
  return Object.freeze([
    NAME_COLUMN,
    column('Role', 'string', `The role the ${what} grants, as kind/name.`),
    AGE_COLUMN,
    column('Users', 'string', `Users the ${what} grants the role to.`, WIDE),
    column('Groups', 'string', `Groups the ${what} grants the role to.`, WIDE),
    column('ServiceAccounts', 'string', `Service accounts (namespace/name) the ${what} grants the role to.`, WIDE),
  ]);
}

function bindingCells(b: Obj, now: number): string[] {
  const ref = at(b, 'roleRef');
  const users: string[] = [];
  const groups: string[] = [];
  const serviceAccounts: string[] = [];
  for (const s of objs(b.subjects)) {
    if (s.kind === 'ServiceAccount') serviceAccounts.push(`${str(s.namespace)}/${str(s.name)}`);
    else if (s.kind === 'User') users.push(str(s.name));
    else if (s.kind === 'Group') groups.push(str(s.name));
  }
  return [objectName(b), `${str(ref.kind)}/${str(ref.name)}`, age(b, now), users.join(', '), groups.join(', '), serviceAccounts.join(', ')];
}

/** The RoleBinding printer. */
export const roleBindingPrinter: TablePrinter = Object.freeze({ columns: bindingColumns('binding'), cells: bindingCells });

/** The ClusterRoleBinding printer. */
export const clusterRoleBindingPrinter: TablePrinter = Object.freeze({ columns: bindingColumns('cluster binding'), cells: bindingCells });
