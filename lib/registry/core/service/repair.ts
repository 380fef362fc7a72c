/**
 * The repair of the allocation ranges (upstream ipallocator and portallocator repair
 * controllers): read each range's stored bitmap first, then list every Service, and rebuild the
 * bitmaps from the Services: an address or port a Service holds is recorded (reported when the
 * stored bitmap lacked it, or when it is out of range or held twice); one the stored bitmap holds
 * and no Service does is a leak, kept for two more runs (an allocation may be on its way to its
 * Service) and freed on the third. The rebuilt bitmap replaces the stored one only if the range
 * did not change since it was read (compare-and-swap on its revision); on a conflict the run
 * starts again, so several servers may repair concurrently with allocations going on.
 */
import type { Obj } from '../../../apis/define.js';
import { AllocationBitmap } from './bitmap.js';
import type { IPAllocator, PortAllocator } from './allocators.js';
import { familyOfIP, parseServiceCIDR, type ServiceIPRange } from './ipam.js';
import { parsePortRange, type PortRange } from './port-range.js';
import { RangeConflictError, type RangeAllocationStore } from './range-store.js';
import type { ServiceAllocators } from './service-alloc.js';
import { isHeadlessSpec, needsHealthCheck, num, portsOf, specOf, strings } from './service-fields.js';

/** Runs a leaked item survives before it is freed (upstream `numRepairsBeforeLeakCleanup`). */
export const REPAIRS_BEFORE_LEAK_CLEANUP = 3;
/** Attempts of one repair when the ranges keep changing under it. */
const CONFLICT_RETRIES = 5;

/** What the repair reports (upstream records these as Warning events on the Service). */
export type RepairReporter = (message: string) => void;

/** What the repair of one range works out before writing. */
interface RangePlan {
  store: RangeAllocationStore;
  resourceVersion: string;
  rebuilt: AllocationBitmap;
  /** The leak counters of this range after the run. */
  leaks: Map<number, number>;
}

/** A range as stored (possibly another one than configured): its size, band and item numbering. */
interface StoredLayout {
  size: number;
  offset: number;
  offsetOf(value: string | number): number | undefined;
  valueOf(i: number): string | number;
}

/** One configured range as the repair sees it. */
interface RangeView {
  store: RangeAllocationStore;
  /** The values of this range a Service holds. */
  held(svc: Obj): Array<string | number>;
  /** The item of a value in the configured range; undefined when it is outside. */
  offsetOf(value: string | number): number | undefined;
  /** The layout of the stored `range` text; undefined when it cannot be read. */
  layout(range: string): StoredLayout | undefined;
  describe(value: string | number): string;
  outOfRange(value: string | number): string;
}

function nameOf(svc: Obj): string {
  const meta = (svc.metadata ?? {}) as Obj;
  return `${String(meta.namespace ?? '')}/${String(meta.name ?? '')}`;
}

/** The periodic repair of every range of the cluster (see module doc). */
export class ServiceRangeRepair {
  private readonly leaks = new Map<string, Map<number, number>>();

  constructor(
    private readonly alloc: ServiceAllocators,
    private readonly listServices: () => Promise<Obj[]>,
    private readonly report: RepairReporter,
  ) {}

