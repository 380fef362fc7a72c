/**
 * Service defaulting (upstream core/v1 `SetDefaults_Service`) and the clusterIP/clusterIPs
 * normalisation the upstream registry runs before allocation and validation. IP families,
 * cluster IPs and node ports are never defaulted here: the Service store allocates them
 * (lib/registry/core/service). spec 000 § Resources and their fields; issue #2 item 5.
 */
import { deepEqual } from '../../../apimachinery/deep-equal.js';
import type { Obj } from '../../define.js';

/** Seconds a ClientIP session stays sticky unless configured (3 hours). */
export const DEFAULT_CLIENT_IP_AFFINITY_SECONDS = 10800;

const strings = (v: unknown): string[] => (Array.isArray(v) ? (v as string[]) : []);

/** NodePort, LoadBalancer, or ClusterIP with external IPs: traffic may arrive from outside. */
export function isExternallyAccessible(spec: Obj): boolean {
  return spec.type === 'LoadBalancer' || spec.type === 'NodePort' || (spec.type === 'ClusterIP' && strings(spec.externalIPs).length > 0);
}

/**
 * ServiceSpec defaults that depend on other fields (type and sessionAffinity are already
 * defaulted): session affinity config per affinity, traffic policies, load-balancer node ports.
 */
export function defaultServiceSpec(spec: Obj): void {
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP') {
    const timeout = ((spec.sessionAffinityConfig as Obj | undefined)?.clientIP as Obj | undefined)?.timeoutSeconds;
    if (timeout === undefined) spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: DEFAULT_CLIENT_IP_AFFINITY_SECONDS } };
  }
  if (isExternallyAccessible(spec) && !spec.externalTrafficPolicy) spec.externalTrafficPolicy = 'Cluster';
  if (spec.internalTrafficPolicy === undefined && ['NodePort', 'LoadBalancer', 'ClusterIP'].includes(spec.type as string))
    spec.internalTrafficPolicy = 'Cluster';
  if (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts === undefined) spec.allocateLoadBalancerNodePorts = true;
}

/** A port's `targetPort` defaults to its `port` when unset, 0 or empty. */
export function defaultServicePort(port: Obj): void {
  if (port.targetPort === undefined || port.targetPort === 0 || port.targetPort === '') port.targetPort = port.port ?? 0;
}

/** On a LoadBalancer Service, an ingress point with an `ip` and no `ipMode` gets `VIP`. */
export function defaultLoadBalancerIngress(ingress: Obj, root: Obj): void {
  if ((root.spec as Obj | undefined)?.type === 'LoadBalancer' && ingress.ip && ingress.ipMode === undefined) ingress.ipMode = 'VIP';
}

/**
 * Reconciles `spec.clusterIP` and `spec.clusterIPs` the way upstream does before allocation and
 * validation: on create a lone `clusterIP` fills `clusterIPs`; on update (with `old`) an omitted
 * `clusterIPs` is carried over, a cleared `clusterIP` clears unchanged `clusterIPs`, and a changed
 * `clusterIP` replaces unchanged `clusterIPs` (validation then rejects the change). Mutates `service`.
 */
export function normalizeClusterIPs(service: Obj, old?: Obj): void {
  const spec = ((service.spec ??= {}) as Obj);
  const ip = (spec.clusterIP as string | undefined) ?? '';
  if (!old) {
    if (ip !== '' && strings(spec.clusterIPs).length === 0) spec.clusterIPs = [ip];
    return;
  }
  const oldSpec = (old.spec as Obj | undefined) ?? {};
  const oldIP = (oldSpec.clusterIP as string | undefined) ?? '';
  const oldIPs = strings(oldSpec.clusterIPs);
  if (oldIPs.length > 0 && strings(spec.clusterIPs).length === 0 && oldIP === ip) spec.clusterIPs = [...oldIPs];
  if (oldIP === ip) return;
  const unchanged = deepEqual(oldIPs, strings(spec.clusterIPs));
  if (oldIP !== '' && ip === '') {
    if (unchanged) delete spec.clusterIPs;
  } else if (unchanged) {
    spec.clusterIPs = [ip];
  }
}
