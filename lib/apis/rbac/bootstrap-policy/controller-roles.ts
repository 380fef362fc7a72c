/**
 * The ClusterRoles of the control-plane controllers, `system:controller:<name>`, each bound to the
 * ServiceAccount `<name>` of the system namespace (upstream v1.30 controller_policy.go with its
 * default feature gates). spec 001 § RBAC mode ("Controller roles use the prefix
 * `system:controller:`").
 */
import { SERVER_NAME, SYSTEM_NAMESPACE } from '../../vendor.js';
import { RBAC_GROUP } from '../v1/types.js';
import { SIGNERS } from './cluster-roles.js';
import { type DefaultBinding, type DefaultRole, G, defaultMeta, eventsRule, rule, serviceAccount } from './rule.js';

/** Prefix of the controller roles and bindings (upstream `saRolePrefix`). */
export const CONTROLLER_ROLE_PREFIX = 'system:controller:';

/** The ConfigMap legacy token tracking records its start in (upstream `kube-apiserver-legacy-service-account-token-tracking`). */
export const LEGACY_TOKEN_TRACKING_CONFIGMAP = `${SERVER_NAME}-legacy-service-account-token-tracking`;

/** One controller role: `system:controller:<name>` with `rules`. */
function controllerRole(name: string, rules: DefaultRole['rules']): DefaultRole {
  return { metadata: defaultMeta(`${CONTROLLER_ROLE_PREFIX}${name}`), rules };
}

