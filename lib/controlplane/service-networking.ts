/**
 * Service networking of the control plane (issue #12 item 2): the cluster IP and node port
 * allocators over their etcd ranges (handed to the Service store), the range repair (a post-start
 * hook that finishes after the first successful run, as upstream's
 * `start-service-ip-repair-controllers`, then repeats every 3 minutes in the leader only), and the API server Service with its lease-based
 * endpoint reconciler (upstream's `bootstrap-controller`).
 */
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { isLoopback, isUnspecified, parseIP } from '../apimachinery/validation/ip.js';
import { SYSTEM_NAMESPACE, vendorGroup } from '../apis/vendor.js';
import type { Obj } from '../apis/define.js';
import { APIServerServiceController, DEFAULT_ENDPOINT_INTERVAL_MS, DEFAULT_ENDPOINT_LEASE_MS } from '../controllers/endpoint-reconciler/controller.js';
import { IPAllocator, PortAllocator } from '../registry/core/service/allocators.js';
import { parseServiceClusterIPRanges, type ServiceIPRange } from '../registry/core/service/ipam.js';
import { DEFAULT_NODE_PORT_RANGE, parsePortRange } from '../registry/core/service/port-range.js';
import { NODE_PORT_ALLOCATIONS, RangeAllocationStore, rangeKey, SERVICE_IP_ALLOCATIONS } from '../registry/core/service/range-store.js';
import { ServiceRangeRepair } from '../registry/core/service/repair.js';
import { ServiceAllocators } from '../registry/core/service/service-alloc.js';
import type { ResourceStorage } from '../registry/generic/resource-storage.js';
import type { RequestContext } from '../request/context.js';
import type { PostStartHooks } from '../server/hooks.js';
import type { LeaderTasks } from '../controllers/leaderelection/tasks.js';
import type { Logger } from '../server/logging.js';
import type { ServiceNetworkingOptions } from '../server/options/service-networking.js';
import { EVERYTHING, type StorageInterface } from '../storage/interface.js';
import { retryUntilDone } from './controllers.js';

/** Upstream's repair interval of the service ranges. */
export const DEFAULT_REPAIR_INTERVAL_MS = 3 * 60_000;
/** The post-start hooks (upstream names). */
export const REPAIR_HOOK = 'start-service-ip-repair-controllers';
export const API_SERVER_SERVICE_HOOK = 'bootstrap-controller';
/** The periodic range repair: once per cluster (a leader-elected task, issue #16). */
export const REPAIR_LOOP_TASK = 'start-service-ip-repair-loop';

/** The flags, plus timings tests shorten. */
export type ServiceNetworkingConfig = Partial<ServiceNetworkingOptions> & {
  /** Endpoint lease duration (default 15 s). */
  endpointLeaseMs?: number;
  /** Endpoint reconcile interval (default 10 s). */
  endpointIntervalMs?: number;
  /** Range repair interval (default 3 min). */
  repairIntervalMs?: number;
};

/** What the hooks work with. */
export interface ServiceNetworkingDeps {
  resources: readonly ResourceStorage[];
  ctx: RequestContext;
  /** Aborted when the server stops. */
  signal: AbortSignal;
  /** The secure port (known once the server listens). */
  securePort: () => number;
  bindAddress: string;
  /** The once-per-cluster tasks: the periodic range repair is one (the first repair runs in every replica). */
  tasks: LeaderTasks;
}

/** The service networking of one server. */
export interface ServiceNetworking {
  allocators: ServiceAllocators;
  addHooks(hooks: PostStartHooks, deps: ServiceNetworkingDeps): void;
  /** Removes this server's endpoint (graceful stop). */
  stop(): Promise<void>;
}

/**
 * The address this server advertises (upstream `DefaultAdvertiseAddress`): the flag; else the
 * bind address unless it is unspecified or loopback; else the host's first non-internal IPv4
 * address (undefined when there is none).
 */
export function defaultAdvertiseAddress(bindAddress: string, interfaces = os.networkInterfaces()): string | undefined {
  const bind = parseIP(bindAddress);
  if (bind && !isUnspecified(bind) && !isLoopback(bind)) return bindAddress;
  for (const addrs of Object.values(interfaces)) {
    for (const a of addrs ?? []) if (a.family === 'IPv4' && !a.internal && !a.address.startsWith('169.254.')) return a.address;
  }
  return undefined;
}

/**
 * Builds the allocators over `storage` (plain etcd storage) under `prefix`.
 * @throws Error when the ranges are invalid (the flags were checked at parse time).
 */
