/**
 * The API server Service controller (upstream `kubernetesservice.Controller` with the lease
 * endpoint reconciler, v1.30): creates the Service `default/<vendor>` (upstream `kubernetes`)
 * when it is missing — ClusterIP the first address of the service range, port 443 `https` to the
 * server's secure port, upstream's labels — and every interval renews this server's endpoint
 * lease and reconciles the Service's Endpoints and EndpointSlice with the live servers'
 * addresses. At start a lease left by an unclean stop of this address is removed first; at stop
 * the lease is removed and the endpoints reconciled at once, so the address goes before its lease
 * would expire.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { isReason } from '../../apimachinery/errors.js';
import { API_SERVER_SERVICE_LABELS, API_SERVER_SERVICE_NAME } from '../../apis/vendor.js';
import type { RequestContext } from '../../request/context.js';
import type { Store } from '../../registry/generic/store.js';
import { createObject } from '../writes.js';
import { EndpointLeases } from './leases.js';
import { type EndpointPort, EndpointsReconciler } from './reconciler.js';

/** The namespace of the API server Service. */
export const API_SERVER_SERVICE_NAMESPACE = 'default';
/** Upstream defaults: endpoint lease duration and reconcile interval. */
export const DEFAULT_ENDPOINT_LEASE_MS = 15_000;
export const DEFAULT_ENDPOINT_INTERVAL_MS = 10_000;

/** What the controller works with. */
export interface APIServerServiceConfig {
  services: Store;
  endpoints: Store;
  endpointSlices: Store;
  leases: Store;
  namespaces: Store;
  /** The namespace of the endpoint leases (the system namespace). */
  leaseNamespace: string;
  ctx: RequestContext;
  /** The Service's cluster IP: the first address of the primary service range. */
  serviceIP: string;
  /** The secure port the endpoints point at (known once the server listens). */
  securePort: () => number;
  /** This server's advertised address (absent: the Service is kept, the endpoints are not). */
  advertiseAddress?: string;
  leaseMs: number;
  intervalMs: number;
  onError: (err: unknown) => void;
}

/** The controller (module doc). */
export class APIServerServiceController {
  private readonly leases: EndpointLeases;
  private readonly reconciler: EndpointsReconciler;
  private stopped = false;
  /** Reconcile passes and the final removal run one at a time (upstream `reconcilingLock`). */
  private running: Promise<void> = Promise.resolve();

  constructor(private readonly cfg: APIServerServiceConfig) {
    this.leases = new EndpointLeases({ store: cfg.leases, namespace: cfg.leaseNamespace, ctx: cfg.ctx, leaseSeconds: Math.max(1, Math.ceil(cfg.leaseMs / 1000)) });
    this.reconciler = new EndpointsReconciler({ endpoints: cfg.endpoints, endpointSlices: cfg.endpointSlices, ctx: cfg.ctx, namespace: API_SERVER_SERVICE_NAMESPACE, serviceName: API_SERVER_SERVICE_NAME });
  }

  private ports(): EndpointPort[] {
    return [{ name: 'https', port: this.cfg.securePort(), protocol: 'TCP' }];
  }

  private serialize(task: () => Promise<void>): Promise<void> {
    const run = this.running.then(task);
    this.running = run.catch(() => undefined);
    return run;
  }

  /** Runs until `signal` aborts (or {@link stop}): one pass at once, then every interval. */
  async run(signal: AbortSignal): Promise<void> {
    const ip = this.cfg.advertiseAddress;
    if (ip) await this.leases.remove(ip).catch(this.cfg.onError);
    while (!signal.aborted && !this.stopped) {
      await this.serialize(() => this.pass()).catch(this.cfg.onError);
      await sleep(this.cfg.intervalMs, undefined, { signal, ref: false }).catch(() => undefined);
    }
  }

  /** One pass: the Service, this server's lease, the endpoints (ports not reconciled, as upstream's loop). */
  async pass(): Promise<void> {
    if (this.stopped) return;
    if (!(await this.defaultNamespaceExists())) return;
    await this.ensureService();
    const ip = this.cfg.advertiseAddress;
    if (!ip) return;
    await this.leases.renew(ip);
    await this.reconciler.reconcile(await this.leases.liveAddresses(), this.ports(), false);
  }

  /** Stops the passes, removes this server's lease and address (upstream `Stop`, bounded by two intervals). */
  async stop(): Promise<void> {
    this.stopped = true;
    const ip = this.cfg.advertiseAddress;
    if (!ip) return;
    const removal = this.serialize(async () => {
      await this.leases.remove(ip);
      const live = await this.leases.liveAddresses();
      if (live.length > 0) await this.reconciler.reconcile(live, this.ports(), true);
    }).catch(this.cfg.onError);
    await Promise.race([removal, new Promise<void>((r) => setTimeout(r, 2 * this.cfg.intervalMs).unref())]);
  }

  private async defaultNamespaceExists(): Promise<boolean> {
    try {
      await this.cfg.namespaces.get(this.cfg.ctx, '', API_SERVER_SERVICE_NAMESPACE);
      return true;
    } catch (err) {
      if (isReason(err, 'NotFound')) return false;
      throw err;
    }
  }

  /** Creates the Service when it does not exist (an existing one is left as it is, as upstream's loop). */
  private async ensureService(): Promise<void> {
    try {
      await this.cfg.services.get(this.cfg.ctx, API_SERVER_SERVICE_NAMESPACE, API_SERVER_SERVICE_NAME);
      return;
    } catch (err) {
      if (!isReason(err, 'NotFound')) throw err;
    }
    await createObject(this.cfg.ctx, this.cfg.services, API_SERVER_SERVICE_NAMESPACE, {
      metadata: { name: API_SERVER_SERVICE_NAME, namespace: API_SERVER_SERVICE_NAMESPACE, labels: { ...API_SERVER_SERVICE_LABELS } },
      spec: {
        ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: this.cfg.securePort() }],
        clusterIP: this.cfg.serviceIP,
        ipFamilyPolicy: 'SingleStack',
        sessionAffinity: 'None',
        type: 'ClusterIP',
      },
    });
  }
}
