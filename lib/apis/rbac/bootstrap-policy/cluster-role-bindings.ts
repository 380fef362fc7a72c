/**
 * The default ClusterRoleBindings (upstream v1.30 `bootstrappolicy.ClusterRoleBindings()`):
 * `cluster-admin` to `system:masters`, the discovery roles to authenticated (and, for public
 * info, unauthenticated) users, issuer discovery to every service account, and the component
 * roles to their users. spec 001 § RBAC mode.
 */
import { SYSTEM_NAMESPACE } from '../../vendor.js';
import { type DefaultBinding, clusterBinding, group, serviceAccount, user } from './rule.js';

/** Well-known groups (upstream `user.SystemPrivilegedGroup`, `AllAuthenticated`, `AllUnauthenticated`). */
const MASTERS_GROUP = 'system:masters';
const AUTHENTICATED_GROUP = 'system:authenticated';
const UNAUTHENTICATED_GROUP = 'system:unauthenticated';
/** Group of every service account (upstream `serviceaccount.AllServiceAccountsGroup`). */
export const SERVICE_ACCOUNTS_GROUP = 'system:serviceaccounts';
/** Group of the node agents (upstream `user.NodesGroup`). */
export const NODES_GROUP = 'system:nodes';
/** Group of monitoring agents (upstream `user.MonitoringGroup`). */
export const MONITORING_GROUP = 'system:monitoring';
/** Users of the control-plane components (upstream `user.KubeControllerManager` etc.). */
export const CONTROLLER_MANAGER_USER = 'system:kube-controller-manager';
export const SCHEDULER_USER = 'system:kube-scheduler';
export const PROXY_USER = 'system:kube-proxy';

/** The default ClusterRoleBindings in upstream's definition order. */
export function clusterRoleBindings(): DefaultBinding[] {
  return [
    clusterBinding('cluster-admin', [group(MASTERS_GROUP)]),
    clusterBinding('system:monitoring', [group(MONITORING_GROUP)]),
    clusterBinding('system:discovery', [group(AUTHENTICATED_GROUP)]),
    clusterBinding('system:basic-user', [group(AUTHENTICATED_GROUP)]),
    clusterBinding('system:public-info-viewer', [group(AUTHENTICATED_GROUP), group(UNAUTHENTICATED_GROUP)]),
    clusterBinding('system:node-proxier', [user(PROXY_USER)]),
    clusterBinding('system:kube-controller-manager', [user(CONTROLLER_MANAGER_USER)]),
    clusterBinding('system:kube-dns', [serviceAccount(SYSTEM_NAMESPACE, 'kube-dns')]),
    clusterBinding('system:kube-scheduler', [user(SCHEDULER_USER)]),
    clusterBinding('system:volume-scheduler', [user(SCHEDULER_USER)]),
    // upstream: the binding exists without subjects since the Node authorizer took over (v1.8)
    clusterBinding('system:node', []),
    clusterBinding('system:service-account-issuer-discovery', [group(SERVICE_ACCOUNTS_GROUP)]),
  ];
}
