/**
 * Allocation of a Service's cluster IPs, node ports and health check node port, as upstream's
 * service REST allocator (`allocateCreate`, `allocateUpdate`, `releaseAllocatedResources`):
 * family fields first (ip-families.ts), then cluster IPs per family, then node ports. Each step
 * writes its range in etcd at once; the returned transaction undoes the allocations when the
 * write of the Service fails (`revert`) and performs the releases an update implies only when it
 * succeeds (`commit`). A dry-run writes nothing. Errors are upstream's: 422 for a requested IP or
 * port that cannot be had, 500 when the range has no room.
 */
import { newInternalError, newInvalid } from '../../../apimachinery/errors.js';
import { type FieldError, FieldPath, goStringSlice, invalid } from '../../../apimachinery/field-errors.js';
import type { Obj } from '../../../apis/define.js';
import type { IPAllocator, PortAllocator, PortOperation } from './allocators.js';
import { initIPFamilyFields, isUnchangedPreferDualStack } from './ip-families.js';
import { familyOfIP, type IPFamily } from './ipam.js';
import { AllocationError } from './range-store.js';
import { collectNodePorts, isHeadlessSpec, needsHealthCheck, num, portsOf, shouldAllocateNodePorts, specOf, strings } from './service-fields.js';

/** The outcome of one Service write's allocations. */
export interface AllocationTransaction {
  /** The write succeeded: perform the releases it implies. */
  commit(): Promise<void>;
  /** The write failed: give back what was taken. */
  revert(): Promise<void>;
}

/** Reports a release that failed (the repair loop fixes the range later). */
export type ReleaseErrorHandler = (err: unknown, what: string) => void;

const nameOf = (svc: Obj) => String((svc.metadata as Obj | undefined)?.name ?? '');
const invalidService = (svc: Obj, errs: FieldError[]) => newInvalid({ group: '', kind: 'Service' }, nameOf(svc), errs);
const isNodePortType = (svc: Obj) => ['NodePort', 'LoadBalancer'].includes(specOf(svc).type as string);

/** Runs `steps` in order; when one throws, reverts the earlier ones (last first) and rethrows. */
async function all(steps: Array<() => Promise<AllocationTransaction>>): Promise<AllocationTransaction> {
  const done: AllocationTransaction[] = [];
  try {
    for (const step of steps) done.push(await step());
  } catch (err) {
    for (const t of done.reverse()) await t.revert();
    throw err;
  }
  return {
    commit: async () => {
      for (const t of done) await t.commit();
    },
    revert: async () => {
      for (const t of [...done].reverse()) await t.revert();
    },
  };
}

/** The allocators of a cluster: cluster IPs per family (primary first) and node ports. */
export class ServiceAllocators {
  constructor(
    readonly ips: readonly IPAllocator[],
    readonly nodePorts: PortAllocator,
    private readonly onReleaseError: ReleaseErrorHandler = () => undefined,
  ) {}

  /** The service IP families of the cluster, primary first. */
  get families(): IPFamily[] {
    return this.ips.map((a) => a.family);
  }

  private allocatorOf(family: string): IPAllocator | undefined {
    return this.ips.find((a) => a.family === family);
  }

  private initFamilies(svc: Obj, old: Obj | undefined): void {
    const errs = initIPFamilyFields(svc, old, this.families);
    if (errs.length > 0) throw invalidService(svc, errs);
  }

  /** Allocates what a new Service needs; mutates it. @throws StatusError 422 or 500. */
  async allocateCreate(svc: Obj, dryRun: boolean): Promise<AllocationTransaction> {
    this.initFamilies(svc, undefined);
    return all([() => this.clusterIPsTxn(svc, dryRun), () => this.createNodePortsTxn(svc, dryRun)]);
  }

  /** Allocates and schedules releases for an update from `old`; mutates `svc`. @throws StatusError 422 or 500. */
  async allocateUpdate(svc: Obj, old: Obj, dryRun: boolean): Promise<AllocationTransaction> {
    this.initFamilies(svc, old);
    return all([() => this.updateClusterIPsTxn(svc, old, dryRun), () => this.updateNodePortsTxn(svc, old, dryRun)]);
  }

  /** Releases everything a deleted Service held; failures are reported, not thrown. */
  async releaseAll(svc: Obj): Promise<void> {
    const spec = specOf(svc);
    if (spec.type !== 'ExternalName' && !isHeadlessSpec(spec)) await this.releaseIPs(byFamily(strings(spec.clusterIPs)));
    const ports = collectNodePorts(svc);
    if (needsHealthCheck(svc) && num(spec.healthCheckNodePort) > 0) ports.push(num(spec.healthCheckNodePort));
    if (ports.length > 0) await this.nodePorts.release(ports).catch((err: unknown) => this.onReleaseError(err, `node ports ${ports.join(', ')}`));
  }

  private async releaseIPs(ips: Map<string, string>): Promise<void> {
    for (const [family, ip] of ips) {
      const alloc = this.allocatorOf(family);
      if (alloc) await alloc.release([ip]).catch((err: unknown) => this.onReleaseError(err, `cluster IP ${ip}`));
    }
  }

