/**
 * networking/v1alpha1 ServiceCIDR: a range Service cluster IPs are allocated from (upstream
 * v1.30 k8s.io/api/networking/v1alpha1 field structure and protobuf numbers; off by default).
 * Cluster-scoped, with a `status` subresource (conditions). Validation as upstream
 * `ValidateServiceCIDR` / `ValidateServiceCIDRUpdate`: one or two CIDRs, two only of different
 * IP families, each a prefix Go's `netip.ParsePrefix` accepts, with no host bits and written in
 * RFC 5952 form; immutable.
 */
import { type FieldError, FieldPath, GoSyntax, goStringSlice, invalid, required } from '../../../apimachinery/field-errors.js';
import { field, listOf, string, struct } from '../../../apimachinery/schema/builder.js';
import { isDualStackCIDRs } from '../../../apimachinery/validation/ip.js';
import { list, obj, str, type Obj } from '../../core/v1/obj-access.js';
import { defineKind } from '../../define.js';
import { condition, objectMeta } from '../../meta/v1/types.js';
import { serviceCIDRPrinter } from '../../printers/alpha.js';
import { NETWORKING_GROUP } from '../v1/group.js';
import { NETWORKING_V1ALPHA1 } from './ip-address.js';
import { formatAddr, maskedAddr, parsePrefix } from './netip.js';

const CIDRS = FieldPath.of('spec', 'cidrs');

/** Most CIDRs of one ServiceCIDR: one per IP family. */
export const MAX_SERVICE_CIDRS = 2;

/** One CIDR (upstream `validateCIDR`): Go's ParsePrefix error, or host bits set, or not canonical. */
function validateOneCIDR(cidr: string, path: FieldPath): FieldError[] {
  try {
    const prefix = parsePrefix(cidr);
    const errs: FieldError[] = [];
    if (formatAddr(maskedAddr(prefix)) !== formatAddr(prefix.addr)) errs.push(invalid(path, cidr, "wrong CIDR format, IP doesn't match network IP address"));
    if (`${formatAddr(prefix.addr)}/${prefix.bits}` !== cidr) errs.push(invalid(path, cidr, 'CIDR not in RFC 5952 canonical format'));
    return errs;
  } catch (err) {
    return [invalid(path, cidr, (err as Error).message)];
  }
}

/** Go's `%#v` of the `*networking.ServiceCIDRSpec`, as upstream prints a bad spec. */
function goSpec(cidrs: string[]): GoSyntax {
  const list = cidrs.length === 0 ? 'CIDRs:[]string(nil)' : `CIDRs:[]string{${cidrs.map((c) => JSON.stringify(c)).join(', ')}}`;
  return new GoSyntax(`&networking.ServiceCIDRSpec{${list}}`);
}

const cidrsOf = (o: Obj): string[] => list(obj(o.spec)?.cidrs).map(str);

/** `spec.cidrs` on create and update (upstream `validateServiceCIDRSpec`). */
export function validateServiceCIDR(sc: Obj): FieldError[] {
  const cidrs = cidrsOf(sc);
  if (cidrs.length === 0) return [required(CIDRS, 'at least one CIDR required')];
  if (cidrs.length > MAX_SERVICE_CIDRS) return [invalid(CIDRS, goSpec(cidrs), 'may only hold up to 2 values')];
  if (cidrs.length === 2 && !isDualStackCIDRs(cidrs)) {
    return [invalid(CIDRS, goSpec(cidrs), 'may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64')];
  }
  return cidrs.flatMap((c, i) => validateOneCIDR(c, CIDRS.index(i)));
}

/** Update: `spec.cidrs` is immutable. */
export function validateServiceCIDRUpdate(sc: Obj, old: Obj): FieldError[] {
  const now = cidrsOf(sc);
  const before = cidrsOf(old);
  const same = now.length === before.length && now.every((c, i) => c === before[i]);
  return same ? [] : [invalid(CIDRS, goStringSlice(now), 'field is immutable')];
}

/** The ServiceCIDR kind. */
export const serviceCIDR = defineKind({
  group: NETWORKING_GROUP,
  version: 'v1alpha1',
  kind: 'ServiceCIDR',
  resource: 'servicecidrs',
  singular: 'servicecidr',
  namespaced: false,
  statusSubresource: true,
  description: 'A range of IP addresses Service cluster IPs are allocated from.',
  printerColumns: serviceCIDRPrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(
      2,
      struct(`${NETWORKING_V1ALPHA1}.ServiceCIDRSpec`, {
        cidrs: field(1, listOf(string, { listType: 'atomic' }), { description: 'One range, or two of different IP families; immutable.' }),
      }),
      { omitEmpty: false, default: {} },
    ),
    status: field(
      3,
      struct(`${NETWORKING_V1ALPHA1}.ServiceCIDRStatus`, {
        conditions: field(1, listOf(condition, { listType: 'map', listMapKeys: ['type'], patchStrategy: 'merge', patchMergeKey: 'type' }), {
          description: 'The observed state of the range.',
        }),
      }),
      { omitEmpty: false, default: {} },
    ),
  },
  validate: validateServiceCIDR,
  validateUpdate: validateServiceCIDRUpdate,
  validateStatusUpdate: () => [],
});
