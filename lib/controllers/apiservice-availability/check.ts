/**
 * The availability check of one APIService (upstream v1.30 kube-aggregator
 * `AvailableConditionController.sync`), giving its `Available` condition's status, reason and
 * message:
 * - no service: True `Local` "Local APIServices are always available";
 * - the Service missing: False `ServiceNotFound`;
 * - a ClusterIP Service: not listening on the APIService's port: False `ServicePortError`; no
 *   Endpoints: False `EndpointsNotFound`; no subset with addresses and the port's name: False
 *   `MissingEndpoints`;
 * - then discovery: five parallel GETs of `/apis/<group>/<version>` (`/api/<version>` for `v1.`)
 *   as the aggregator's user; one 2xx answer passes, else False `FailedDiscoveryCheck` with the
 *   last failure (`failing or missing response from <url>: <error>`, `bad status from <url>: <code>`,
 *   `timed out waiting for <url>`);
 * - True `Passed` "all checks passed".
 * With the informer caches read here, upstream's `ServiceAccessError` and `EndpointsAccessError`
 * (a lister failing otherwise than NotFound) cannot happen.
 */
import type { Obj } from '../../apis/define.js';
import { type ResolvedEndpoint, type ServiceLookup, endpointURL } from '../../client/service-resolver.js';

/** The outcome of a check: the condition's status, reason and message. */
export interface Availability {
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
}

/** What a check reads and how it reaches the extension server. */
export interface AvailabilityDeps {
  services: ServiceLookup;
  /** The address requests go to. @throws ResolveError. */
  resolve(apiService: Obj): ResolvedEndpoint;
  /** GETs a path of the server at `target` as the aggregator's user. @throws the network error or a timeout naming the URL. */
  get(apiService: Obj, target: ResolvedEndpoint, path: string, timeoutMs: number): Promise<{ status: number }>;
}

/** Parallel discovery attempts of one check (upstream: 5). */
const ATTEMPTS = 5;
/** How long one attempt waits (ms; upstream: 6 s). */
const ATTEMPT_TIMEOUT_MS = 6_000;

type ServiceRef = { namespace?: string; name?: string; port?: number };
type Port = { name?: string; port?: number };

const PASSED: Availability = { status: 'True', reason: 'Passed', message: 'all checks passed' };

/** The Service checks of a ClusterIP Service; undefined when they pass. */
function checkEndpoints(deps: AvailabilityDeps, ref: Required<ServiceRef>, svc: Obj): Availability | undefined {
  const ports = (((svc.spec ?? {}) as Obj).ports ?? []) as Port[];
  const port = ports.find((p) => p.port === ref.port);
  if (!port) return { status: 'False', reason: 'ServicePortError', message: `service/${ref.name} in ${JSON.stringify(ref.namespace)} is not listening on port ${ref.port}` };
  const portName = port.name ?? '';
  const eps = deps.services.endpoints(ref.namespace, ref.name);
  if (!eps) return { status: 'False', reason: 'EndpointsNotFound', message: `cannot find endpoints for service/${ref.name} in ${JSON.stringify(ref.namespace)}` };
  const subsets = (eps.subsets ?? []) as Array<{ addresses?: unknown[]; ports?: Port[] }>;
  const active = subsets.some((ss) => (ss.addresses ?? []).length > 0 && (ss.ports ?? []).some((p) => (p.name ?? '') === portName));
  if (!active) return { status: 'False', reason: 'MissingEndpoints', message: `endpoints for service/${ref.name} in ${JSON.stringify(ref.namespace)} have no addresses with port name ${JSON.stringify(portName)}` };
  return undefined;
}

/** One discovery attempt; resolves to the failure's message, or undefined on success. */
async function attempt(deps: AvailabilityDeps, apiService: Obj, path: string): Promise<string | undefined> {
  let target: ResolvedEndpoint;
  try {
    target = deps.resolve(apiService);
  } catch (err) {
    return (err as Error).message;
  }
  const url = endpointURL(target, path);
  try {
    const res = await deps.get(apiService, target, path, ATTEMPT_TIMEOUT_MS);
    if (res.status < 200 || res.status >= 300) return `failing or missing response from ${url}: bad status from ${url}: ${res.status}`;
    return undefined;
  } catch (err) {
    const message = (err as Error).message;
    return message.startsWith('timed out waiting for ') ? message : `failing or missing response from ${url}: ${message}`;
  }
}

/** Checks `apiService` (see the module description). Never throws. */
export async function checkAvailability(deps: AvailabilityDeps, apiService: Obj): Promise<Availability> {
  const spec = (apiService.spec ?? {}) as { service?: ServiceRef | null; group?: string; version?: string };
  if (!spec.service) return { status: 'True', reason: 'Local', message: 'Local APIServices are always available' };
  const ref = { namespace: spec.service.namespace ?? '', name: spec.service.name ?? '', port: spec.service.port ?? 443 };
  const svc = deps.services.service(ref.namespace, ref.name);
  if (!svc) return { status: 'False', reason: 'ServiceNotFound', message: `service/${ref.name} in ${JSON.stringify(ref.namespace)} is not present` };
  if (((((svc.spec ?? {}) as Obj).type as string | undefined) ?? 'ClusterIP') === 'ClusterIP') {
    const failed = checkEndpoints(deps, ref, svc);
    if (failed) return failed;
  }
  const name = String(((apiService.metadata ?? {}) as Obj).name ?? '');
  const path = name === 'v1.' ? `/api/${spec.version ?? ''}` : `/apis/${spec.group ?? ''}/${spec.version ?? ''}`;
  const results = await Promise.all(Array.from({ length: ATTEMPTS }, () => attempt(deps, apiService, path)));
  if (results.some((r) => r === undefined)) return PASSED;
  return { status: 'False', reason: 'FailedDiscoveryCheck', message: results[results.length - 1]! };
}
