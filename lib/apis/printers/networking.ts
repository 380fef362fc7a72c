/**
 * Table columns of the networking and discovery kinds (spec 000 § Table representation), cells
 * as the upstream v1.30 printers compute them (the server prints the wide form):
 * - Ingress: Name, Class (`<none>`), Hosts (up to three, `*` for none, `+ N more...`), Address
 *   (load balancer IPs or hostnames, sorted, unique), Ports (`80`, or `80, 443` with TLS), Age.
 * - IngressClass: Name, Controller, Parameters (`Kind[.apiGroup]/name`, `<none>`), Age.
 * - NetworkPolicy: Name, Pod-Selector (`<none>` when empty), Age.
 * - EndpointSlice: Name, AddressType, Ports and Endpoints (up to three, `+ N more...`,
 *   `<unset>` for none; a port without number prints its name, `*` without either), Age.
 */
import type { TablePrinter } from '../../apimachinery/table/types.js';
import { list, obj, objs, str, type Obj } from '../core/v1/obj-access.js';
import { AGE_COLUMN, age, at, column, formatLabelSelector, NAME_COLUMN, objectName } from './common.js';

/** A printer from its columns and cell function. */
function printer(columns: TablePrinter['columns'], cells: TablePrinter['cells']): TablePrinter {
  return Object.freeze({ columns: Object.freeze([...columns]), cells });
}

const MAX_SHOWN = 3;

/** The hosts of the rules: up to three non-empty ones, `*` when none, `+ N more...` (N counted in rules). */
function formatHosts(rules: Obj[]): string {
  const shown: string[] = [];
  let more = false;
  for (const rule of rules) {
    if (shown.length === MAX_SHOWN) more = true;
    const host = str(rule.host);
    if (!more && host !== '') shown.push(host);
  }
  if (shown.length === 0) return '*';
  const text = shown.join(',');
  return more ? `${text} + ${rules.length - MAX_SHOWN} more...` : text;
}

/** Load balancer IPs (or hostnames when no IP), sorted and unique, joined with `,`. */
function loadBalancerAddresses(ing: Obj): string {
  const set = new Set<string>();
  for (const lb of objs(at(ing, 'status', 'loadBalancer').ingress)) {
    if (str(lb.ip) !== '') set.add(str(lb.ip));
    else if (str(lb.hostname) !== '') set.add(str(lb.hostname));
  }
  return [...set].sort().join(',');
}

/** The Ingress printer. */
export const ingressPrinter = printer(
  [
    NAME_COLUMN,
    column('Class', 'string', 'The name of the IngressClass resource that should be used for additional configuration'),
    column('Hosts', 'string', 'Hosts that incoming requests are matched against before the ingress rule'),
    column('Address', 'string', 'Address is a list containing ingress points for the load-balancer'),
    column('Ports', 'string', 'Ports of TLS configurations that open'),
    AGE_COLUMN,
  ],
  (ing, now) => {
    const spec = at(ing, 'spec');
    const className = typeof spec.ingressClassName === 'string' ? spec.ingressClassName : '<none>';
    const ports = list(spec.tls).length > 0 ? '80, 443' : '80';
    return [objectName(ing), className, formatHosts(objs(spec.rules)), loadBalancerAddresses(ing), ports, age(ing, now)];
  },
);

/** The IngressClass printer. */
export const ingressClassPrinter = printer(
  [
    NAME_COLUMN,
    column('Controller', 'string', 'Controller that is responsible for handling this class'),
    column('Parameters', 'string', 'A reference to a resource with additional parameters'),
    AGE_COLUMN,
  ],
  (ic, now) => {
    const spec = at(ic, 'spec');
    const params = obj(spec.parameters);
    let parameters = '<none>';
    if (params) {
      parameters = str(params.kind);
      if (typeof params.apiGroup === 'string') parameters += `.${params.apiGroup}`;
      parameters += `/${str(params.name)}`;
    }
    return [objectName(ic), str(spec.controller), parameters, age(ic, now)];
  },
);

/** The NetworkPolicy printer. */
export const networkPolicyPrinter = printer(
  [NAME_COLUMN, column('Pod-Selector', 'string', 'The pods the policy applies to.'), AGE_COLUMN],
  (np, now) => [objectName(np), formatLabelSelector(at(np, 'spec').podSelector ?? {}), age(np, now)],
);

/** Up to three items, then `+ N more...` (N of `count`); `<unset>` for none (upstream `listWithMoreString`). */
function listWithMore(items: string[], count: number): string {
  const text = items.slice(0, MAX_SHOWN).join(',');
  if (count > MAX_SHOWN) return `${text} + ${count - MAX_SHOWN} more...`;
  return text === '' ? '<unset>' : text;
}

/** The port numbers of the slice (the name of a port without number, `*` without either). */
function formatSlicePorts(ports: Obj[]): string {
  const shown = ports.map((p) => (typeof p.port === 'number' ? String(p.port) : typeof p.name === 'string' ? p.name : '*'));
  return listWithMore(shown, ports.length);
}

/** The addresses of every endpoint of the slice. */
function formatSliceEndpoints(endpoints: Obj[]): string {
  const addresses = endpoints.flatMap((ep) => list(ep.addresses).map(str));
  return listWithMore(addresses, addresses.length);
}

/** The EndpointSlice printer. */
export const endpointSlicePrinter = printer(
  [
    NAME_COLUMN,
    column('AddressType', 'string', 'The type of address carried by the slice: IPv4, IPv6 or FQDN.'),
    column('Ports', 'string', 'The network ports exposed by each endpoint of the slice.'),
    column('Endpoints', 'string', 'The addresses of the endpoints of the slice.'),
    AGE_COLUMN,
  ],
  (eps, now) => [objectName(eps), str(eps.addressType), formatSlicePorts(objs(eps.ports)), formatSliceEndpoints(objs(eps.endpoints)), age(eps, now)],
);
