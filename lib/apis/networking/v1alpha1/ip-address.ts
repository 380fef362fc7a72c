/**
 * networking/v1alpha1 IPAddress: one allocated IP, named by the address in canonical form, and
 * the object it belongs to (upstream v1.30 k8s.io/api/networking/v1alpha1 field structure and
 * protobuf numbers; off by default). Cluster-scoped. Validation as upstream `ValidateIPAddress`
 * / `ValidateIPAddressUpdate`: the name parses with Go's `netip.ParseAddr` and is written
 * canonically; `spec.parentRef` is required (resource and name path segments, group a DNS
 * subdomain) and immutable.
 */
import { type FieldError, FieldPath, GoSyntax, invalid, required } from '../../../apimachinery/field-errors.js';
import { field, string, struct } from '../../../apimachinery/schema/builder.js';
import { isDNS1123Subdomain, isValidPathSegmentName } from '../../../apimachinery/validation/names.js';
import { obj, str, type Obj } from '../../core/v1/obj-access.js';
import { defineKind } from '../../define.js';
import { objectMeta } from '../../meta/v1/types.js';
import { ipAddressPrinter } from '../../printers/alpha.js';
import { NETWORKING_GROUP } from '../v1/group.js';
import { formatAddr, parseAddr } from './netip.js';

/** Definition ids of networking/v1alpha1 structs. */
export const NETWORKING_V1ALPHA1 = 'api.networking.v1alpha1';

const PARENT = FieldPath.of('spec', 'parentRef');

/**
 * An IPAddress name (upstream `ValidateIPAddressName`; names are never generated, so a prefix is
 * checked as a whole name): Go's ParseAddr error, or `must be a canonical format IP address`.
 */
export function validateIPAddressName(name: string): string[] {
  try {
    return formatAddr(parseAddr(name)) === name ? [] : ['must be a canonical format IP address'];
  } catch (err) {
    return [(err as Error).message];
  }
}

/** `spec.parentRef` (upstream `validateIPAddressParentReference`). */
function validateParentRef(ref: Obj | undefined): FieldError[] {
  if (ref === undefined) return [required(PARENT, '')];
  const errs: FieldError[] = [];
  const group = str(ref.group);
  if (group !== '') for (const m of isDNS1123Subdomain(group)) errs.push(invalid(PARENT.child('group'), group, m));
  for (const key of ['resource', 'name'] as const) {
    const v = str(ref[key]);
    if (v === '') errs.push(required(PARENT.child(key), ''));
    else for (const m of isValidPathSegmentName(v)) errs.push(invalid(PARENT.child(key), v, m));
  }
  const ns = str(ref.namespace);
  if (ns !== '') for (const m of isValidPathSegmentName(ns)) errs.push(invalid(PARENT.child('namespace'), ns, m));
  return errs;
}

/** Go's `%#v` of a `*networking.ParentReference`, as upstream prints an immutable-field change. */
function goParentRef(ref: Obj | undefined): GoSyntax {
  if (ref === undefined) return new GoSyntax('(*networking.ParentReference)(nil)');
  const q = (k: string) => JSON.stringify(str(ref[k]));
  return new GoSyntax(`&networking.ParentReference{Group:${q('group')}, Resource:${q('resource')}, Namespace:${q('namespace')}, Name:${q('name')}}`);
}

const parentOf = (ip: Obj): Obj | undefined => obj(obj(ip.spec)?.parentRef);

const sameRef = (a: Obj | undefined, b: Obj | undefined): boolean =>
  a === undefined || b === undefined ? a === b : ['group', 'resource', 'namespace', 'name'].every((k) => str(a[k]) === str(b[k]));

/** The object an address belongs to. */
export const parentReference = struct(`${NETWORKING_V1ALPHA1}.ParentReference`, {
  group: field(1, string, { description: 'API group of the referent; empty for the core group.' }),
  resource: field(2, string, { description: 'Resource of the referent.' }),
  namespace: field(3, string, { description: 'Namespace of the referent, for namespaced resources.' }),
  name: field(4, string, { description: 'Name of the referent.' }),
});

/** The IPAddress kind. */
export const ipAddress = defineKind({
  group: NETWORKING_GROUP,
  version: 'v1alpha1',
  kind: 'IPAddress',
  resource: 'ipaddresses',
  singular: 'ipaddress',
  namespaced: false,
  shortNames: ['ip'],
  description: 'An IP address allocated to an object, named by the address in canonical form.',
  printerColumns: ipAddressPrinter,
  nameRule: (name) => validateIPAddressName(name),
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, struct(`${NETWORKING_V1ALPHA1}.IPAddressSpec`, { parentRef: field(1, parentReference, { description: 'The object the address is allocated to; required, immutable.' }) }), { omitEmpty: false, default: {} }),
  },
  validate: (ip) => validateParentRef(parentOf(ip)),
  validateUpdate: (ip, old) => (sameRef(parentOf(ip), parentOf(old)) ? [] : [invalid(PARENT, goParentRef(parentOf(ip)), 'field is immutable')]),
});
