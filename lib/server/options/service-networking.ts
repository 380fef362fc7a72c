/**
 * The service networking flags (issue #12 item 2): `--service-cluster-ip-range`,
 * `--service-node-port-range` and `--advertise-address`, with upstream kube-apiserver's usage
 * texts, defaults and checks; applied to `draft.serviceNetworking`. `flag-table.ts` lists them.
 */
import { parseServiceClusterIPRanges, DEFAULT_SERVICE_CIDR } from '../../registry/core/service/ipam.js';
import { DEFAULT_NODE_PORT_RANGE, parsePortRange } from '../../registry/core/service/port-range.js';
import type { FlagSpec } from './flag-table.js';
import { parseIP } from './flag-values.js';

/** The service networking options of one server process; each member names its flag. */
export interface ServiceNetworkingOptions {
  /**
   * `--service-cluster-ip-range`: one CIDR, or two of different families (dual-stack), comma
   * separated, the cluster IPs of Services come from ('' = `10.0.0.0/24`).
   */
  serviceClusterIPRange: string;
  /** `--service-node-port-range`: `a-b`, `a+n` or one port (default `30000-32767`; '' = the default). */
  serviceNodePortRange: string;
  /**
   * `--advertise-address`: the address this server is reached at, put in the Endpoints of the
   * API server Service (absent: the bind address, or the host's first non-loopback IPv4
   * address when binding to all or loopback addresses).
   */
  advertiseAddress?: string;
}

/** The options before any flag. */
export function defaultServiceNetworkingOptions(): ServiceNetworkingOptions {
  return { serviceClusterIPRange: '', serviceNodePortRange: DEFAULT_NODE_PORT_RANGE };
}

/** The service networking flags, in help order within their sections. */
export const SERVICE_NETWORKING_FLAGS: readonly FlagSpec[] = [
  {
    name: 'advertise-address',
    section: 'Generic',
    valueType: 'ip',
    defaultText: '<bind-address or host address>',
    usage:
      'The IP address on which to advertise the apiserver to members of the cluster. This address must be reachable by the rest of the cluster. If blank, the --bind-address will be used. If --bind-address is unspecified, the host\'s default interface will be used.',
    apply: (d, v) => {
      d.serviceNetworking.advertiseAddress = v.trim() === '' ? undefined : parseIP(v);
    },
  },
  {
    name: 'service-cluster-ip-range',
    section: 'Misc',
    valueType: 'string',
    defaultText: DEFAULT_SERVICE_CIDR,
    usage: 'A CIDR notation IP range from which to assign service cluster IPs. This must not overlap with any IP ranges assigned to nodes or pods. Max of two dual-stack CIDRs is allowed.',
    apply: (d, v) => (d.serviceNetworking.serviceClusterIPRange = v),
  },
  {
    name: 'service-node-port-range',
    section: 'Misc',
    valueType: 'portRange',
    defaultText: DEFAULT_NODE_PORT_RANGE,
    usage: "A port range to reserve for services with NodePort visibility.  This must not overlap with the ephemeral port range on nodes.  Example: '30000-32767'. Inclusive at both ends of the range.",
    apply: (d, v) => {
      parsePortRange(v);
      d.serviceNetworking.serviceNodePortRange = v;
    },
  },
];

/** Upstream's checks of `--service-cluster-ip-range` (its Complete and Validate), one reason each. */
export function validateServiceNetworkingOptions(o: ServiceNetworkingOptions): string[] {
  const ranges = parseServiceClusterIPRanges(o.serviceClusterIPRange);
  return 'errors' in ranges ? ranges.errors : [];
}
