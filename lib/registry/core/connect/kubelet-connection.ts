/**
 * How the server reaches a node's kubelet (upstream `NodeConnectionInfoGetter`): HTTPS to the
 * first address of the Node's `status.addresses` of the most preferred type, on the port of
 * `status.daemonEndpoints.kubeletEndpoint.Port` (0: upstream's default kubelet port 10250),
 * presenting the `--kubelet-client-certificate` and checking the kubelet against
 * `--kubelet-certificate-authority` (absent: not checked, as upstream). spec 000 § What the
 * service does.
 */
import { newInternalError } from '../../../apimachinery/errors.js';
import type { Obj } from '../../../apis/define.js';
import type { RequestContext } from '../../../request/context.js';
import type { Store } from '../../generic/store.js';
import type { TargetTLS } from '../../rest/connecter.js';

/** Upstream's default kubelet port, used when a Node reports none. */
export const DEFAULT_KUBELET_PORT = 10250;

/** The kubelet client configuration (from the `--kubelet-*` flags, files already read). */
export interface KubeletClientConfig {
  /** PEM client certificate and key (`--kubelet-client-certificate`, `--kubelet-client-key`); absent: none presented. */
  certPem?: string;
  keyPem?: string;
  /** PEM CA bundle (`--kubelet-certificate-authority`); absent: the kubelet's certificate is not verified. */
  caPem?: string;
  /** Node address types in order of preference (`--kubelet-preferred-address-types`). */
  preferredAddressTypes: readonly string[];
  /** Dial and response-header timeout in milliseconds (`--kubelet-timeout`). */
  timeoutMs: number;
}

/** One node's kubelet endpoint. */
export interface KubeletEndpoint {
  /** `host:port` (an IPv6 address in brackets). */
  hostPort: string;
  tls: TargetTLS;
  timeoutMs: number;
}

interface NodeAddress {
  type?: string;
  address?: string;
}

/** `host:port`, with brackets around an IPv6 address (Go's net.JoinHostPort). */
export function joinHostPort(host: string, port: string | number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** Go's `%v` of a Node's addresses: `[{InternalIP 10.0.0.1} {Hostname n1}]`. */
function formatAddresses(addresses: readonly NodeAddress[]): string {
  return `[${addresses.map((a) => `{${a.type ?? ''} ${a.address ?? ''}}`).join(' ')}]`;
}

/**
 * The address of `node` of the first preferred type that it has (upstream GetPreferredNodeAddress).
 * @throws StatusError 500 `no preferred addresses found; known addresses: [...]` when none matches.
 */
export function preferredNodeAddress(node: Obj, preferred: readonly string[]): string {
  const addresses = (((node.status as Obj | undefined)?.addresses as NodeAddress[] | undefined) ?? []).filter((a) => a && typeof a === 'object');
  for (const type of preferred) {
    const found = addresses.find((a) => a.type === type && typeof a.address === 'string' && a.address !== '');
    if (found) return found.address!;
  }
  throw newInternalError(`no preferred addresses found; known addresses: ${formatAddresses(addresses)}`);
}

/** The kubelet port a Node reports (`status.daemonEndpoints.kubeletEndpoint.Port`), or the default. */
export function kubeletPort(node: Obj): number {
  const port = (((node.status as Obj | undefined)?.daemonEndpoints as Obj | undefined)?.kubeletEndpoint as Obj | undefined)?.Port;
  return typeof port === 'number' && port > 0 ? port : DEFAULT_KUBELET_PORT;
}

/** The TLS of a kubelet connection: the client identity, and the CA when one is configured (else not verified). */
export function kubeletTLS(cfg: KubeletClientConfig): TargetTLS {
  const tls: TargetTLS = { verify: cfg.caPem !== undefined };
  if (cfg.certPem !== undefined) tls.cert = cfg.certPem;
  if (cfg.keyPem !== undefined) tls.key = cfg.keyPem;
  if (cfg.caPem !== undefined) tls.ca = cfg.caPem;
  return tls;
}

/**
 * The kubelet endpoint of node `nodeName`, read from `nodes`.
 * @throws StatusError 404 for a missing Node, 500 when it has no address of a preferred type.
 */
export async function kubeletEndpoint(ctx: RequestContext, nodes: Store, cfg: KubeletClientConfig, nodeName: string): Promise<KubeletEndpoint> {
  const node = await nodes.get(ctx, '', nodeName);
  const host = preferredNodeAddress(node, cfg.preferredAddressTypes);
  const port = kubeletPort(node);
  const tls = kubeletTLS(cfg);
  return { hostPort: joinHostPort(host, port), tls, timeoutMs: cfg.timeoutMs };
}
