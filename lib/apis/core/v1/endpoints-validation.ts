/**
 * Endpoints validation with the upstream paths and messages (upstream core validation
 * `ValidateEndpoints`, `validateEndpointSubsets`): every subset has addresses, addresses are
 * valid non-special IPs, hostnames are DNS labels, node names DNS subdomains, ports are valid and
 * named when there are several. Unknown protocols are reported by the schema's enum.
 */
import { type FieldError, FieldPath, invalid, required } from '../../../apimachinery/field-errors.js';
import { validateIP, validateNonSpecialIP } from '../../../apimachinery/validation/ip.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName } from '../../../apimachinery/validation/names.js';
import { isValidPortNum } from '../../../apimachinery/validation/ports.js';
import type { Obj } from '../../define.js';

const list = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);

function validateAddress(a: Obj, path: FieldPath): FieldError[] {
  const ip = (a.ip as string | undefined) ?? '';
  const errs = ip === '' ? [] : validateIP(path.child('ip'), ip);
  const hostname = a.hostname as string | undefined;
  if (hostname) errs.push(...isDNS1123Label(hostname).map((m) => invalid(path.child('hostname'), hostname, m)));
  const nodeName = a.nodeName as string | undefined;
  if (nodeName !== undefined) errs.push(...isDNS1123Subdomain(nodeName).map((m) => invalid(path.child('nodeName'), nodeName, m)));
  if (ip !== '') errs.push(...validateNonSpecialIP(ip, path.child('ip')));
  return errs;
}

function validatePort(p: Obj, requireName: boolean, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = (p.name as string | undefined) ?? '';
  if (requireName && name === '') errs.push(required(path.child('name')));
  else if (name !== '') errs.push(...isDNS1123Label(name).map((m) => invalid(path.child('name'), name, m)));
  if (typeof p.port === 'number') errs.push(...isValidPortNum(p.port).map((m) => invalid(path.child('port'), p.port, m)));
  if (p.protocol === '') errs.push(required(path.child('protocol')));
  const appProtocol = p.appProtocol as string | undefined;
  if (appProtocol !== undefined) errs.push(...isQualifiedName(appProtocol).map((m) => invalid(path.child('appProtocol'), appProtocol, m)));
  return errs;
}

/** Create and update: the `subsets` rules above (an empty `ip` or absent `port` is the schema's Required). */
export function validateEndpoints(ep: Obj): FieldError[] {
  const errs: FieldError[] = [];
  list(ep.subsets).forEach((ss, i) => {
    const path = FieldPath.of('subsets').index(i);
    const addresses = list(ss.addresses);
    const notReady = list(ss.notReadyAddresses);
    if (addresses.length === 0 && notReady.length === 0) errs.push(required(path, 'must specify `addresses` or `notReadyAddresses`'));
    addresses.forEach((a, j) => errs.push(...validateAddress(a, path.child('addresses').index(j))));
    notReady.forEach((a, j) => errs.push(...validateAddress(a, path.child('notReadyAddresses').index(j))));
    const ports = list(ss.ports);
    ports.forEach((p, j) => errs.push(...validatePort(p, ports.length > 1, path.child('ports').index(j))));
  });
  return errs;
}