  private ipTxn(allocated: Map<string, string>, toRelease: Map<string, string>, dryRun: boolean): AllocationTransaction {
    return {
      commit: async () => {
        if (!dryRun) await this.releaseIPs(toRelease);
      },
      revert: async () => {
        if (!dryRun) await this.releaseIPs(allocated);
      },
    };
  }

  private async clusterIPsTxn(svc: Obj, dryRun: boolean): Promise<AllocationTransaction> {
    return this.ipTxn(await this.allocClusterIPs(svc, dryRun), new Map(), dryRun);
  }

  /** Fills `clusterIPs` (and `clusterIP`) for every family of `ipFamilies`; returns what it took. */
  private async allocClusterIPs(svc: Obj, dryRun: boolean): Promise<Map<string, string>> {
    const spec = specOf(svc);
    if (spec.type === 'ExternalName' || isHeadlessSpec(spec)) return new Map();
    const ips = [...strings(spec.clusterIPs)];
    const families = strings(spec.ipFamilies);
    const wanted = new Map<string, string>();
    families.forEach((family, i) => {
      if (i >= ips.length) ips.push('');
      wanted.set(family, ips[i]!);
    });
    spec.clusterIPs = ips;
    const allocated = await this.allocIPs(svc, wanted, dryRun);
    families.forEach((family, i) => {
      ips[i] = allocated.get(family) ?? ips[i]!;
    });
    spec.clusterIPs = ips;
    if (ips.length > 0) spec.clusterIP = ips[0];
    return allocated;
  }

  /** Takes each wanted IP ('' = any) of its family; on failure gives back what it took. */
  private async allocIPs(svc: Obj, wanted: Map<string, string>, dryRun: boolean): Promise<Map<string, string>> {
    const allocated = new Map<string, string>();
    try {
      for (const [family, ip] of wanted) {
        const alloc = this.allocatorOf(family)!;
        if (ip === '') {
          try {
            allocated.set(family, await alloc.allocateNext(dryRun));
          } catch (err) {
            if (err instanceof AllocationError) throw newInternalError(`failed to allocate a serviceIP: ${err.message}`);
            throw err;
          }
          continue;
        }
        try {
          await alloc.allocate(ip, dryRun);
        } catch (err) {
          if (!(err instanceof AllocationError)) throw err;
          const ips = goStringSlice(strings(specOf(svc).clusterIPs).filter((v) => v !== ''));
          throw invalidService(svc, [invalid(FieldPath.of('spec', 'clusterIPs'), ips, `failed to allocate IP ${ip}: ${err.message}`)]);
        }
        allocated.set(family, ip);
      }
    } catch (err) {
      if (!dryRun) await this.releaseIPs(allocated);
      throw err;
    }
    return allocated;
  }

  /** Type changes and dual-stack upgrades/downgrades of an update (upstream `updateClusterIPs`). */
  private async updateClusterIPsTxn(svc: Obj, old: Obj, dryRun: boolean): Promise<AllocationTransaction> {
    const spec = specOf(svc);
    const oldSpec = specOf(old);
    const none = this.ipTxn(new Map(), new Map(), dryRun);
    if (isUnchangedPreferDualStack(svc, old)) return none;
    if (oldSpec.type === 'ExternalName' && spec.type !== 'ExternalName') return this.ipTxn(await this.allocClusterIPs(svc, dryRun), new Map(), dryRun);
    if (isHeadlessSpec(oldSpec)) return none;
    const oldFamilies = strings(oldSpec.ipFamilies);
    const oldIPs = strings(oldSpec.clusterIPs);
    if (spec.type === 'ExternalName') {
      return this.ipTxn(new Map(), new Map(oldFamilies.map((f, i) => [f, oldIPs[i] ?? ''] as [string, string]).filter(([, ip]) => ip !== '')), dryRun);
    }
    const families = strings(spec.ipFamilies);
    if (oldFamilies.length === 1 && families.length === 2) {
      const ips = [...strings(spec.clusterIPs)];
      if (ips.length < 2) ips.push('');
      spec.clusterIPs = ips;
      const allocated = await this.allocIPs(svc, new Map([[families[1]!, ips[1]!]]), dryRun);
      ips[1] = allocated.get(families[1]!) ?? ips[1]!;
      spec.clusterIPs = ips;
      return this.ipTxn(allocated, new Map(), dryRun);
    }
    if (oldFamilies.length === 2 && families.length === 1 && oldIPs[1]) return this.ipTxn(new Map(), new Map([[oldFamilies[1]!, oldIPs[1]]]), dryRun);
    return none;
  }

  private portTxn(op: PortOperation): AllocationTransaction {
    return { commit: () => op.commit(), revert: () => op.revert() };
  }

  /** Runs `fill` on a fresh node port operation; reverts the operation when it throws. */
  private async withPorts(dryRun: boolean, fill: (op: PortOperation) => Promise<void>): Promise<AllocationTransaction> {
    const op = this.nodePorts.operation(dryRun);
    try {
      await fill(op);
    } catch (err) {
      await op.revert();
      throw err;
    }
    return this.portTxn(op);
  }

