/**
 * EndpointSlice validation with the upstream v1.30 paths and messages (discovery validation
 * `ValidateEndpointSlice`, `ValidateEndpointSliceUpdate`): at most 1000 endpoints of 1 to 100
 * addresses each, every address of the slice's type (IPv4 / IPv6 addresses that are not
 * unspecified, loopback or link-local; FQDNs of at least two labels), node names, hostnames,
 * topology labels and zone hints; at most 20000 ports with unique DNS-label names and
 * label-style application protocols; `addressType` immutable. A missing or unknown addressType
 * and an unknown non-empty protocol are reported by the schema; ObjectMeta by the caller.
 */
import { duplicate, type FieldError, FieldPath, invalid, notSupported, required, tooMany } from '../../../apimachinery/field-errors.js';
import { validateLabelMap } from '../../../apimachinery/validation/label-map.js';
import { isIPv4Bytes, parseIP, validateNonSpecialIP } from '../../../apimachinery/validation/ip.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from '../../../apimachinery/validation/names.js';
import { PORT_PROTOCOLS } from '../../core/v1/endpoints.js';
import { list, obj, objs, str, type Obj } from '../../core/v1/obj-access.js';

const MAX_ENDPOINTS = 1000;
const MAX_ADDRESSES = 100;
const MAX_PORTS = 20000;
const MAX_TOPOLOGY_LABELS = 16;
const MAX_ZONE_HINTS = 8;

/** A fully qualified domain name (a trailing dot allowed): a DNS subdomain of at least two labels. */
function validateFQDN(value: string, path: FieldPath): FieldError[] {
  if (value === '') return [required(path)];
  const name = value.endsWith('.') ? value.slice(0, -1) : value;
  const subdomain = isDNS1123Subdomain(name);
  if (subdomain.length > 0) return subdomain.map((m) => invalid(path, name, m));
  const labels = name.split('.');
  if (labels.length < 2) return [invalid(path, name, 'should be a domain with at least two segments separated by dots')];
  return labels.flatMap((l) => isDNS1123Label(l).map((m) => invalid(path, l, m)));
}

/** One address of the slice's type; other (unknown) types are not checked. */
function validateAddress(addressType: string, address: string, path: FieldPath): FieldError[] {
  switch (addressType) {
    case 'IPv4':
    case 'IPv6': {
      const ip = parseIP(address);
      const v4 = addressType === 'IPv4';
      const errs = !ip || isIPv4Bytes(ip) !== v4 ? [invalid(path, address, `must be a valid ${addressType} address`)] : [];
      return [...errs, ...validateNonSpecialIP(address, path)];
    }
    case 'FQDN':
      return validateFQDN(address, path);
    default:
      return [];
  }
}

/** Zone hints: at most 8, unique label-value names. */
function validateHints(hints: Obj, path: FieldPath): FieldError[] {
  const zones = objs(hints.forZones);
  const zonesPath = path.child('forZones');
  if (zones.length > MAX_ZONE_HINTS) return [tooMany(zonesPath, zones.length, MAX_ZONE_HINTS)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  zones.forEach((z, i) => {
    const name = str(z.name);
    const p = zonesPath.index(i).child('name');
    if (seen.has(name)) errs.push(duplicate(p, name));
    seen.add(name);
    errs.push(...isValidLabelValue(name).map((m) => invalid(p, name, m)));
  });
  return errs;
}

/** One endpoint: its addresses, node name, topology labels, hostname and hints. */
function validateEndpoint(ep: Obj, addressType: string, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const addresses = list(ep.addresses).map(str);
  const addrPath = path.child('addresses');
  if (addresses.length === 0) errs.push(required(addrPath, 'must contain at least 1 address'));
  else if (addresses.length > MAX_ADDRESSES) errs.push(tooMany(addrPath, addresses.length, MAX_ADDRESSES));
  addresses.forEach((a, i) => errs.push(...validateAddress(addressType, a, addrPath.index(i))));
  if (typeof ep.nodeName === 'string') {
    const nodeName = ep.nodeName;
    errs.push(...isDNS1123Subdomain(nodeName).map((m) => invalid(path.child('nodeName'), nodeName, m)));
  }
  const topology = obj(ep.deprecatedTopology) ?? {};
  const topologyPath = path.child('deprecatedTopology');
  const topologyCount = Object.keys(topology).length;
  if (topologyCount > MAX_TOPOLOGY_LABELS) errs.push(tooMany(topologyPath, topologyCount, MAX_TOPOLOGY_LABELS));
  errs.push(...validateLabelMap(topology, topologyPath));
  if (typeof ep.hostname === 'string') {
    const hostname = ep.hostname;
    errs.push(...isDNS1123Label(hostname).map((m) => invalid(path.child('hostname'), hostname, m)));
  }
  const hints = obj(ep.hints);
  if (hints) errs.push(...validateHints(hints, path.child('hints')));
  return errs;
}

/** Ports: at most 20000, unique names that are empty or DNS labels, a protocol, label-style app protocols. */
function validatePorts(ports: Obj[], path: FieldPath): FieldError[] {
  if (ports.length > MAX_PORTS) return [tooMany(path, ports.length, MAX_PORTS)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((p, i) => {
    const name = str(p.name);
    const namePath = path.index(i).child('name');
    if (name !== '') errs.push(...isDNS1123Label(name).map((m) => invalid(namePath, name, m)));
    if (names.has(name)) errs.push(duplicate(namePath, name));
    names.add(name);
    if (p.protocol === undefined || p.protocol === null) errs.push(required(path.index(i).child('protocol')));
    else if (p.protocol === '') errs.push(notSupported(path.index(i).child('protocol'), '', PORT_PROTOCOLS));
    if (typeof p.appProtocol === 'string') {
      const app = p.appProtocol;
      errs.push(...isQualifiedName(app).map((m) => invalid(path.index(i).child('appProtocol'), app, m)));
    }
  });
  return errs;
}

/** Create and update: endpoints and ports. */
export function validateEndpointSlice(eps: Obj): FieldError[] {
  const endpoints = objs(eps.endpoints);
  const path = FieldPath.of('endpoints');
  const errs: FieldError[] = [];
  if (endpoints.length > MAX_ENDPOINTS) errs.push(tooMany(path, endpoints.length, MAX_ENDPOINTS));
  else endpoints.forEach((ep, i) => errs.push(...validateEndpoint(ep, str(eps.addressType), path.index(i))));
  errs.push(...validatePorts(objs(eps.ports), FieldPath.of('ports')));
  return errs;
}

/** Update: `addressType` is immutable. */
export function validateEndpointSliceUpdate(eps: Obj, old: Obj): FieldError[] {
  return eps.addressType === old.addressType ? [] : [invalid('addressType', eps.addressType ?? '', 'field is immutable')];
}
