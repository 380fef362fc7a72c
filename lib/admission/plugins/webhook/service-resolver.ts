/**
 * Where a webhook's `clientConfig.service` is reached (spec 001 § Admission control). Upstream
 * dials `<name>.<namespace>.svc:<port>` through a service resolver: by default the Service's
 * cluster IP (traffic then goes through the node's proxy), with `--enable-aggregator-routing`
 * an endpoint of the Service. This server has neither cluster DNS nor a service proxy, so it
 * always routes to an endpoint, as upstream's endpoint resolver does: the Service (type
 * ClusterIP, NodePort or LoadBalancer) must have a port equal to the reference's port; its
 * Endpoints object gives, for the subset port of the same name, a ready address picked at
 * random and that subset port. TLS is still verified against `<name>.<namespace>.svc`.
 */
import { newNotFound, newServiceUnavailable, StatusError } from '../../../apimachinery/errors.js';
import type { Obj } from '../../../apis/define.js';
import { cachedOrLive, type ResourceAccess } from '../../plugin-deps.js';

/** An address to connect to. */
export interface ResolvedAddress {
  host: string;
  port: number;
}

/** Resolves a Service reference to an address of one of its endpoints. */
export interface ServiceResolver {
  /**
   * @throws StatusError 404 `services "<name>" not found` / `endpoints "<name>" not found`, 503
   *   `no service port <port> found for service "<name>"` / `no endpoints available for service
   *   "<name>"`, or Error `unsupported service type "<type>"`.
   */
  resolve(namespace: string, name: string, port: number): Promise<ResolvedAddress>;
}

interface ServicePort {
  name?: string;
  port?: number;
}

interface Subset {
  addresses?: Array<{ ip?: string }>;
  ports?: Array<{ name?: string; port?: number }>;
}

const ROUTABLE_TYPES = new Set(['', 'ClusterIP', 'NodePort', 'LoadBalancer']);

/** The endpoint resolver over the Services and Endpoints of the server (informers, then storage). */
export function endpointServiceResolver(services: ResourceAccess, endpoints: ResourceAccess): ServiceResolver {
  return {
    async resolve(namespace, name, port) {
      const svc = await cachedOrLive(services, namespace, name);
      if (!svc) throw newNotFound({ group: '', resource: 'services' }, name);
      const spec = (svc.spec ?? {}) as Obj;
      const type = typeof spec.type === 'string' ? spec.type : '';
      if (!ROUTABLE_TYPES.has(type)) throw new Error(`unsupported service type ${JSON.stringify(type)}`);
      const svcPort = ((spec.ports ?? []) as ServicePort[]).find((p) => p.port === port);
      if (!svcPort) throw newServiceUnavailable(`no service port ${port} found for service ${JSON.stringify(name)}`);
      const eps = await cachedOrLive(endpoints, namespace, name);
      if (!eps) throw newNotFound({ group: '', resource: 'endpoints' }, name);
      const portName = svcPort.name ?? '';
      for (const subset of (eps.subsets ?? []) as Subset[]) {
        for (const p of subset.ports ?? []) {
          if ((p.name ?? '') !== portName || typeof p.port !== 'number') continue;
          const addresses = (subset.addresses ?? []).filter((a) => typeof a.ip === 'string' && a.ip !== '');
          if (addresses.length === 0) continue;
          const pick = addresses[Math.floor(Math.random() * addresses.length)]!;
          return { host: pick.ip!, port: p.port };
        }
      }
      throw newServiceUnavailable(`no endpoints available for service ${JSON.stringify(name)}`);
    },
  };
}

/** The message of a resolution failure (StatusError or Error). */
export function resolutionMessage(err: unknown): string {
  if (err instanceof StatusError) return err.status.message ?? err.message;
  return (err as Error).message;
}