  private createNodePortsTxn(svc: Obj, dryRun: boolean): Promise<AllocationTransaction> {
    return this.withPorts(dryRun, async (op) => {
      if (isNodePortType(svc)) await this.initNodePorts(svc, op);
      if (needsHealthCheck(svc)) await this.allocHealthCheckNodePort(svc, op);
    });
  }

  /** Node ports of a new Service: requested ones taken, missing ones allocated, one per service port number. */
  private async initNodePorts(svc: Obj, op: PortOperation): Promise<void> {
    const ports = portsOf(specOf(svc));
    const byServicePort = new Map<number, number>();
    for (const [i, p] of ports.entries()) {
      if (num(p.nodePort) === 0 && !shouldAllocateNodePorts(svc)) continue;
      const already = byServicePort.get(num(p.port)) ?? 0;
      if (already === 0) {
        const requested = ports.find((q) => num(q.port) === num(p.port) && num(q.nodePort) !== 0);
        const port = requested ? num(requested.nodePort) : await this.nextNodePort(op);
        if (requested) await this.takeNodePort(svc, op, port, i);
        p.nodePort = port;
        byServicePort.set(num(p.port), port);
      } else if (num(p.nodePort) !== already) {
        if (num(p.nodePort) === 0) p.nodePort = already;
        else await this.takeNodePort(svc, op, num(p.nodePort), i);
      }
    }
  }

  private async takeNodePort(svc: Obj, op: PortOperation, port: number, index: number): Promise<void> {
    try {
      await op.allocate(port);
    } catch (err) {
      if (!(err instanceof AllocationError)) throw err;
      throw invalidService(svc, [invalid(FieldPath.of('spec', 'ports').index(index).child('nodePort'), port, err.message)]);
    }
  }

  private async nextNodePort(op: PortOperation): Promise<number> {
    try {
      return await op.allocateNext();
    } catch (err) {
      if (err instanceof AllocationError) throw newInternalError(`failed to allocate a nodePort: ${err.message}`);
      throw err;
    }
  }

  private async allocHealthCheckNodePort(svc: Obj, op: PortOperation): Promise<void> {
    const spec = specOf(svc);
    const requested = num(spec.healthCheckNodePort);
    try {
      if (requested !== 0) await op.allocate(requested);
      else spec.healthCheckNodePort = await op.allocateNext();
    } catch (err) {
      if (!(err instanceof AllocationError)) throw err;
      const what = requested !== 0 ? `requested HealthCheck NodePort ${requested}` : 'a HealthCheck NodePort 0';
      throw newInternalError(`failed to allocate ${what}: ${err.message}`);
    }
  }

  /** Node port changes of an update (upstream `txnUpdateNodePorts`). */
  private updateNodePortsTxn(svc: Obj, old: Obj, dryRun: boolean): Promise<AllocationTransaction> {
    return this.withPorts(dryRun, async (op) => {
      const type = specOf(svc).type;
      if (isNodePortType(old) && (type === 'ExternalName' || type === 'ClusterIP')) for (const p of collectNodePorts(old)) op.releaseDeferred(p);
      if (isNodePortType(svc)) await this.updateNodePorts(svc, old, op);
      const needed = needsHealthCheck(old);
      const needs = needsHealthCheck(svc);
      if (!needed && needs) await this.allocHealthCheckNodePort(svc, op);
      if (needed && !needs && num(specOf(old).healthCheckNodePort) > 0) op.releaseDeferred(num(specOf(old).healthCheckNodePort));
    });
  }

  private async updateNodePorts(svc: Obj, old: Obj, op: PortOperation): Promise<void> {
    const oldPorts = collectNodePorts(old);
    const taken = new Set<number>();
    const seen = new Set<string>();
    for (const [i, p] of portsOf(specOf(svc)).entries()) {
      if (num(p.nodePort) === 0 && !shouldAllocateNodePorts(svc)) continue;
      if (num(p.nodePort) !== 0) {
        if (!oldPorts.includes(num(p.nodePort)) && !taken.has(num(p.nodePort))) {
          await this.takeNodePort(svc, op, num(p.nodePort), i);
          taken.add(num(p.nodePort));
        }
      } else {
        p.nodePort = await this.nextNodePort(op);
      }
      const key = `${String(p.protocol ?? '')}/${num(p.nodePort)}`;
      if (seen.has(key)) throw newInternalError(`duplicate nodePort: {${String(p.protocol ?? '')} ${num(p.nodePort)}}`);
      seen.add(key);
    }
    const kept = new Set(collectNodePorts(svc));
    for (const p of oldPorts) if (!kept.has(p)) op.releaseDeferred(p);
  }
}

/** Cluster IPs keyed by their family (invalid and `None` entries skipped). */
function byFamily(ips: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const ip of ips) {
    const family = familyOfIP(ip);
    if (family) out.set(family, ip);
  }
  return out;
}

