/**
 * Where a request for an APIService backed by a Service goes (spec 000 § Other paths; upstream
 * v1.30 `k8s.io/apiserver/pkg/util/proxy` ResolveEndpoint and ResolveCluster): with aggregator
 * routing, a ready address of the Service's Endpoints on the endpoint port named like the Service
 * port whose `port` is the APIService's; without it, the ClusterIP and that port (an ExternalName
 * Service: its name and the APIService's port). Errors carry upstream's messages; the proxy turns
 * them into 503.
 */
/** An object as stored (a Service, Endpoints or APIService). */
type Obj = Record<string, unknown>;

/** Reads Services and Endpoints by namespace and name (informer caches). */
export interface ServiceLookup {
  service(namespace: string, name: string): Obj | undefined;
  endpoints(namespace: string, name: string): Obj | undefined;
}

/** A resolved destination: the host (an IP address or a DNS name) and port to dial. */
export interface ResolvedEndpoint {
  host: string;
  port: number;
}

/** The URL of `path` at `target`, as upstream's messages print it (an IPv6 host in brackets). */
export function endpointURL(target: ResolvedEndpoint, path: string): string {
  return `https://${target.host.includes(':') ? `[${target.host}]` : target.host}:${target.port}${path}`;
}

/** A Service that cannot be routed to; `message` is upstream's. */
export class ResolveError extends Error {}

type Port = { name?: string; port?: number };

const ROUTABLE_TYPES = new Set(['ClusterIP', 'LoadBalancer', 'NodePort']);

const specOf = (svc: Obj): Obj => (svc.spec ?? {}) as Obj;
const typeOf = (svc: Obj): string => (specOf(svc).type as string | undefined) ?? 'ClusterIP';

function findServicePort(svc: Obj, name: string, port: number): Port {
  const found = ((specOf(svc).ports ?? []) as Port[]).find((p) => p.port === port);
  if (!found) throw new ResolveError(`no service port ${port} found for service ${JSON.stringify(name)}`);
  return found;
}

function getService(lookup: ServiceLookup, namespace: string, name: string): Obj {
  const svc = lookup.service(namespace, name);
  if (!svc) throw new ResolveError(`service "${name}" not found`);
  return svc;
}

/** Picks a random element (upstream picks the subset and the address at random). */
function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)]!;
}

/**
 * An endpoint address of Service `namespace/name` for the Service port `port`.
 * @throws ResolveError: no such Service, an unsupported type, no such port, no Endpoints or no ready address.
 */
export function resolveEndpoint(lookup: ServiceLookup, namespace: string, name: string, port: number): ResolvedEndpoint {
  const svc = getService(lookup, namespace, name);
  if (!ROUTABLE_TYPES.has(typeOf(svc))) throw new ResolveError(`unsupported service type ${JSON.stringify(typeOf(svc))}`);
  const svcPort = findServicePort(svc, name, port);
  const eps = lookup.endpoints(namespace, name);
  if (!eps) throw new ResolveError(`endpoints "${name}" not found`);
  type Subset = { addresses?: Array<{ ip?: string }>; ports?: Port[] };
  const subsets = (eps.subsets ?? []) as Subset[];
  const candidates = subsets.flatMap((ss) => {
    const epPort = (ss.addresses ?? []).length > 0 ? (ss.ports ?? []).find((p) => (p.name ?? '') === (svcPort.name ?? '')) : undefined;
    return epPort ? [{ ss, epPort }] : [];
  });
  if (candidates.length === 0) throw new ResolveError(`no endpoints available for service ${JSON.stringify(name)}`);
  const { ss, epPort } = pick(candidates);
  return { host: pick(ss.addresses!).ip ?? '', port: epPort.port ?? 0 };
}

/**
 * The ClusterIP (or ExternalName) destination of Service `namespace/name` for port `port`.
 * @throws ResolveError: no such Service, a headless or unsupported one, no such port.
 */
export function resolveCluster(lookup: ServiceLookup, namespace: string, name: string, port: number): ResolvedEndpoint {
  const svc = getService(lookup, namespace, name);
  const type = typeOf(svc);
  const spec = specOf(svc);
  if (type === 'ExternalName') return { host: (spec.externalName as string | undefined) ?? '', port };
  if (!ROUTABLE_TYPES.has(type)) throw new ResolveError(`unsupported service type ${JSON.stringify(type)}`);
  if (type === 'ClusterIP' && spec.clusterIP === 'None') throw new ResolveError('cannot route to service with ClusterIP "None"');
  const svcPort = findServicePort(svc, name, port);
  return { host: (spec.clusterIP as string | undefined) ?? '', port: svcPort.port ?? port };
}
