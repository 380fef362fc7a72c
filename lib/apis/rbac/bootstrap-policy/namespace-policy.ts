/**
 * The default Roles and RoleBindings of the system and public namespaces (upstream v1.30
 * namespace_policy.go; `kube-system` and `kube-public` are our SYSTEM_NAMESPACE and
 * PUBLIC_NAMESPACE). spec 001 § RBAC mode.
 */
import { PUBLIC_NAMESPACE, SYSTEM_NAMESPACE } from '../../vendor.js';
import { RBAC_GROUP } from '../v1/types.js';
import { CONTROLLER_MANAGER_USER, SCHEDULER_USER } from './cluster-role-bindings.js';
import { CONTROLLER_ROLE_PREFIX } from './controller-roles.js';
import { type DefaultBinding, type DefaultRole, G, type Subject, defaultMeta, eventsRule, rule, serviceAccount, user } from './rule.js';

/** The ConfigMap of the public namespace the bootstrap signer signs (upstream `cluster-info`). */
const CLUSTER_INFO = 'cluster-info';
/** The ConfigMap of the system namespace with the front-proxy settings (upstream `extension-apiserver-authentication`). */
const EXTENSION_APISERVER_AUTHENTICATION = 'extension-apiserver-authentication';

function role(namespace: string, name: string, rules: DefaultRole['rules']): DefaultRole {
  return { metadata: defaultMeta(name, {}, namespace), rules };
}

function roleBinding(namespace: string, name: string, roleName: string, subjects: Subject[]): DefaultBinding {
  return { metadata: defaultMeta(name, {}, namespace), roleRef: { apiGroup: RBAC_GROUP, kind: 'Role', name: roleName }, subjects };
}

/** The default Roles, namespace by namespace, in upstream's definition order. */
export function namespaceRoles(): DefaultRole[] {
  return [
    role(SYSTEM_NAMESPACE, 'extension-apiserver-authentication-reader', [
      rule('get', 'list', 'watch').groups(G.legacy).resources('configmaps').names(EXTENSION_APISERVER_AUTHENTICATION).rule(),
    ]),
    role(SYSTEM_NAMESPACE, 'system::leader-locking-kube-controller-manager', [
      rule('watch').groups(G.legacy).resources('configmaps').rule(),
      rule('get', 'update').groups(G.legacy).resources('configmaps').names('kube-controller-manager').rule(),
    ]),
    role(SYSTEM_NAMESPACE, 'system::leader-locking-kube-scheduler', [
      rule('watch').groups(G.legacy).resources('configmaps').rule(),
      rule('get', 'update').groups(G.legacy).resources('configmaps').names('kube-scheduler').rule(),
    ]),
    role(SYSTEM_NAMESPACE, `${CONTROLLER_ROLE_PREFIX}bootstrap-signer`, [rule('get', 'list', 'watch').groups(G.legacy).resources('secrets').rule()]),
    role(SYSTEM_NAMESPACE, `${CONTROLLER_ROLE_PREFIX}cloud-provider`, [rule('create', 'get', 'list', 'watch').groups(G.legacy).resources('configmaps').rule()]),
    role(SYSTEM_NAMESPACE, `${CONTROLLER_ROLE_PREFIX}token-cleaner`, [
      rule('delete', 'get', 'list', 'watch').groups(G.legacy).resources('secrets').rule(),
      eventsRule(),
    ]),
    role(PUBLIC_NAMESPACE, `${CONTROLLER_ROLE_PREFIX}bootstrap-signer`, [
      rule('get', 'list', 'watch').groups(G.legacy).resources('configmaps').rule(),
      rule('update').groups(G.legacy).resources('configmaps').names(CLUSTER_INFO).rule(),
      eventsRule(),
    ]),
  ];
}

/** The default RoleBindings in upstream's definition order. */
export function namespaceRoleBindings(): DefaultBinding[] {
  const controller = (name: string) => serviceAccount(SYSTEM_NAMESPACE, name);
  return [
    roleBinding(SYSTEM_NAMESPACE, 'system::extension-apiserver-authentication-reader', 'extension-apiserver-authentication-reader', [
      user(CONTROLLER_MANAGER_USER),
      user(SCHEDULER_USER),
    ]),
    roleBinding(SYSTEM_NAMESPACE, 'system::leader-locking-kube-controller-manager', 'system::leader-locking-kube-controller-manager', [
      user(CONTROLLER_MANAGER_USER),
      controller('kube-controller-manager'),
    ]),
    roleBinding(SYSTEM_NAMESPACE, 'system::leader-locking-kube-scheduler', 'system::leader-locking-kube-scheduler', [user(SCHEDULER_USER), controller('kube-scheduler')]),
    roleBinding(SYSTEM_NAMESPACE, `${CONTROLLER_ROLE_PREFIX}bootstrap-signer`, `${CONTROLLER_ROLE_PREFIX}bootstrap-signer`, [controller('bootstrap-signer')]),
    roleBinding(SYSTEM_NAMESPACE, `${CONTROLLER_ROLE_PREFIX}cloud-provider`, `${CONTROLLER_ROLE_PREFIX}cloud-provider`, [controller('cloud-provider')]),
    roleBinding(SYSTEM_NAMESPACE, `${CONTROLLER_ROLE_PREFIX}token-cleaner`, `${CONTROLLER_ROLE_PREFIX}token-cleaner`, [controller('token-cleaner')]),
    roleBinding(PUBLIC_NAMESPACE, `${CONTROLLER_ROLE_PREFIX}bootstrap-signer`, `${CONTROLLER_ROLE_PREFIX}bootstrap-signer`, [controller('bootstrap-signer')]),
  ];
}
