/**
 * The Endpoints and EndpointSlice of the API server Service (upstream v1.30 lease endpoint
 * reconciler `doReconcile` and `EndpointsAdapter`): one subset holding the live servers'
 * addresses, sorted, and the Service's port; labelled so the EndpointSlice mirroring skips it;
 * rewritten only when its format, addresses or (when asked) ports are wrong. The EndpointSlice of
 * the same name carries the same addresses, each ready, with the address type of their family
 * and the service-name label; it is updated when it differs and recreated when the address type
 * changes.
 */
import { deepEqual } from '../../apimachinery/deep-equal.js';
import { isReason } from '../../apimachinery/errors.js';
import { isIPv6String } from '../../apimachinery/validation/ip.js';
import type { Obj } from '../../apis/define.js';
import { ENDPOINT_SLICE_SERVICE_NAME_LABEL, ENDPOINT_SLICE_SKIP_MIRROR_LABEL } from '../../apis/vendor.js';
import type { RequestContext } from '../../request/context.js';
import type { Store } from '../../registry/generic/store.js';
import { createObject, updateObject } from '../writes.js';

/** One port of the endpoints (`{name: https, port: <secure port>, protocol: TCP}`). */
export interface EndpointPort {
  name: string;
  port: number;
  protocol: string;
}

/** What the reconciler writes through. */
export interface EndpointsReconcilerConfig {
  endpoints: Store;
  endpointSlices: Store;
  ctx: RequestContext;
  namespace: string;
  serviceName: string;
}

const labelsOf = (o: Obj): Record<string, string> => (((o.metadata as Obj | undefined)?.labels ?? {}) as Record<string, string>);
const subsetsOf = (o: Obj): Obj[] => (Array.isArray(o.subsets) ? (o.subsets as Obj[]) : []);

/** Whether the Endpoints have exactly one subset with exactly `ips` (any order) and, when asked, exactly `ports`. */
function isCurrent(e: Obj, ips: readonly string[], ports: readonly EndpointPort[], reconcilePorts: boolean): boolean {
  const subsets = subsetsOf(e);
  if (subsets.length !== 1) return false;
  const addresses = ((subsets[0]!.addresses as Obj[] | undefined) ?? []).map((a) => String(a.ip ?? ''));
  if (addresses.length !== ips.length || !deepEqual([...addresses].sort(), [...ips].sort())) return false;
  return !reconcilePorts || deepEqual(subsets[0]!.ports ?? [], ports);
}

/** The Endpoints and EndpointSlice of the API server Service (module doc). */
export class EndpointsReconciler {
  constructor(private readonly cfg: EndpointsReconcilerConfig) {}

  /**
   * Makes the Endpoints hold `ips` (the live servers' addresses, sorted) with `ports`, then the
   * EndpointSlice follow them. @throws Error when `ips` is empty (upstream refuses to erase every
   * endpoint: the caller just renewed its own lease), StatusError from the stores.
   */
  async reconcile(ips: readonly string[], ports: readonly EndpointPort[], reconcilePorts: boolean): Promise<void> {
    if (ips.length === 0) throw new Error('no master IPs were listed in storage, refusing to erase all endpoints for the kubernetes service');
    const { endpoints, namespace, serviceName, ctx } = this.cfg;
    let current: Obj | undefined;
    try {
      current = await endpoints.get(ctx, namespace, serviceName);
    } catch (err) {
      if (!isReason(err, 'NotFound')) throw err;
    }
    const subset = { addresses: ips.map((ip) => ({ ip })), ports: [...ports] };
    if (!current) {
      const created = await createObject(ctx, endpoints, namespace, {
        metadata: { name: serviceName, namespace, labels: { [ENDPOINT_SLICE_SKIP_MIRROR_LABEL]: 'true' } },
        subsets: [subset],
      });
      if (created) await this.ensureSlice(ips, ports);
      return;
    }
    if (labelsOf(current)[ENDPOINT_SLICE_SKIP_MIRROR_LABEL] === 'true' && isCurrent(current, ips, ports, reconcilePorts)) {
      await this.ensureSlice(ips, ((subsetsOf(current)[0]!.ports as EndpointPort[] | undefined) ?? []) as EndpointPort[]);
      return;
    }
    let written: EndpointPort[] = [...ports];
    await updateObject(ctx, endpoints, namespace, serviceName, (e) => {
      const meta = e.metadata as Obj;
      meta.labels = { ...labelsOf(e), [ENDPOINT_SLICE_SKIP_MIRROR_LABEL]: 'true' };
      const keepPorts = !reconcilePorts && subsetsOf(e).length === 1 ? (subsetsOf(e)[0]!.ports as EndpointPort[] | undefined) : undefined;
      written = keepPorts ?? [...ports];
      e.subsets = [{ addresses: subset.addresses, ...(written.length > 0 ? { ports: written } : {}) }];
    });
    await this.ensureSlice(ips, written);
  }

  /** The EndpointSlice the Endpoints imply (upstream `endpointSliceFromEndpoints`). */
  private sliceFor(ips: readonly string[], ports: readonly EndpointPort[]): Obj {
    const { namespace, serviceName } = this.cfg;
    const ipv6 = ips.length > 0 && ips.every((ip) => isIPv6String(ip));
    return {
      metadata: { name: serviceName, namespace, labels: { [ENDPOINT_SLICE_SERVICE_NAME_LABEL]: serviceName } },
      addressType: ipv6 ? 'IPv6' : 'IPv4',
      endpoints: ips.filter((ip) => isIPv6String(ip) === ipv6).map((ip) => ({ addresses: [ip], conditions: { ready: true } })),
      ports: ports.map((p) => ({ name: p.name, protocol: p.protocol, port: p.port })),
    };
  }

  /** Creates, updates or (address type changed) recreates the EndpointSlice. */
  private async ensureSlice(ips: readonly string[], ports: readonly EndpointPort[]): Promise<void> {
    const { endpointSlices, namespace, serviceName, ctx } = this.cfg;
    const want = this.sliceFor(ips, ports);
    let current: Obj | undefined;
    try {
      current = await endpointSlices.get(ctx, namespace, serviceName);
    } catch (err) {
      if (!isReason(err, 'NotFound')) throw err;
    }
    if (!current) {
      await createObject(ctx, endpointSlices, namespace, want);
      return;
    }
    if (current.addressType !== want.addressType) {
      await endpointSlices.delete(ctx, namespace, serviceName, {});
      await createObject(ctx, endpointSlices, namespace, want);
      return;
    }
    const same = deepEqual(current.endpoints ?? [], want.endpoints) && deepEqual(current.ports ?? [], want.ports) && deepEqual(labelsOf(current), labelsOf(want));
    if (same) return;
    await updateObject(ctx, endpointSlices, namespace, serviceName, (s) => {
      (s.metadata as Obj).labels = labelsOf(want);
      s.endpoints = want.endpoints;
      s.ports = want.ports;
    });
  }
}
