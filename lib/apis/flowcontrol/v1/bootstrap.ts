/**
 * The flow-control objects the server creates and keeps at start (upstream v1.30
 * `k8s.io/apiserver/pkg/apis/flowcontrol/bootstrap`): the mandatory `exempt` and `catch-all`
 * PriorityLevelConfigurations and FlowSchemas, whose specs no client may change (validation
 * insists on them, except `spec.exempt` of the `exempt` level), and the suggested ones an
 * operator may edit or delete. Every object carries the autoupdate annotation `"true"`. The specs
 * are already in their defaulted form (defaulting changes none of them). Upstream's
 * `kube-system` is the vendor system namespace.
 */
import { APF_AUTOUPDATE_ANNOTATION, SYSTEM_NAMESPACE } from '../../vendor.js';
import type { Obj } from '../../define.js';
import { COORDINATION_GROUP } from '../../coordination/v1/lease.js';
import { CONTROLLER_MANAGER_USER, NODES_GROUP, SCHEDULER_USER, SERVICE_ACCOUNTS_GROUP } from '../../rbac/bootstrap-policy/cluster-role-bindings.js';
import { CATCH_ALL, EXEMPT, FLOWCONTROL_GROUP, WILDCARD } from './types.js';

/** Well-known groups (upstream `user.SystemPrivilegedGroup`, `AllAuthenticated`, `AllUnauthenticated`). */
const MASTERS_GROUP = 'system:masters';
const AUTHENTICATED_GROUP = 'system:authenticated';
const UNAUTHENTICATED_GROUP = 'system:unauthenticated';

/** A bootstrap object: name, the autoupdate annotation and the spec. */
export interface BootstrapObject extends Obj {
  apiVersion: string;
  kind: 'FlowSchema' | 'PriorityLevelConfiguration';
  metadata: { name: string; annotations: Record<string, string> };
  spec: Obj;
}

const meta = (name: string) => ({ name, annotations: { [APF_AUTOUPDATE_ANNOTATION]: 'true' } });

function priorityLevel(name: string, spec: Obj): BootstrapObject {
  return { apiVersion: `${FLOWCONTROL_GROUP}/v1`, kind: 'PriorityLevelConfiguration', metadata: meta(name), spec };
}

/** A Limited level that queues: shares, lendable percent, queues, hand size, queue length limit. */
function queuingLevel(name: string, shares: number, lendable: number, queues: number, handSize: number): BootstrapObject {
  return priorityLevel(name, {
    type: 'Limited',
    limited: { nominalConcurrencyShares: shares, limitResponse: { type: 'Queue', queuing: { queues, handSize, queueLengthLimit: 50 } }, lendablePercent: lendable },
  });
}

function flowSchema(name: string, level: string, precedence: number, distinguisher: 'ByUser' | 'ByNamespace' | '', rule: Obj): BootstrapObject {
  const spec: Obj = { priorityLevelConfiguration: { name: level }, matchingPrecedence: precedence };
  if (distinguisher) spec.distinguisherMethod = { type: distinguisher };
  spec.rules = [rule];
  return { apiVersion: `${FLOWCONTROL_GROUP}/v1`, kind: 'FlowSchema', metadata: meta(name), spec };
}

const groups = (...names: string[]) => names.map((name) => ({ kind: 'Group', group: { name } }));
const users = (...names: string[]) => names.map((name) => ({ kind: 'User', user: { name } }));
const systemServiceAccounts = (...names: string[]) => names.map((name) => ({ kind: 'ServiceAccount', serviceAccount: { namespace: SYSTEM_NAMESPACE, name } }));

/** A resource rule; `clusterScope` false is left out, as Go's `omitempty` writes it. */
function resourceRule(verbs: string[], apiGroups: string[], resources: string[], namespaces: string[], clusterScope: boolean): Obj {
  return clusterScope ? { verbs, apiGroups, resources, clusterScope, namespaces } : { verbs, apiGroups, resources, namespaces };
}

/** Everything: every verb on every resource (cluster scope included) and every non-resource URL. */
function everything(subjects: Obj[]): Obj {
  return {
    subjects,
    resourceRules: [resourceRule([WILDCARD], [WILDCARD], [WILDCARD], [WILDCARD], true)],
    nonResourceRules: [{ verbs: [WILDCARD], nonResourceURLs: [WILDCARD] }],
  };
}

const leaderElectionVerbs = () => ['get', 'create', 'update'];