export function newServiceNetworking(cfg: ServiceNetworkingConfig, storage: StorageInterface, prefix: string, log: Logger): ServiceNetworking {
  const cidrs = parseServiceClusterIPRanges(cfg.serviceClusterIPRange ?? '');
  if ('errors' in cidrs) throw new Error(cidrs.errors.join(', '));
  const portRange = parsePortRange(cfg.serviceNodePortRange || DEFAULT_NODE_PORT_RANGE);
  const ipAllocator = (range: ServiceIPRange, name: 'serviceips' | 'secondaryserviceips') =>
    new IPAllocator(
      range,
      new RangeAllocationStore(storage, rangeKey(prefix, name), { spec: range.cidr, size: range.size, offset: range.offset, mismatch: 'the provided network does not match the current range' }, SERVICE_IP_ALLOCATIONS),
    );
  const ips = [ipAllocator(cidrs.primary, 'serviceips'), ...(cidrs.secondary ? [ipAllocator(cidrs.secondary, 'secondaryserviceips')] : [])];
  const ports = new PortAllocator(
    portRange,
    new RangeAllocationStore(
      storage,
      rangeKey(prefix, 'servicenodeports'),
      { spec: portRange.toString(), size: portRange.size, offset: portRange.offset, mismatch: 'the provided port range does not match the current port range' },
      NODE_PORT_ALLOCATIONS,
    ),
  );
  const allocators = new ServiceAllocators(ips, ports, (err, what) => log.error({ err }, `failed to release ${what}`));
  let controller: APIServerServiceController | undefined;
  return {
    allocators,
    addHooks(hooks: PostStartHooks, deps: ServiceNetworkingDeps): void {
      const storeOf = (group: string, resource: string) => {
        const r = deps.resources.find((x) => x.store.strategy.kind.group === group && x.store.strategy.kind.resource === resource);
        if (!r) throw new Error(`the control plane serves no ${resource}`);
        return r.store;
      };
      const services = storeOf('', 'services');
      const repair = new ServiceRangeRepair(
        allocators,
        async () => (await storage.getList(services.prefixFor(''), { predicate: EVERYTHING })).items as Obj[],
        (message) => log.warn(message),
      );
      let repaired!: () => void;
      const firstRepair = new Promise<void>((r) => (repaired = r));
      hooks.add(REPAIR_HOOK, async (signal) => {
        await retryUntilDone(() => repair.runOnce(), signal, (err) => log.error({ err }, 'service range repair failed'));
        repaired();
      });
      deps.tasks.add(REPAIR_LOOP_TASK, async (signal) => {
        void repeat(() => repair.runOnce(), cfg.repairIntervalMs ?? DEFAULT_REPAIR_INTERVAL_MS, signal, (err) => log.error({ err }, 'service range repair failed'));
      });
      const advertiseAddress = cfg.advertiseAddress ?? defaultAdvertiseAddress(deps.bindAddress);
      if (!advertiseAddress) log.warn('no address to advertise (set --advertise-address): the API server Service gets no endpoints from this server');
      controller = new APIServerServiceController({
        services,
        endpoints: storeOf('', 'endpoints'),
        endpointSlices: storeOf(vendorGroup('discovery'), 'endpointslices'),
        leases: storeOf(vendorGroup('coordination'), 'leases'),
        namespaces: storeOf('', 'namespaces'),
        leaseNamespace: SYSTEM_NAMESPACE,
        ctx: deps.ctx,
        serviceIP: cidrs.primary.firstIP(),
        securePort: deps.securePort,
        advertiseAddress,
        leaseMs: cfg.endpointLeaseMs ?? DEFAULT_ENDPOINT_LEASE_MS,
        intervalMs: cfg.endpointIntervalMs ?? DEFAULT_ENDPOINT_INTERVAL_MS,
        onError: (err) => log.error({ err }, 'API server Service endpoints'),
      });
      const started = controller;
      hooks.add(API_SERVER_SERVICE_HOOK, async () => {
        void firstRepair.then(() => started.run(deps.signal));
      });
    },
    async stop(): Promise<void> {
      await controller?.stop();
    },
  };
}

/** Runs `fn` every `intervalMs` until `signal` aborts, reporting failures. */
async function repeat(fn: () => Promise<void>, intervalMs: number, signal: AbortSignal, onError: (err: unknown) => void): Promise<void> {
  while (!signal.aborted) {
    await sleep(intervalMs, undefined, { signal, ref: false }).catch(() => undefined);
    if (signal.aborted) return;
    await fn().catch(onError);
  }
}
