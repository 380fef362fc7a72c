/**
 * The default RBAC policy of upstream v1.30 as data (spec 001 § RBAC mode): what the server
 * creates and reconciles at every start (lib/controllers/rbac-bootstrap). Pure: every call
 * returns fresh objects the caller may change.
 */
import { clusterRoleBindings } from './cluster-role-bindings.js';
import { clusterRoles } from './cluster-roles.js';
import { controllerRoleBindings, controllerRoles } from './controller-roles.js';
import { namespaceRoleBindings, namespaceRoles } from './namespace-policy.js';
import type { DefaultBinding, DefaultRole } from './rule.js';

export { BOOTSTRAPPING_VALUE, type DefaultBinding, type DefaultMeta, type DefaultRole, type PolicyRule, type Subject } from './rule.js';
export { CONTROLLER_ROLE_PREFIX } from './controller-roles.js';

/** The whole default policy. */
export interface DefaultPolicy {
  /** Cluster roles, then controller roles. */
  clusterRoles: DefaultRole[];
  /** Cluster role bindings, then controller role bindings. */
  clusterRoleBindings: DefaultBinding[];
  /** Roles of the system and public namespaces (each with `metadata.namespace`). */
  roles: DefaultRole[];
  /** RoleBindings of the system and public namespaces. */
  roleBindings: DefaultBinding[];
}

/** The default policy, freshly built. */
export function defaultPolicy(): DefaultPolicy {
  return {
    clusterRoles: [...clusterRoles(), ...controllerRoles()],
    clusterRoleBindings: [...clusterRoleBindings(), ...controllerRoleBindings()],
    roles: namespaceRoles(),
    roleBindings: namespaceRoleBindings(),
  };
}