/** The mandatory PriorityLevelConfigurations, in upstream's order: `catch-all`, `exempt`. */
export function mandatoryPriorityLevels(): BootstrapObject[] {
  return [
    priorityLevel(CATCH_ALL, { type: 'Limited', limited: { nominalConcurrencyShares: 5, limitResponse: { type: 'Reject' }, lendablePercent: 0 } }),
    priorityLevel(EXEMPT, { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } }),
  ];
}

/** The mandatory FlowSchemas: `exempt` (system:masters, precedence 1) and `catch-all` (everyone, 10000). */
export function mandatoryFlowSchemas(): BootstrapObject[] {
  return [
    flowSchema(EXEMPT, EXEMPT, 1, '', everything(groups(MASTERS_GROUP))),
    flowSchema(CATCH_ALL, CATCH_ALL, 10000, 'ByUser', everything(groups(UNAUTHENTICATED_GROUP, AUTHENTICATED_GROUP))),
  ];
}

/** The suggested PriorityLevelConfigurations, in upstream's order. */
export function suggestedPriorityLevels(): BootstrapObject[] {
  return [
    queuingLevel('system', 30, 33, 64, 6),
    queuingLevel('node-high', 40, 25, 64, 6),
    queuingLevel('leader-election', 10, 0, 16, 4),
    queuingLevel('workload-high', 40, 50, 128, 6),
    queuingLevel('workload-low', 100, 90, 128, 6),
    queuingLevel('global-default', 20, 50, 128, 6),
  ];
}

/** The suggested FlowSchemas, in upstream's order. */
export function suggestedFlowSchemas(): BootstrapObject[] {
  return [
    flowSchema('system-nodes', 'system', 500, 'ByUser', everything(groups(NODES_GROUP))),
    flowSchema('system-node-high', 'node-high', 400, 'ByUser', {
      subjects: groups(NODES_GROUP),
      resourceRules: [
        resourceRule([WILDCARD], [''], ['nodes', 'nodes/status'], [WILDCARD], true),
        resourceRule([WILDCARD], [COORDINATION_GROUP], ['leases'], [WILDCARD], false),
      ],
    }),
    flowSchema('probes', EXEMPT, 2, '', {
      subjects: groups(UNAUTHENTICATED_GROUP, AUTHENTICATED_GROUP),
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }],
    }),
    flowSchema('system-leader-election', 'leader-election', 100, 'ByUser', {
      subjects: [...users(CONTROLLER_MANAGER_USER, SCHEDULER_USER), ...systemServiceAccounts(WILDCARD)],
      resourceRules: [resourceRule(leaderElectionVerbs(), [COORDINATION_GROUP], ['leases'], [WILDCARD], false)],
    }),
    flowSchema('workload-leader-election', 'leader-election', 200, 'ByUser', {
      subjects: systemServiceAccounts(WILDCARD),
      resourceRules: [
        resourceRule(leaderElectionVerbs(), [''], ['endpoints', 'configmaps'], [WILDCARD], false),
        resourceRule(leaderElectionVerbs(), [COORDINATION_GROUP], ['leases'], [WILDCARD], false),
      ],
    }),
    flowSchema('endpoint-controller', 'workload-high', 150, 'ByUser', {
      subjects: [...users(CONTROLLER_MANAGER_USER), ...systemServiceAccounts('endpoint-controller', 'endpointslicemirroring-controller')],
      resourceRules: [resourceRule(leaderElectionVerbs(), [''], ['endpoints'], [WILDCARD], false)],
    }),
    flowSchema('kube-controller-manager', 'workload-high', 800, 'ByNamespace', everything(users(CONTROLLER_MANAGER_USER))),
    flowSchema('kube-scheduler', 'workload-high', 800, 'ByNamespace', everything(users(SCHEDULER_USER))),
    flowSchema('kube-system-service-accounts', 'workload-high', 900, 'ByNamespace', everything(systemServiceAccounts(WILDCARD))),
    flowSchema('service-accounts', 'workload-low', 9000, 'ByUser', everything(groups(SERVICE_ACCOUNTS_GROUP))),
    flowSchema('global-default', 'global-default', 9900, 'ByUser', everything(groups(UNAUTHENTICATED_GROUP, AUTHENTICATED_GROUP))),
  ];
}

/** The spec of the mandatory object `name` of `kind`, or undefined when `name` is not mandatory. */
export function mandatorySpec(kind: 'FlowSchema' | 'PriorityLevelConfiguration', name: string): Obj | undefined {
  const objects = kind === 'FlowSchema' ? mandatoryFlowSchemas() : mandatoryPriorityLevels();
  return objects.find((o) => o.metadata.name === name)?.spec;
}
