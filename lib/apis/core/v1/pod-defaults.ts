/**
 * Defaults that upstream applies to a Pod object but not to pod templates (`SetDefaults_Pod`):
 * `enableServiceLinks: true`, container requests copied from limits where unset, and, with host
 * networking, host ports equal to container ports. Everything else is declared on the fields.
 */
import { obj, objs, type Obj } from './obj-access.js';

/** Copies each limit into `requests` when that resource has no request (upstream SetDefaults_Pod). */
function defaultRequestsFromLimits(c: Obj): void {
  const resources = obj(c.resources);
  const limits = obj(resources?.limits);
  if (!resources || !limits) return;
  const requests = obj(resources.requests) ?? {};
  for (const [name, value] of Object.entries(limits)) if (!(name in requests)) requests[name] = value;
  resources.requests = requests;
}

/** With host networking a port's unset hostPort is its containerPort. */
function defaultHostNetworkPorts(c: Obj): void {
  for (const p of objs(c.ports)) if (!p.hostPort) p.hostPort = p.containerPort;
}

/**
 * The PodSpec defaulter hook: acts only when `spec` is the top-level spec of the object being
 * defaulted (a Pod), never for the templates inside Deployments, Jobs or CronJobs.
 */
export function defaultPodOnlyFields(spec: Obj, root: Obj): void {
  if (root.spec !== spec) return;
  const containers = [...objs(spec.containers), ...objs(spec.initContainers)];
  for (const c of containers) defaultRequestsFromLimits(c);
  if (spec.enableServiceLinks === undefined) spec.enableServiceLinks = true;
  if (spec.hostNetwork === true) for (const c of containers) defaultHostNetworkPorts(c);
}