/** The controller ClusterRoles in upstream's definition order. */
export function controllerRoles(): DefaultRole[] {
  return [
    controllerRole('attachdetach-controller', [
      rule('list', 'watch').groups(G.legacy).resources('persistentvolumes', 'persistentvolumeclaims').rule(),
      rule('get', 'list', 'watch').groups(G.legacy).resources('nodes').rule(),
      rule('patch', 'update').groups(G.legacy).resources('nodes/status').rule(),
      rule('list', 'watch').groups(G.legacy).resources('pods').rule(),
      eventsRule(),
      rule('get', 'create', 'delete', 'list', 'watch').groups(G.storage).resources('volumeattachments').rule(),
      rule('get', 'watch', 'list').groups(G.storage).resources('csidrivers').rule(),
      rule('get', 'watch', 'list').groups(G.storage).resources('csinodes').rule(),
    ]),
    controllerRole('clusterrole-aggregation-controller', [
      // upstream: escalate so that it can aggregate any rules without holding them
      rule('escalate', 'get', 'list', 'watch', 'update', 'patch').groups(G.rbac).resources('clusterroles').rule(),
    ]),
    controllerRole('cronjob-controller', [
      rule('get', 'list', 'watch', 'update').groups(G.batch).resources('cronjobs').rule(),
      rule('get', 'list', 'watch', 'create', 'update', 'delete', 'patch').groups(G.batch).resources('jobs').rule(),
      rule('update').groups(G.batch).resources('cronjobs/status').rule(),
      rule('update').groups(G.batch).resources('cronjobs/finalizers').rule(),
      rule('list', 'delete').groups(G.legacy).resources('pods').rule(),
      eventsRule(),
    ]),
    controllerRole('daemon-set-controller', [
      rule('get', 'list', 'watch').groups(G.extensions, G.apps).resources('daemonsets').rule(),
      rule('update').groups(G.extensions, G.apps).resources('daemonsets/status').rule(),
      rule('update').groups(G.extensions, G.apps).resources('daemonsets/finalizers').rule(),
      rule('list', 'watch').groups(G.legacy).resources('nodes').rule(),
      rule('list', 'watch', 'create', 'delete', 'patch').groups(G.legacy).resources('pods').rule(),
      rule('create').groups(G.legacy).resources('pods/binding').rule(),
      rule('get', 'list', 'watch', 'create', 'delete', 'update', 'patch').groups(G.apps).resources('controllerrevisions').rule(),
      eventsRule(),
    ]),
    controllerRole('deployment-controller', [
      rule('get', 'list', 'watch', 'update').groups(G.extensions, G.apps).resources('deployments').rule(),
      rule('update').groups(G.extensions, G.apps).resources('deployments/status').rule(),
      rule('update').groups(G.extensions, G.apps).resources('deployments/finalizers').rule(),
      rule('get', 'list', 'watch', 'create', 'update', 'patch', 'delete').groups(G.apps, G.extensions).resources('replicasets').rule(),
      // upstream: pods are read, and updated to adopt or orphan them
      rule('get', 'list', 'watch', 'update').groups(G.legacy).resources('pods').rule(),
      eventsRule(),
    ]),
    controllerRole('disruption-controller', [
      rule('get', 'list', 'watch').groups(G.extensions, G.apps).resources('deployments').rule(),
      rule('get', 'list', 'watch').groups(G.apps, G.extensions).resources('replicasets').rule(),
      rule('get', 'list', 'watch').groups(G.legacy).resources('replicationcontrollers').rule(),
      rule('get', 'list', 'watch').groups(G.policy).resources('poddisruptionbudgets').rule(),
      rule('get', 'list', 'watch').groups(G.apps).resources('statefulsets').rule(),
      rule('update').groups(G.policy).resources('poddisruptionbudgets/status').rule(),
      rule('get').groups('*').resources('*/scale').rule(),
      eventsRule(),
      // upstream: appended under PodDisruptionConditions (on by default in v1.30)
      rule('patch', 'update').groups(G.legacy).resources('pods/status').rule(),
    ]),
    controllerRole('endpoint-controller', [
      rule('get', 'list', 'watch').groups(G.legacy).resources('services', 'pods').rule(),
      rule('get', 'list', 'create', 'update', 'delete').groups(G.legacy).resources('endpoints').rule(),
      rule('create').groups(G.legacy).resources('endpoints/restricted').rule(),
      eventsRule(),
    ]),
    controllerRole('endpointslice-controller', [
      rule('get', 'list', 'watch').groups(G.legacy).resources('services', 'pods', 'nodes').rule(),
      rule('update').groups(G.legacy).resources('services/finalizers').rule(),
      rule('get', 'list', 'create', 'update', 'delete').groups(G.discovery).resources('endpointslices').rule(),
      eventsRule(),
    ]),
    controllerRole('endpointslicemirroring-controller', [
      rule('get', 'list', 'watch').groups(G.legacy).resources('services', 'endpoints').rule(),
      rule('update').groups(G.legacy).resources('services/finalizers').rule(),
      rule('update').groups(G.legacy).resources('endpoints/finalizers').rule(),
      rule('get', 'list', 'create', 'update', 'delete').groups(G.discovery).resources('endpointslices').rule(),
      eventsRule(),
    ]),
    controllerRole('expand-controller', [
      rule('get', 'list', 'watch', 'update', 'patch').groups(G.legacy).resources('persistentvolumes').rule(),
      rule('update', 'patch').groups(G.legacy).resources('persistentvolumeclaims/status').rule(),
      rule('get', 'list', 'watch').groups(G.legacy).resources('persistentvolumeclaims').rule(),
      eventsRule(),
    ]),
    controllerRole('ephemeral-volume-controller', [
      rule('get', 'list', 'watch').groups(G.legacy).resources('pods').rule(),
      rule('update').groups(G.legacy).resources('pods/finalizers').rule(),
      rule('get', 'list', 'watch', 'create').groups(G.legacy).resources('persistentvolumeclaims').rule(),
      eventsRule(),
    ]),
    controllerRole('generic-garbage-collector', [
      rule('get', 'list', 'watch', 'patch', 'update', 'delete').groups('*').resources('*').rule(),
      eventsRule(),
    ]),
    controllerRole('horizontal-pod-autoscaler', [
      rule('get', 'list', 'watch').groups(G.autoscaling).resources('horizontalpodautoscalers').rule(),
      rule('update').groups(G.autoscaling).resources('horizontalpodautoscalers/status').rule(),
      rule('get', 'update').groups('*').resources('*/scale').rule(),
      rule('list').groups(G.legacy).resources('pods').rule(),
      rule('list').groups(G.resMetrics).resources('pods').rule(),
      rule('get', 'list').groups(G.customMetrics).resources('*').rule(),
      rule('get', 'list').groups(G.externalMetrics).resources('*').rule(),
      eventsRule(),
    ]),
    controllerRole('job-controller', [
      rule('get', 'list', 'watch', 'update', 'patch').groups(G.batch).resources('jobs').rule(),
      rule('update').groups(G.batch).resources('jobs/status').rule(),
      rule('update').groups(G.batch).resources('jobs/finalizers').rule(),
      rule('list', 'watch', 'create', 'delete', 'patch').groups(G.legacy).resources('pods').rule(),
      eventsRule(),
    ]),
    controllerRole('legacy-service-account-token-cleaner', [
      rule('get').groups(G.legacy).resources('configmaps').names(LEGACY_TOKEN_TRACKING_CONFIGMAP).rule(),
      rule('patch', 'delete').groups(G.legacy).resources('secrets').rule(),
    ]),
    controllerRole('namespace-controller', [
      rule('get', 'list', 'watch', 'delete').groups(G.legacy).resources('namespaces').rule(),
      rule('update').groups(G.legacy).resources('namespaces/finalize', 'namespaces/status').rule(),
      rule('get', 'list', 'delete', 'deletecollection').groups('*').resources('*').rule(),
    ]),
    controllerRole('node-controller', [
      rule('get', 'list', 'update', 'delete', 'patch').groups(G.legacy).resources('nodes').rule(),
      rule('patch', 'update').groups(G.legacy).resources('nodes/status').rule(),
      rule('patch', 'update').groups(G.legacy).resources('pods/status').rule(),
      rule('list', 'delete').groups(G.legacy).resources('pods').rule(),
      eventsRule(),
      rule('get').groups(G.legacy).resources('pods').rule(),
    ]),
    controllerRole('persistent-volume-binder', [
      rule('get', 'list', 'watch', 'update', 'create', 'delete').groups(G.legacy).resources('persistentvolumes').rule(),
      rule('update').groups(G.legacy).resources('persistentvolumes/status').rule(),
      rule('get', 'list', 'watch', 'update').groups(G.legacy).resources('persistentvolumeclaims').rule(),
      rule('update').groups(G.legacy).resources('persistentvolumeclaims/status').rule(),
      rule('list', 'watch', 'get', 'create', 'delete').groups(G.legacy).resources('pods').rule(),
      rule('get', 'list', 'watch').groups(G.storage).resources('storageclasses').rule(),
      // upstream: recyclerClient.WatchPod
      rule('watch').groups(G.legacy).resources('events').rule(),
      eventsRule(),
    ]),
    controllerRole('pod-garbage-collector', [
      rule('list', 'watch', 'delete').groups(G.legacy).resources('pods').rule(),
      rule('get', 'list').groups(G.legacy).resources('nodes').rule(),
      rule('patch').groups(G.legacy).resources('pods/status').rule(),
    ]),
    controllerRole('replicaset-controller', [
      rule('get', 'list', 'watch', 'update').groups(G.apps, G.extensions).resources('replicasets').rule(),
      rule('update').groups(G.apps, G.extensions).resources('replicasets/status').rule(),
      rule('update').groups(G.apps, G.extensions).resources('replicasets/finalizers').rule(),
      rule('list', 'watch', 'patch', 'create', 'delete').groups(G.legacy).resources('pods').rule(),
      eventsRule(),
    ]),
    controllerRole('replication-controller', [
      rule('get', 'list', 'watch', 'update').groups(G.legacy).resources('replicationcontrollers').rule(),
      rule('update').groups(G.legacy).resources('replicationcontrollers/status').rule(),
      rule('update').groups(G.legacy).resources('replicationcontrollers/finalizers').rule(),
      rule('list', 'watch', 'patch', 'create', 'delete').groups(G.legacy).resources('pods').rule(),
      eventsRule(),
    ]),
    controllerRole('resourcequota-controller', [
      rule('list', 'watch').groups('*').resources('*').rule(),
      rule('update').groups(G.legacy).resources('resourcequotas/status').rule(),
      eventsRule(),
    ]),
    controllerRole('route-controller', [
      rule('list', 'watch').groups(G.legacy).resources('nodes').rule(),
      rule('patch').groups(G.legacy).resources('nodes/status').rule(),
      eventsRule(),
    ]),
    controllerRole('service-account-controller', [
      rule('create').groups(G.legacy).resources('serviceaccounts').rule(),
      eventsRule(),
    ]),
    controllerRole('service-controller', [
      rule('get', 'list', 'watch').groups(G.legacy).resources('services').rule(),
      rule('patch', 'update').groups(G.legacy).resources('services/status').rule(),
      rule('list', 'watch').groups(G.legacy).resources('nodes').rule(),
      eventsRule(),
    ]),
    controllerRole('statefulset-controller', [
      rule('list', 'watch').groups(G.legacy).resources('pods').rule(),
      rule('get', 'list', 'watch').groups(G.apps).resources('statefulsets').rule(),
      rule('update').groups(G.apps).resources('statefulsets/status').rule(),
      rule('update').groups(G.apps).resources('statefulsets/finalizers').rule(),
      rule('get', 'create', 'delete', 'update', 'patch').groups(G.legacy).resources('pods').rule(),
      rule('get', 'create', 'delete', 'update', 'patch', 'list', 'watch').groups(G.apps).resources('controllerrevisions').rule(),
      rule('get', 'create').groups(G.legacy).resources('persistentvolumeclaims').rule(),
      eventsRule(),
      rule('update', 'delete').groups(G.legacy).resources('persistentvolumeclaims').rule(),
    ]),
    controllerRole('ttl-controller', [
      rule('update', 'patch', 'list', 'watch').groups(G.legacy).resources('nodes').rule(),
      eventsRule(),
    ]),
    controllerRole('certificate-controller', [
      rule('get', 'list', 'watch', 'delete').groups(G.certificates).resources('certificatesigningrequests').rule(),
      rule('update').groups(G.certificates).resources('certificatesigningrequests/status', 'certificatesigningrequests/approval').rule(),
      rule('approve').groups(G.certificates).resources('signers').names(SIGNERS.apiserverClientKubelet).rule(),
      rule('sign')
        .groups(G.certificates)
        .resources('signers')
        .names(SIGNERS.legacyUnknown, SIGNERS.apiserverClient, SIGNERS.apiserverClientKubelet, SIGNERS.kubeletServing)
        .rule(),
      rule('create').groups(G.authorization).resources('subjectaccessreviews').rule(),
      eventsRule(),
    ]),
    controllerRole('pvc-protection-controller', [
      rule('get', 'list', 'watch', 'update').groups(G.legacy).resources('persistentvolumeclaims').rule(),
      rule('list', 'watch', 'get').groups(G.legacy).resources('pods').rule(),
      eventsRule(),
    ]),
    controllerRole('pv-protection-controller', [
      rule('get', 'list', 'watch', 'update').groups(G.legacy).resources('persistentvolumes').rule(),
      eventsRule(),
    ]),
    controllerRole('ttl-after-finished-controller', [
      rule('get', 'list', 'watch', 'delete').groups(G.batch).resources('jobs').rule(),
      eventsRule(),
    ]),
    controllerRole('root-ca-cert-publisher', [
      rule('create', 'update').groups(G.legacy).resources('configmaps').rule(),
      eventsRule(),
    ]),
    controllerRole('validatingadmissionpolicy-status-controller', [
      rule('get', 'list', 'watch').groups(G.admissionRegistration).resources('validatingadmissionpolicies').rule(),
      rule('get', 'patch', 'update').groups(G.admissionRegistration).resources('validatingadmissionpolicies/status').rule(),
      eventsRule(),
    ]),
  ];
}

/**
 * The binding of every controller role: ClusterRoleBinding `system:controller:<name>` to the
 * ServiceAccount `<name>` of the system namespace (upstream `addControllerRole`).
 */
export function controllerRoleBindings(): DefaultBinding[] {
  return controllerRoles().map((role) => {
    const name = role.metadata.name;
    return {
      metadata: defaultMeta(name),
      roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name },
      subjects: [serviceAccount(SYSTEM_NAMESPACE, name.slice(CONTROLLER_ROLE_PREFIX.length))],
    };
  });
}
