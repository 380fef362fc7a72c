/**
 * The kinds of `rbac.authorization.<vendor>/v1`: Role, ClusterRole, RoleBinding,
 * ClusterRoleBinding (upstream field structure and protobuf numbers). Names are path segments.
 * Stored and validated here; authorization with them is a later issue. spec 001 § RBAC mode.
 */
import { field, listOf } from '../../../apimachinery/schema/builder.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { validateBindingUpdate, validateClusterRoleBinding, validateRoleBinding } from './binding-validation.js';
import { validateClusterRole, validateRole } from './role-validation.js';
import { aggregationRule, policyRule, RBAC_GROUP, roleRef, subject } from './types.js';
import { clusterRoleBindingPrinter, roleBindingPrinter } from '../../printers/rbac.js';

/** ObjectMeta, a non-pointer struct: always written (Go ignores omitempty on structs). */
const meta = () => field(1, objectMeta, { omitEmpty: false });
const rules = () => field(2, listOf(policyRule, { listType: 'atomic' }), { omitEmpty: false, description: 'The permissions granted; purely additive.' });
const subjects = () => field(2, listOf(subject, { listType: 'atomic' }), { description: 'Users, groups and service accounts the role is granted to.' });
/** The fields of a binding that name an API group. */
const BINDING_GROUP_REFERENCES = ['roleRef.apiGroup', 'subjects[].apiGroup'];
const ref = () => field(3, roleRef, { required: true, omitEmpty: false, description: 'The role granted; immutable.' });

/** The Role kind: namespaced rules. */
export const role = defineKind({
  group: RBAC_GROUP,
  version: 'v1',
  kind: 'Role',
  resource: 'roles',
  singular: 'role',
  namespaced: true,
  nameRule: 'pathSegment',
  description: 'A set of permissions within one namespace.',
  fields: { metadata: meta(), rules: rules() },
  validate: validateRole,
});

/** The ClusterRole kind: cluster-scoped rules, optionally aggregated. */
export const clusterRole = defineKind({
  group: RBAC_GROUP,
  version: 'v1',
  kind: 'ClusterRole',
  resource: 'clusterroles',
  singular: 'clusterrole',
  namespaced: false,
  nameRule: 'pathSegment',
  description: 'A set of permissions usable cluster-wide or, through a RoleBinding, in one namespace.',
  fields: {
    metadata: meta(),
    rules: rules(),
    aggregationRule: field(3, aggregationRule, { description: 'When set, rules are filled from the ClusterRoles it selects.' }),
  },
  validate: validateClusterRole,
});

/** The RoleBinding kind: grants within its namespace. */
export const roleBinding = defineKind({
  group: RBAC_GROUP,
  version: 'v1',
  kind: 'RoleBinding',
  resource: 'rolebindings',
  singular: 'rolebinding',
  namespaced: true,
  nameRule: 'pathSegment',
  description: 'Grants a Role or ClusterRole to subjects within one namespace.',
  printerColumns: roleBindingPrinter,
  fields: { metadata: meta(), subjects: subjects(), roleRef: ref() },
  groupReferences: BINDING_GROUP_REFERENCES,
  validate: validateRoleBinding,
  validateUpdate: validateBindingUpdate,
});

/** The ClusterRoleBinding kind: grants cluster-wide. */
export const clusterRoleBinding = defineKind({
  group: RBAC_GROUP,
  version: 'v1',
  kind: 'ClusterRoleBinding',
  resource: 'clusterrolebindings',
  singular: 'clusterrolebinding',
  namespaced: false,
  nameRule: 'pathSegment',
  description: 'Grants a ClusterRole to subjects across the whole cluster.',
  printerColumns: clusterRoleBindingPrinter,
  fields: { metadata: meta(), subjects: subjects(), roleRef: ref() },
  groupReferences: BINDING_GROUP_REFERENCES,
  validate: validateClusterRoleBinding,
  validateUpdate: validateBindingUpdate,
});
