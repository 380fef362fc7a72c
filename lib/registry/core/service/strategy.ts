/**
 * Service strategy: `clusterIP` and `clusterIPs` kept consistent on every write (upstream
 * `normalizeClusterIPs`), and on update the fields a type change makes meaningless wiped when the
 * client left them as they were (upstream `dropTypeDependentFields`); the DELETE response is the
 * Service object and a PUT may create, as upstream. Cluster IPs and node ports are allocated and
 * released by the service store (storage.ts), which runs before this strategy.
 */
import { deepEqual } from '../../../apimachinery/deep-equal.js';
import { service } from '../../../apis/core/v1/cluster-kinds.js';
import { isExternallyAccessible, normalizeClusterIPs } from '../../../apis/core/v1/service-defaults.js';
import type { Obj } from '../../../apis/define.js';
import { newKindStrategy } from '../../generic/kind-strategy.js';
import type { Strategy } from '../../rest/strategy.js';
import { collectNodePorts, needsClusterIP, needsHealthCheck, num, portsOf, specOf, strings } from './service-fields.js';

const isNodePortType = (svc: Obj) => ['NodePort', 'LoadBalancer'].includes(specOf(svc).type as string);

/**
 * Wipes, on a type change, the fields the new type does not use, when the update did not change
 * them: cluster IPs and IP family fields (to ExternalName), node ports (to ClusterIP or
 * ExternalName, unless new node ports were added), the health check node port,
 * `allocateLoadBalancerNodePorts` and `loadBalancerClass` (away from LoadBalancer),
 * `externalTrafficPolicy` (to an internal type); a non-LoadBalancer has no load balancer status.
 */
export function dropTypeDependentFields(svc: Obj, old: Obj): void {
  const spec = specOf(svc);
  const oldSpec = specOf(old);
  const same = (field: string) => deepEqual(spec[field] ?? '', oldSpec[field] ?? '');
  const sameList = (field: string) => deepEqual(strings(spec[field]), strings(oldSpec[field]));
  if (needsClusterIP(old) && !needsClusterIP(svc)) {
    if (same('clusterIP') && sameList('clusterIPs')) {
      delete spec.clusterIP;
      delete spec.clusterIPs;
    }
    if (sameList('ipFamilies')) delete spec.ipFamilies;
    if (same('ipFamilyPolicy')) delete spec.ipFamilyPolicy;
  }
  const oldNodePorts = new Set(collectNodePorts(old));
  if (isNodePortType(old) && !isNodePortType(svc) && collectNodePorts(svc).every((p) => oldNodePorts.has(p))) {
    for (const p of portsOf(spec)) delete p.nodePort;
  }
  if (needsHealthCheck(old) && !needsHealthCheck(svc) && num(spec.healthCheckNodePort) === num(oldSpec.healthCheckNodePort)) delete spec.healthCheckNodePort;
  if (oldSpec.type === 'LoadBalancer' && spec.type !== 'LoadBalancer') {
    if (spec.allocateLoadBalancerNodePorts !== undefined && spec.allocateLoadBalancerNodePorts === oldSpec.allocateLoadBalancerNodePorts) delete spec.allocateLoadBalancerNodePorts;
    if (same('loadBalancerClass')) delete spec.loadBalancerClass;
  }
  if (isExternallyAccessible(oldSpec) && !isExternallyAccessible(spec) && same('externalTrafficPolicy')) delete spec.externalTrafficPolicy;
  if (spec.type !== 'LoadBalancer' && svc.status !== undefined) (svc.status as Obj).loadBalancer = {};
}

/** Create, update and delete rules of Service. */
export const serviceStrategy: Strategy = newKindStrategy(service, {
  tracksGeneration: false,
  allowCreateOnUpdate: true,
  returnDeletedObject: true,
  prepareForCreate: (obj) => normalizeClusterIPs(obj),
  prepareForUpdate: (obj, old) => {
    normalizeClusterIPs(obj, old);
    dropTypeDependentFields(obj, old);
  },
});
