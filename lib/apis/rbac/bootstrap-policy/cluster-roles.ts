/**
 * The default ClusterRoles (upstream v1.30 `bootstrappolicy.ClusterRoles()`, policy.go): the
 * user-facing roles (`cluster-admin`, and `admin` / `edit` / `view` aggregated from the
 * `system:aggregate-to-*` roles), discovery and public-info roles, and the roles of the node,
 * bootstrap and control-plane components. Since v1.22 `edit` and `admin` carry no write access to
 * Endpoints and EndpointSlices. spec 001 § RBAC mode.
 */
import { rbacAggregateLabel, signerName } from '../../vendor.js';
import { type DefaultRole, G, type PolicyRule, READ, READ_WRITE, WRITE, defaultMeta, eventsRule, rule } from './rule.js';

/** The signers of the certificate approver roles (upstream `kubernetes.io/kube-apiserver-client` etc.). */
export const SIGNERS = {
  apiserverClient: signerName('apiserver-client'),
  apiserverClientKubelet: signerName('apiserver-client-kubelet'),
  kubeletServing: signerName('kubelet-serving'),
  legacyUnknown: signerName('legacy-unknown'),
} as const;

/** The aggregation rule selecting roles labelled `rbacAggregateLabel(to)=true`. */
function aggregateFrom(to: 'admin' | 'edit' | 'view'): DefaultRole['aggregationRule'] {
  return { clusterRoleSelectors: [{ matchLabels: { [rbacAggregateLabel(to)]: 'true' } }] };
}

/** Labels that aggregate a role into `to`. */
function aggregatesInto(to: 'admin' | 'edit' | 'view'): Record<string, string> {
  return { [rbacAggregateLabel(to)]: 'true' };
}

/** The approver role of one signer (upstream `system:certificates.k8s.io:<signer>-approver`). */
function approver(name: string, signer: string): DefaultRole {
  return {
    metadata: defaultMeta(`system:${G.certificates}:${name}-approver`),
    rules: [rule('approve').groups(G.certificates).resources('signers').names(signer).rule()],
  };
}

/** The rules of `system:node` (upstream `NodeRules()` with v1.30's default feature gates). */
export function nodeRules(): PolicyRule[] {
  return [
    rule('create').groups(G.authentication).resources('tokenreviews').rule(),
    rule('create').groups(G.authorization).resources('subjectaccessreviews', 'localsubjectaccessreviews').rule(),
    rule(...READ).groups(G.legacy).resources('services').rule(),
    rule('create', 'get', 'list', 'watch').groups(G.legacy).resources('nodes').rule(),
    rule('update', 'patch').groups(G.legacy).resources('nodes/status').rule(),
    rule('update', 'patch').groups(G.legacy).resources('nodes').rule(),
    rule('create', 'update', 'patch').groups(G.legacy).resources('events').rule(),
    rule(...READ).groups(G.legacy).resources('pods').rule(),
    rule('create', 'delete').groups(G.legacy).resources('pods').rule(),
    rule('update', 'patch').groups(G.legacy).resources('pods/status').rule(),
    rule('create').groups(G.legacy).resources('pods/eviction').rule(),
    rule('get', 'list', 'watch').groups(G.legacy).resources('secrets', 'configmaps').rule(),
    rule('get').groups(G.legacy).resources('persistentvolumeclaims', 'persistentvolumes').rule(),
    rule('get').groups(G.legacy).resources('endpoints').rule(),
    rule('create', 'get', 'list', 'watch').groups(G.certificates).resources('certificatesigningrequests').rule(),
    rule('get', 'create', 'update', 'patch', 'delete').groups(G.coordination).resources('leases').rule(),
    rule('get').groups(G.storage).resources('volumeattachments').rule(),
    rule('create').groups(G.legacy).resources('serviceaccounts/token').rule(),
    rule('get', 'update', 'patch').groups(G.legacy).resources('persistentvolumeclaims/status').rule(),
    rule('get', 'watch', 'list').groups(G.storage).resources('csidrivers').rule(),
    rule('get', 'create', 'update', 'patch', 'delete').groups(G.storage).resources('csinodes').rule(),
    rule('get', 'list', 'watch').groups(G.node).resources('runtimeclasses').rule(),
  ];
}

