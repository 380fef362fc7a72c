/** The kinds of `rbac.authorization.<vendor>/v1` (issue #2 item 5; spec 001 § RBAC mode). */
import type { KindDefinition } from '../../define.js';
import { clusterRole, clusterRoleBinding, role, roleBinding } from './kinds.js';

export { validateBindingUpdate, validateClusterRoleBinding, validateRoleBinding } from './binding-validation.js';
export { clusterRole, clusterRoleBinding, role, roleBinding } from './kinds.js';
export { validateClusterRole, validatePolicyRule, validateRole } from './role-validation.js';
export { aggregationRule, defaultSubject, policyRule, RBAC_GROUP, roleRef, subject, SUBJECT_KINDS } from './types.js';

/** Every kind of the group version, for the catalogue. */
export const rbacV1Kinds: readonly KindDefinition[] = [role, clusterRole, roleBinding, clusterRoleBinding];
