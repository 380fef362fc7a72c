/**
 * Gives the stored pods, nodes and services their connect subresources (issue #20; spec 000 §
 * Verb mapping): `pods/{attach,exec,log,portforward,proxy}`, `nodes/proxy`, `services/proxy`.
 */
import type { ResourceStorage } from '../../generic/resource-storage.js';
import type { KubeletClientConfig } from './kubelet-connection.js';
import { nodeProxyConnecter } from './node-proxy.js';
import { podConnecters } from './pod-connecters.js';
import { serviceProxyConnecter } from './service-proxy.js';

/**
 * Sets `connecters` on the core pods, nodes and services of `resources` (each found by its
 * group and resource; one missing leaves the others as they are), reaching kubelets with `kubelet`.
 */
export function addConnecters(resources: readonly ResourceStorage[], kubelet: KubeletClientConfig): void {
  const find = (resource: string) => resources.find((r) => r.store.gr.group === '' && r.store.gr.resource === resource);
  const [pods, nodes, services, endpoints] = [find('pods'), find('nodes'), find('services'), find('endpoints')];
  if (pods && nodes) pods.connecters = podConnecters({ pods: pods.store, nodes: nodes.store, kubelet });
  if (nodes) nodes.connecters = new Map([['proxy', nodeProxyConnecter(nodes.store, kubelet)]]);
  if (services && endpoints && pods) services.connecters = new Map([['proxy', serviceProxyConnecter({ services: services.store, endpoints: endpoints.store, pods: pods.store })]]);
}