/** The default ClusterRoles in upstream's definition order (labels and annotation included). */
export function clusterRoles(): DefaultRole[] {
  return [
    {
      metadata: defaultMeta('cluster-admin'),
      rules: [rule('*').groups('*').resources('*').rule(), rule('*').urls('*').rule()],
    },
    {
      metadata: defaultMeta('system:discovery'),
      rules: [rule('get').urls('/livez', '/readyz', '/healthz', '/version', '/version/', '/openapi', '/openapi/*', '/api', '/api/*', '/apis', '/apis/*').rule()],
    },
    {
      metadata: defaultMeta('system:monitoring'),
      rules: [rule('get').urls('/metrics', '/metrics/slis', '/livez', '/readyz', '/healthz', '/livez/*', '/readyz/*', '/healthz/*').rule()],
    },
    {
      metadata: defaultMeta('system:basic-user'),
      rules: [
        rule('create').groups(G.authorization).resources('selfsubjectaccessreviews', 'selfsubjectrulesreviews').rule(),
        rule('create').groups(G.authentication).resources('selfsubjectreviews').rule(),
      ],
    },
    {
      metadata: defaultMeta('system:public-info-viewer'),
      rules: [rule('get').urls('/livez', '/readyz', '/healthz', '/version', '/version/').rule()],
    },
    { metadata: defaultMeta('admin'), rules: [], aggregationRule: aggregateFrom('admin') },
    { metadata: defaultMeta('edit', aggregatesInto('admin')), rules: [], aggregationRule: aggregateFrom('edit') },
    { metadata: defaultMeta('view', aggregatesInto('edit')), rules: [], aggregationRule: aggregateFrom('view') },
    {
      metadata: defaultMeta('system:aggregate-to-admin', aggregatesInto('admin')),
      rules: [
        rule('create').groups(G.authorization).resources('localsubjectaccessreviews').rule(),
        rule(...READ_WRITE).groups(G.rbac).resources('roles', 'rolebindings').rule(),
      ],
    },
    {
      metadata: defaultMeta('system:aggregate-to-edit', aggregatesInto('edit')),
      rules: [
        rule(...READ).groups(G.legacy).resources('pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward', 'secrets', 'services/proxy').rule(),
        rule('impersonate').groups(G.legacy).resources('serviceaccounts').rule(),
        rule(...WRITE).groups(G.legacy).resources('pods', 'pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward').rule(),
        rule('create').groups(G.legacy).resources('pods/eviction').rule(),
        // Endpoints are not written by edit/admin since v1.22 (CVE-2021-25740).
        rule(...WRITE)
          .groups(G.legacy)
          .resources('replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/proxy', 'persistentvolumeclaims', 'configmaps', 'secrets', 'events')
          .rule(),
        rule('create').groups(G.legacy).resources('serviceaccounts/token').rule(),
        rule(...WRITE)
          .groups(G.apps)
          .resources('statefulsets', 'statefulsets/scale', 'daemonsets', 'deployments', 'deployments/scale', 'deployments/rollback', 'replicasets', 'replicasets/scale')
          .rule(),
        rule(...WRITE).groups(G.autoscaling).resources('horizontalpodautoscalers').rule(),
        rule(...WRITE).groups(G.batch).resources('jobs', 'cronjobs').rule(),
        rule(...WRITE)
          .groups(G.extensions)
          .resources('daemonsets', 'deployments', 'deployments/scale', 'deployments/rollback', 'ingresses', 'replicasets', 'replicasets/scale', 'replicationcontrollers/scale', 'networkpolicies')
          .rule(),
        rule(...WRITE).groups(G.policy).resources('poddisruptionbudgets').rule(),
        rule(...WRITE).groups(G.networking).resources('networkpolicies', 'ingresses').rule(),
        rule(...READ_WRITE).groups(G.coordination).resources('leases').rule(),
      ],
    },
    {
      metadata: defaultMeta('system:aggregate-to-view', aggregatesInto('view')),
      rules: [
        rule(...READ)
          .groups(G.legacy)
          .resources('pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'configmaps')
          .rule(),
        rule(...READ)
          .groups(G.legacy)
          .resources('limitranges', 'resourcequotas', 'bindings', 'events', 'pods/status', 'resourcequotas/status', 'namespaces/status', 'replicationcontrollers/status', 'pods/log')
          .rule(),
        rule(...READ).groups(G.legacy).resources('namespaces').rule(),
        rule(...READ).groups(G.discovery).resources('endpointslices').rule(),
        rule(...READ)
          .groups(G.apps)
          .resources(
            'controllerrevisions',
            'statefulsets', 'statefulsets/status', 'statefulsets/scale',
            'daemonsets', 'daemonsets/status',
            'deployments', 'deployments/status', 'deployments/scale',
            'replicasets', 'replicasets/status', 'replicasets/scale',
          )
          .rule(),
        rule(...READ).groups(G.autoscaling).resources('horizontalpodautoscalers', 'horizontalpodautoscalers/status').rule(),
        rule(...READ).groups(G.batch).resources('jobs', 'cronjobs', 'cronjobs/status', 'jobs/status').rule(),
        rule(...READ)
          .groups(G.extensions)
          .resources(
            'daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status',
            'ingresses', 'ingresses/status', 'replicasets', 'replicasets/scale', 'replicasets/status',
            'replicationcontrollers/scale', 'networkpolicies',
          )
          .rule(),
        rule(...READ).groups(G.policy).resources('poddisruptionbudgets', 'poddisruptionbudgets/status').rule(),
        rule(...READ).groups(G.networking).resources('networkpolicies', 'ingresses', 'ingresses/status').rule(),
      ],
    },
    {
      metadata: defaultMeta('system:heapster'),
      rules: [
        rule(...READ).groups(G.legacy).resources('events', 'pods', 'nodes', 'namespaces').rule(),
        rule(...READ).groups(G.extensions).resources('deployments').rule(),
      ],
    },
    { metadata: defaultMeta('system:node'), rules: nodeRules() },
    {
      metadata: defaultMeta('system:node-problem-detector'),
      rules: [
        rule('get').groups(G.legacy).resources('nodes').rule(),
        rule('patch').groups(G.legacy).resources('nodes/status').rule(),
        eventsRule(),
      ],
    },
    {
      metadata: defaultMeta('system:kubelet-api-admin'),
      rules: [
        rule('get', 'list', 'watch').groups(G.legacy).resources('nodes').rule(),
        rule('proxy').groups(G.legacy).resources('nodes').rule(),
        rule('*').groups(G.legacy).resources('nodes/proxy', 'nodes/metrics', 'nodes/stats', 'nodes/log').rule(),
      ],
    },
    {
      metadata: defaultMeta('system:node-bootstrapper'),
      rules: [rule('create', 'get', 'list', 'watch').groups(G.certificates).resources('certificatesigningrequests').rule()],
    },
    {
      metadata: defaultMeta('system:auth-delegator'),
      rules: [
        rule('create').groups(G.authentication).resources('tokenreviews').rule(),
        rule('create').groups(G.authorization).resources('subjectaccessreviews').rule(),
      ],
    },
    {
      metadata: defaultMeta('system:kube-aggregator'),
      rules: [rule(...READ).groups(G.legacy).resources('services', 'endpoints').rule()],
    },
    {
      metadata: defaultMeta('system:kube-controller-manager'),
      rules: [
        eventsRule(),
        rule('create').groups(G.coordination).resources('leases').rule(),
        rule('get', 'update').groups(G.coordination).resources('leases').names('kube-controller-manager').rule(),
        rule('create').groups(G.legacy).resources('secrets', 'serviceaccounts').rule(),
        rule('delete').groups(G.legacy).resources('secrets').rule(),
        rule('get').groups(G.legacy).resources('namespaces', 'secrets', 'serviceaccounts', 'configmaps').rule(),
        rule('update').groups(G.legacy).resources('secrets', 'serviceaccounts').rule(),
        rule('create').groups(G.authentication).resources('tokenreviews').rule(),
        rule('create').groups(G.authorization).resources('subjectaccessreviews').rule(),
        rule('list', 'watch').groups('*').resources('*').rule(),
        rule('create').groups(G.legacy).resources('serviceaccounts/token').rule(),
      ],
    },
    {
      metadata: defaultMeta('system:kube-dns'),
      rules: [rule('list', 'watch').groups(G.legacy).resources('endpoints', 'services').rule()],
    },
    {
      metadata: defaultMeta('system:persistent-volume-provisioner'),
      rules: [
        rule('get', 'list', 'watch', 'create', 'delete').groups(G.legacy).resources('persistentvolumes').rule(),
        rule('get', 'list', 'watch', 'update').groups(G.legacy).resources('persistentvolumeclaims').rule(),
        rule(...READ).groups(G.storage).resources('storageclasses').rule(),
        rule('watch').groups(G.legacy).resources('events').rule(),
        eventsRule(),
      ],
    },
    {
      metadata: defaultMeta(`system:${G.certificates}:certificatesigningrequests:nodeclient`),
      rules: [rule('create').groups(G.certificates).resources('certificatesigningrequests/nodeclient').rule()],
    },
    {
      metadata: defaultMeta(`system:${G.certificates}:certificatesigningrequests:selfnodeclient`),
      rules: [rule('create').groups(G.certificates).resources('certificatesigningrequests/selfnodeclient').rule()],
    },
    approver('apiserver-client', SIGNERS.apiserverClient),
    approver('apiserver-client-kubelet', SIGNERS.apiserverClientKubelet),
    approver('kubelet-serving', SIGNERS.kubeletServing),
    approver('legacy-unknown', SIGNERS.legacyUnknown),
    {
      metadata: defaultMeta('system:volume-scheduler'),
      rules: [
        rule(...READ, 'update', 'patch').groups(G.legacy).resources('persistentvolumes').rule(),
        rule(...READ).groups(G.storage).resources('storageclasses').rule(),
        rule(...READ, 'update', 'patch').groups(G.legacy).resources('persistentvolumeclaims').rule(),
      ],
    },
    {
      metadata: defaultMeta('system:kube-scheduler'),
      rules: [
        eventsRule(),
        rule('create').groups(G.coordination).resources('leases').rule(),
        rule('get', 'update').groups(G.coordination).resources('leases').names('kube-scheduler').rule(),
        rule(...READ).groups(G.legacy).resources('nodes').rule(),
        rule('get', 'list', 'watch', 'delete').groups(G.legacy).resources('pods').rule(),
        rule('create').groups(G.legacy).resources('pods/binding', 'bindings').rule(),
        rule('patch', 'update').groups(G.legacy).resources('pods/status').rule(),
        rule(...READ).groups(G.legacy).resources('replicationcontrollers', 'services').rule(),
        rule(...READ).groups(G.apps, G.extensions).resources('replicasets').rule(),
        rule(...READ).groups(G.apps).resources('statefulsets').rule(),
        rule(...READ).groups(G.policy).resources('poddisruptionbudgets').rule(),
        rule(...READ).groups(G.legacy).resources('persistentvolumeclaims', 'persistentvolumes').rule(),
        rule('create').groups(G.authentication).resources('tokenreviews').rule(),
        rule('create').groups(G.authorization).resources('subjectaccessreviews').rule(),
        rule(...READ).groups(G.storage).resources('csinodes').rule(),
        rule(...READ).groups(G.legacy).resources('namespaces').rule(),
        rule(...READ).groups(G.storage).resources('csidrivers').rule(),
        rule(...READ).groups(G.storage).resources('csistoragecapacities').rule(),
      ],
    },
    {
      metadata: defaultMeta('system:service-account-issuer-discovery'),
      // the slash-ended forms too, as upstream grants them: clients generated from the published
      // OpenAPI document request the paths with a trailing slash
      rules: [rule('get').urls('/.well-known/openid-configuration', '/.well-known/openid-configuration/', '/openid/v1/jwks', '/openid/v1/jwks/').rule()],
    },
    {
      metadata: defaultMeta('system:node-proxier'),
      rules: [
        rule('list', 'watch').groups(G.legacy).resources('services', 'endpoints').rule(),
        rule('get', 'list', 'watch').groups(G.legacy).resources('nodes').rule(),
        eventsRule(),
        rule('list', 'watch').groups(G.discovery).resources('endpointslices').rule(),
      ],
    },
  ];
}
