/**
 * Table columns of the plain core kinds (spec 000 § Table representation), cells as the
 * upstream v1.30 printers compute them:
 * - Namespace: Name, Status (phase), Age.
 * - Secret: Name, Type, Data (number of keys), Age.   ConfigMap: Name, Data (keys of data and
 *   binaryData), Age.   ServiceAccount: Name, Secrets (count), Age.
 * - Endpoints: Name, Endpoints (up to three `ip:port`, then `+ N more...`; `<none>`), Age.
 * - Service: Name, Type, Cluster-IP, External-IP, Port(s) (`port[:nodePort]/protocol`), Age;
 *   wide: Selector.
 */
import type { TablePrinter } from '../../apimachinery/table/types.js';
import { objs, str, type Obj } from '../core/v1/obj-access.js';
import { AGE_COLUMN, age, at, column, countKeys, formatLabels, int, NAME_COLUMN, objectName, orNone, selectorColumn } from './common.js';

/** A printer from its columns and cell function. */
function printer(columns: TablePrinter['columns'], cells: TablePrinter['cells']): TablePrinter {
  return Object.freeze({ columns: Object.freeze([...columns]), cells });
}

/** The Namespace printer. */
export const namespacePrinter = printer(
  [NAME_COLUMN, column('Status', 'string', 'The namespace phase: Active or Terminating.'), AGE_COLUMN],
  (ns, now) => [objectName(ns), str(at(ns, 'status').phase), age(ns, now)],
);

/** The Secret printer. */
export const secretPrinter = printer(
  [NAME_COLUMN, column('Type', 'string', 'The secret type.'), column('Data', 'string', 'Number of keys in data.'), AGE_COLUMN],
  (s, now) => [objectName(s), str(s.type), countKeys(s.data), age(s, now)],
);

/** The ConfigMap printer. */
export const configMapPrinter = printer(
  [NAME_COLUMN, column('Data', 'string', 'Number of keys in data and binaryData.'), AGE_COLUMN],
  (cm, now) => [objectName(cm), countKeys(cm.data) + countKeys(cm.binaryData), age(cm, now)],
);

/** The ServiceAccount printer. */
export const serviceAccountPrinter = printer(
  [NAME_COLUMN, column('Secrets', 'string', 'Number of secrets listed by the service account.'), AGE_COLUMN],
  (sa, now) => [objectName(sa), objs(sa.secrets).length, age(sa, now)],
);

const MAX_ENDPOINTS = 3;

/** `ip:port`, bracketing IPv6 addresses (Go `net.JoinHostPort`). */
function hostPort(ip: string, port: number): string {
  return ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
}

/** Up to three endpoints of all subsets, then `+ N more...`; `<none>` without subsets. */
function formatEndpoints(ep: Obj): string {
  const subsets = objs(ep.subsets);
  if (subsets.length === 0) return '<none>';
  const shown: string[] = [];
  let count = 0;
  const add = (text: string): void => {
    if (shown.length < MAX_ENDPOINTS) shown.push(text);
  };
  for (const ss of subsets) {
    const addresses = objs(ss.addresses);
    const ports = objs(ss.ports);
    if (ports.length === 0) {
      count += addresses.length;
      for (const a of addresses) add(str(a.ip));
      continue;
    }
    for (const p of ports) {
      count += addresses.length;
      for (const a of addresses) add(hostPort(str(a.ip), int(p.port)));
    }
  }
  const text = shown.join(',');
  return count > MAX_ENDPOINTS ? `${text} + ${count - MAX_ENDPOINTS} more...` : text;
}

/** The Endpoints printer. */
export const endpointsPrinter = printer(
  [NAME_COLUMN, column('Endpoints', 'string', 'The first addresses and ports of the endpoints.'), AGE_COLUMN],
  (ep, now) => [objectName(ep), formatEndpoints(ep), age(ep, now)],
);

/** Load-balancer ingress IPs (or host names), sorted and unique, joined with `,`. */
function loadBalancerAddresses(status: Obj): string {
  const set = new Set<string>();
  for (const ing of objs(at(status, 'loadBalancer').ingress)) {
    const ip = str(ing.ip);
    const host = str(ing.hostname);
    if (ip !== '') set.add(ip);
    else if (host !== '') set.add(host);
  }
  return [...set].sort().join(',');
}

/** The External-IP cell by service type (wide form: nothing clipped). */
function externalIP(spec: Obj, status: Obj): string {
  const externalIPs = Array.isArray(spec.externalIPs) ? (spec.externalIPs as unknown[]).map(str) : [];
  switch (spec.type) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const lb = loadBalancerAddresses(status);
      if (externalIPs.length > 0) return [...(lb === '' ? [] : lb.split(',')), ...externalIPs].join(',');
      return lb !== '' ? lb : '<pending>';
    }
    case 'ExternalName':
      return str(spec.externalName);
    default:
      return '<unknown>';
  }
}

/** `port/protocol` or `port:nodePort/protocol` for each port, joined with `,`; `<none>` for none. */
function ports(spec: Obj): string {
  const pieces = objs(spec.ports).map((p) => {
    const nodePort = int(p.nodePort);
    return nodePort > 0 ? `${int(p.port)}:${nodePort}/${str(p.protocol)}` : `${int(p.port)}/${str(p.protocol)}`;
  });
  return orNone(pieces.join(','));
}

function serviceCells(svc: Obj, now: number): string[] {
  const spec = at(svc, 'spec');
  const clusterIPs = Array.isArray(spec.clusterIPs) ? (spec.clusterIPs as unknown[]) : [];
  const clusterIP = clusterIPs.length > 0 ? str(clusterIPs[0]) : '<none>';
  return [objectName(svc), str(spec.type), clusterIP, externalIP(spec, at(svc, 'status')), ports(spec), age(svc, now), formatLabels(spec.selector)];
}

/** The Service printer. */
export const servicePrinter = printer(
  [
    NAME_COLUMN,
    column('Type', 'string', 'How the service is exposed.'),
    column('Cluster-IP', 'string', 'The first cluster IP of the service.'),
    column('External-IP', 'string', 'Addresses the service is reachable at from outside the cluster.'),
    column('Port(s)', 'string', 'The ports the service exposes.'),
    AGE_COLUMN,
    selectorColumn('The labels of the pods the service routes to.'),
  ],
  serviceCells,
);
