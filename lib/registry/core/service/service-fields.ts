/**
 * Readers of the Service fields the allocators work on, and the carry-over of allocated values
 * an update did not restate (upstream service REST `patchAllocatedValues`, `needsClusterIP`,
 * `needsNodePort`, `needsHCNodePort`; `apiservice.NeedsHealthCheck`).
 */
import type { Obj } from '../../../apis/define.js';

/** The spec of a Service (created when missing). */
export function specOf(svc: Obj): Obj {
  return (svc.spec ??= {}) as Obj;
}

/** A string list field (`[]` when absent). */
export function strings(v: unknown): string[] {
  return Array.isArray(v) ? (v as string[]) : [];
}

/** The ports of a Service spec (`[]` when absent). */
export function portsOf(spec: Obj): Obj[] {
  return Array.isArray(spec.ports) ? (spec.ports as Obj[]) : [];
}

/** A number field, 0 when absent. */
export function num(v: unknown): number {
  return typeof v === 'number' ? v : 0;
}

/** Every type but ExternalName has cluster IPs (or is headless). */
export function needsClusterIP(svc: Obj): boolean {
  return specOf(svc).type !== 'ExternalName';
}

/** A headless Service: `clusterIPs[0]` is `None`. */
export function isHeadlessSpec(spec: Obj): boolean {
  return strings(spec.clusterIPs)[0] === 'None';
}

/** NodePort, and LoadBalancer unless `allocateLoadBalancerNodePorts` is false, get node ports allocated. */
export function shouldAllocateNodePorts(svc: Obj): boolean {
  const spec = specOf(svc);
  return spec.type === 'NodePort' || (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false);
}

/** A LoadBalancer with `externalTrafficPolicy: Local` has a health check node port. */
export function needsHealthCheck(svc: Obj): boolean {
  const spec = specOf(svc);
  return spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local';
}

/** The node ports the ports of a Service hold (non-zero `nodePort`s, in order, repeats kept). */
export function collectNodePorts(svc: Obj): number[] {
  return portsOf(specOf(svc))
    .map((p) => num(p.nodePort))
    .filter((n) => n !== 0);
}

/**
 * Fills in what an update left out and the server had allocated, so that re-sending the same
 * manifest succeeds: `clusterIP`/`clusterIPs` while both need cluster IPs, node ports (matched by
 * port name, unless the number is used by another port) while both allocate node ports, and the
 * health check node port while both need one. Mutates `svc`.
 */
export function patchAllocatedValues(svc: Obj, old: Obj): void {
  const spec = specOf(svc);
  const oldSpec = specOf(old);
  if (needsClusterIP(old) && needsClusterIP(svc)) {
    if (!spec.clusterIP) spec.clusterIP = oldSpec.clusterIP ?? '';
    if (spec.clusterIP === '') delete spec.clusterIP;
    if (strings(spec.clusterIPs).length === 0 && strings(oldSpec.clusterIPs).length > 0) spec.clusterIPs = [...strings(oldSpec.clusterIPs)];
  }
  if (shouldAllocateNodePorts(old) && shouldAllocateNodePorts(svc)) {
    const newUsed = new Set(collectNodePorts(svc));
    const used = new Set(collectNodePorts(old).filter((p) => newUsed.has(p)));
    const byName = new Map<string, number>();
    for (const p of portsOf(oldSpec)) byName.set(String(p.name ?? ''), num(p.nodePort));
    for (const p of portsOf(spec)) {
      if (num(p.nodePort) !== 0) continue;
      const oldValue = byName.get(String(p.name ?? '')) ?? 0;
      if (oldValue !== 0 && !used.has(oldValue)) p.nodePort = oldValue;
    }
  }
  if (needsHealthCheck(old) && needsHealthCheck(svc) && num(spec.healthCheckNodePort) === 0 && num(oldSpec.healthCheckNodePort) !== 0) {
    spec.healthCheckNodePort = oldSpec.healthCheckNodePort;
  }
}
