/**
 * The cluster IP allocator of one family and the node port allocator, over their etcd-backed
 * ranges, with upstream's errors (ipallocator `Range`, portallocator `PortAllocator` and
 * `PortAllocationOperation`) and dry-run behaviour: a dry-run never writes; it checks a requested
 * IP against the range only, answers the network address for "any IP", checks a requested port
 * against the current bitmap and answers 32769, 32770… for "any port".
 */
import type { IPFamily, ServiceIPRange } from './ipam.js';
import type { PortRange } from './port-range.js';
import { AllocationError, type RangeAllocationStore } from './range-store.js';

const ipAllocated = () => new AllocationError('Allocated', 'provided IP is already allocated');
const portAllocated = () => new AllocationError('Allocated', 'provided port is already allocated');
const full = () => new AllocationError('Full', 'range is full');

/** Cluster IPs of one family. */
export class IPAllocator {
  constructor(
    readonly range: ServiceIPRange,
    readonly store: RangeAllocationStore,
  ) {}

  /** The family of the range. */
  get family(): IPFamily {
    return this.range.family;
  }

  private offsetOrThrow(ip: string): number {
    const offset = this.range.offsetOf(ip);
    if (offset === undefined) {
      throw new AllocationError('NotInRange', `the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${this.range.cidr}`);
    }
    return offset;
  }

  /** Takes `ip`. @throws AllocationError NotInRange, Allocated or Unavailable. */
  async allocate(ip: string, dryRun: boolean): Promise<void> {
    const offset = this.offsetOrThrow(ip);
    if (dryRun) return;
    const taken = await this.store.mutate((b) => b.allocate(offset));
    if (!taken) throw ipAllocated();
  }

  /** Takes a free IP and returns it. @throws AllocationError Full or Unavailable. */
  async allocateNext(dryRun: boolean): Promise<string> {
    if (dryRun) return this.range.cidr.slice(0, this.range.cidr.indexOf('/'));
    const offset = await this.store.mutate((b) => b.allocateNext());
    if (offset === undefined) throw full();
    return this.range.ipAt(offset);
  }

  /** Frees `ip`; an IP outside the range or not taken is left alone. */
  async release(ips: readonly string[]): Promise<void> {
    const offsets = ips.map((ip) => this.range.offsetOf(ip)).filter((o): o is number => o !== undefined);
    if (offsets.length > 0) await this.store.mutate((b) => offsets.forEach((o) => b.release(o)));
  }
}

/** Node ports. */
export class PortAllocator {
  constructor(
    readonly range: PortRange,
    readonly store: RangeAllocationStore,
  ) {}

  /** Takes `port`. @throws AllocationError NotInRange, Allocated or Unavailable. */
  async allocate(port: number): Promise<void> {
    if (!this.range.contains(port)) {
      throw new AllocationError('NotInRange', `provided port is not in the valid range. The range of valid ports is ${this.range.toString()}`);
    }
    const taken = await this.store.mutate((b) => b.allocate(port - this.range.base));
    if (!taken) throw portAllocated();
  }

  /** Takes a free port and returns it. @throws AllocationError Full or Unavailable. */
  async allocateNext(): Promise<number> {
    const offset = await this.store.mutate((b) => b.allocateNext());
    if (offset === undefined) throw full();
    return this.range.base + offset;
  }

  /** Whether `port` is taken now (a read). */
  async has(port: number): Promise<boolean> {
    return this.range.contains(port) && (await this.store.current()).has(port - this.range.base);
  }

  /** Frees `ports` in one write; ports outside the range or not taken are left alone. */
  async release(ports: readonly number[]): Promise<void> {
    const inRange = ports.filter((p) => this.range.contains(p));
    if (inRange.length > 0) await this.store.mutate((b) => inRange.forEach((p) => b.release(p - this.range.base)));
  }

  /** Starts the node port changes of one Service write. */
  operation(dryRun: boolean): PortOperation {
    return new PortOperation(this, dryRun);
  }
}

/**
 * The node port changes of one Service write (upstream `PortAllocationOperation`): allocations
 * happen at once and are undone by `revert`; releases wait for `commit`.
 */
export class PortOperation {
  private readonly allocated: number[] = [];
  private readonly deferred: number[] = [];

  constructor(
    private readonly ports: PortAllocator,
    private readonly dryRun: boolean,
  ) {}

  /** Takes `port` for this write. @throws AllocationError */
  async allocate(port: number): Promise<void> {
    if (this.dryRun) {
      if (this.allocated.includes(port) || (await this.ports.has(port))) throw portAllocated();
    } else {
      await this.ports.allocate(port);
    }
    this.allocated.push(port);
  }

  /** Takes any free port for this write. @throws AllocationError */
  async allocateNext(): Promise<number> {
    const port = this.dryRun ? (this.allocated.length === 0 ? 32768 : Math.max(...this.allocated)) + 1 : await this.ports.allocateNext();
    this.allocated.push(port);
    return port;
  }

  /** Frees `port` when the write succeeds. */
  releaseDeferred(port: number): void {
    this.deferred.push(port);
  }

  /** The write succeeded: frees the deferred ports. */
  async commit(): Promise<void> {
    if (!this.dryRun && this.deferred.length > 0) await this.ports.release(this.deferred);
  }

  /** The write failed: frees what it took. */
  async revert(): Promise<void> {
    if (!this.dryRun && this.allocated.length > 0) await this.ports.release(this.allocated);
  }
}

