/**
 * RoleBinding and ClusterRoleBinding validation with the upstream paths and messages (upstream
 * rbac validation `ValidateRoleBinding`, `ValidateClusterRoleBinding`,
 * `validateRoleBindingSubject` and their updates): the role reference points into the RBAC
 * group at a Role or ClusterRole (ClusterRole only for cluster bindings) and never changes;
 * subjects follow per-kind group and namespace rules. Empty required fields (subject kind and
 * name, roleRef kind and name) are reported by the schema as `Required value`.
 */
import { deepEqual } from '../../../apimachinery/deep-equal.js';
import { type FieldError, FieldPath, invalid, notSupported, required } from '../../../apimachinery/field-errors.js';
import { isDNS1123Subdomain, isValidPathSegmentName } from '../../../apimachinery/validation/names.js';
import { str, type Obj } from '../../core/v1/obj-access.js';
import { RBAC_GROUP } from './types.js';

function validateSubject(s: Obj, namespaced: boolean, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(s.name);
  const apiGroup = str(s.apiGroup);
  switch (s.kind) {
    case 'ServiceAccount':
      if (name !== '') errs.push(...isDNS1123Subdomain(name).map((m) => invalid(path.child('name'), name, m)));
      if (apiGroup !== '') errs.push(notSupported(path.child('apiGroup'), apiGroup, ['']));
      if (!namespaced && str(s.namespace) === '') errs.push(required(path.child('namespace')));
      break;
    case 'User':
    case 'Group':
      if (apiGroup !== RBAC_GROUP) errs.push(notSupported(path.child('apiGroup'), apiGroup, [RBAC_GROUP]));
      break;
    default:
      break;
  }
  return errs;
}

function validateBinding(binding: Obj, allowedKinds: string[], namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const ref = (binding.roleRef as Obj | undefined) ?? {};
  const refPath = FieldPath.of('roleRef');
  const apiGroup = str(ref.apiGroup);
  if (apiGroup !== '' && apiGroup !== RBAC_GROUP) errs.push(notSupported(refPath.child('apiGroup'), apiGroup, [RBAC_GROUP]));
  const kind = str(ref.kind);
  if (kind !== '' && !allowedKinds.includes(kind)) errs.push(notSupported(refPath.child('kind'), kind, allowedKinds));
  const name = str(ref.name);
  if (name !== '') errs.push(...isValidPathSegmentName(name).map((m) => invalid(refPath.child('name'), name, m)));
  const subjects = Array.isArray(binding.subjects) ? (binding.subjects as Obj[]) : [];
  subjects.forEach((s, i) => errs.push(...validateSubject(s ?? {}, namespaced, FieldPath.of('subjects').index(i))));
  return errs;
}

/** RoleBinding, on create and update: roleRef to a Role or ClusterRole; ServiceAccount subjects default to the binding's namespace. */
export function validateRoleBinding(binding: Obj): FieldError[] {
  return validateBinding(binding, ['Role', 'ClusterRole'], true);
}

/** ClusterRoleBinding, on create and update: roleRef to a ClusterRole; ServiceAccount subjects need a namespace. */
export function validateClusterRoleBinding(binding: Obj): FieldError[] {
  return validateBinding(binding, ['ClusterRole'], false);
}

/** Update of either binding: `roleRef` is immutable (delete and recreate the binding instead). */
export function validateBindingUpdate(binding: Obj, old: Obj): FieldError[] {
  if (deepEqual(binding.roleRef ?? {}, old.roleRef ?? {})) return [];
  return [invalid(FieldPath.of('roleRef'), binding.roleRef ?? {}, 'cannot change roleRef')];
}