  /** One repair, retried while the ranges change under it. @throws the last error when it never settles. */
  async runOnce(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.attempt();
        return;
      } catch (err) {
        if (!(err instanceof RangeConflictError) || attempt >= CONFLICT_RETRIES) throw err;
        await new Promise((r) => setTimeout(r, 10 * attempt));
      }
    }
  }

  private async attempt(): Promise<void> {
    const views = [...this.alloc.ips.map((a) => ipView(a)), portView(this.alloc.nodePorts)];
    const snapshots = await Promise.all(views.map((v) => v.store.read()));
    const services = await this.listServices();
    const plans = views.map((view, i) => this.plan(view, snapshots[i]!, services));
    await Promise.all(plans.map((p) => p.store.replace(p.rebuilt, p.resourceVersion)));
    for (const p of plans) this.leaks.set(p.store.key, p.leaks);
  }

  private plan(view: RangeView, snapshot: { range: string; data: Buffer; resourceVersion: string }, services: Obj[]): RangePlan {
    const layout = view.layout(snapshot.range || view.store.shape.spec);
    const storedItems = new Set<number>();
    if (layout) {
      const stored = new AllocationBitmap(layout.size, layout.offset);
      stored.restore(snapshot.data);
      stored.forEach((i) => storedItems.add(i));
    }
    const rebuilt = view.store.emptyBitmap();
    const leaks = new Map(this.leaks.get(view.store.key) ?? []);
    for (const svc of services) {
      for (const value of view.held(svc)) {
        const offset = view.offsetOf(value);
        if (offset === undefined) {
          this.report(`${view.outOfRange(value)} (service ${nameOf(svc)})`);
          continue;
        }
        if (!rebuilt.allocate(offset)) {
          this.report(`${view.describe(value)} was assigned to multiple services; please recreate service (service ${nameOf(svc)})`);
          continue;
        }
        const storedOffset = layout?.offsetOf(value);
        if (storedOffset === undefined || !storedItems.delete(storedOffset)) this.report(`${view.describe(value)} is not allocated; repairing (service ${nameOf(svc)})`);
        leaks.delete(offset);
      }
    }
    for (const storedOffset of storedItems) {
      const value = layout!.valueOf(storedOffset);
      const offset = view.offsetOf(value);
      if (offset === undefined || rebuilt.has(offset)) continue;
      const left = leaks.get(offset) ?? REPAIRS_BEFORE_LEAK_CLEANUP - 1;
      if (left > 0) {
        if (!leaks.has(offset)) this.report(`${view.describe(value)} may have leaked: flagging for later clean up`);
        leaks.set(offset, left - 1);
        rebuilt.allocate(offset);
      } else {
        this.report(`${view.describe(value)} appears to have leaked: cleaning up`);
        leaks.delete(offset);
      }
    }
    for (const offset of [...leaks.keys()]) if (!rebuilt.has(offset)) leaks.delete(offset);
    return { store: view.store, resourceVersion: snapshot.resourceVersion, rebuilt, leaks };
  }
}

/** The cluster IPs of a Service that has some (not ExternalName, not headless). */
function clusterIPsOf(svc: Obj): string[] {
  const spec = specOf(svc);
  if (spec.type === 'ExternalName' || isHeadlessSpec(spec)) return [];
  return strings(spec.clusterIPs).filter((ip) => ip !== '');
}

/** The node ports and health check node port of a Service, each number once. */
function nodePortsOf(svc: Obj): number[] {
  const spec = specOf(svc);
  const ports = portsOf(spec).map((p) => num(p.nodePort));
  if (needsHealthCheck(svc)) ports.push(num(spec.healthCheckNodePort));
  return [...new Set(ports.filter((p) => p !== 0))];
}

function ipView(alloc: IPAllocator): RangeView {
  const range = alloc.range;
  const layoutOf = (r: ServiceIPRange): StoredLayout => ({
    size: r.size,
    offset: r.offset,
    offsetOf: (value) => r.offsetOf(String(value)),
    valueOf: (i) => r.ipAt(i),
  });
  return {
    store: alloc.store,
    held: (svc) => clusterIPsOf(svc).filter((ip) => familyOfIP(ip) === range.family),
    offsetOf: (value) => range.offsetOf(String(value)),
    layout: (text) => {
      const r = text === range.cidr ? range : parseServiceCIDR(text);
      return r && r.family === range.family ? layoutOf(r) : undefined;
    },
    describe: (value) => `Cluster IP [${range.family}]:${String(value)}`,
    outOfRange: (value) => `Cluster IP [${range.family}]:${String(value)} is not within the configured Service CIDR ${range.cidr}; please recreate service`,
  };
}

function portView(alloc: PortAllocator): RangeView {
  const range = alloc.range;
  const layoutOf = (r: PortRange): StoredLayout => ({
    size: r.size,
    offset: r.offset,
    offsetOf: (value) => (r.contains(Number(value)) ? Number(value) - r.base : undefined),
    valueOf: (i) => r.base + i,
  });
  return {
    store: alloc.store,
    held: nodePortsOf,
    offsetOf: (value) => (range.contains(Number(value)) ? Number(value) - range.base : undefined),
    layout: (text) => {
      try {
        const r = text === range.toString() ? range : parsePortRange(text);
        return r.size > 0 ? layoutOf(r) : undefined;
      } catch {
        return undefined;
      }
    },
    describe: (value) => `Port ${String(value)}`,
    outOfRange: (value) => `Port ${String(value)} is not within the port range ${range.toString()}; please recreate service`,
  };
}
