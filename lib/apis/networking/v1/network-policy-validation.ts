/**
 * NetworkPolicy validation with the upstream v1.30 paths and messages (networking validation
 * `ValidateNetworkPolicySpec`, `ValidateNetworkPolicyPort`, `ValidateNetworkPolicyPeer`,
 * `ValidateIPBlock`): selectors, ports and port ranges, peers (exactly one kind when an IP block
 * is used), IP blocks whose exceptions lie strictly inside their CIDR, and at most two known
 * policy types. Upstream's update validation checks the spec twice (once as on create, once for
 * the update), so every spec problem of an update is reported twice; so is it here. ObjectMeta
 * is checked by the caller; an unknown non-empty protocol is reported by the schema.
 */
import { type FieldError, FieldPath, forbidden, GoSyntax, invalid, notSupported, required } from '../../../apimachinery/field-errors.js';
import type { LabelSelectorObject } from '../../../apimachinery/labels/selector.js';
import { validateLabelSelectorObject } from '../../../apimachinery/labels/validation.js';
import { type ParsedCIDR, isIPv4Bytes, parseCIDR } from '../../../apimachinery/validation/ip.js';
import { isValidPortName, isValidPortNum } from '../../../apimachinery/validation/ports.js';
import { num, obj, objs, str, type Obj } from '../../core/v1/obj-access.js';

const POLICY_TYPES = ['Ingress', 'Egress'];
const spec = FieldPath.of('spec');

/** A port: a valid number (and a range end not below it) or a valid name (without a range). */
function validatePort(port: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (port.protocol === '') errs.push(notSupported(path.child('protocol'), '', ['TCP', 'UDP', 'SCTP']));
  const endPort = num(port.endPort);
  if (typeof port.port === 'number') {
    const p = port.port;
    errs.push(...isValidPortNum(p).map((m) => invalid(path.child('port'), p, m)));
    if (endPort !== undefined) {
      if (endPort < p) errs.push(invalid(path.child('endPort'), p, 'must be greater than or equal to `port`'));
      errs.push(...isValidPortNum(endPort).map((m) => invalid(path.child('endPort'), endPort, m)));
    }
  } else if (typeof port.port === 'string') {
    const name = port.port;
    if (endPort !== undefined) errs.push(invalid(path.child('endPort'), endPort, 'may not be specified when `port` is non-numeric'));
    errs.push(...isValidPortName(name).map((m) => invalid(path.child('port'), name, m)));
  } else if (endPort !== undefined) {
    errs.push(invalid(path.child('endPort'), endPort, 'may not be specified when `port` is not specified'));
  }
  return errs;
}

/** The first `bits` bits of two 16-byte addresses are equal. */
function samePrefix(a: Uint8Array, b: Uint8Array, bits: number): boolean {
  for (let i = 0; i < 16 && bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((a[i]! & mask) !== (b[i]! & mask)) return false;
  }
  return true;
}

/** Go `IPNet.Contains` of the network of `outer` for the address of `inner`, in one family. */
function contains(outer: ParsedCIDR, inner: ParsedCIDR): boolean {
  const v4 = isIPv4Bytes(outer.ip);
  if (v4 !== isIPv4Bytes(inner.ip)) return false;
  return samePrefix(outer.ip, inner.ip, (v4 ? 96 : 0) + outer.prefix);
}

/** An IP block: a CIDR, and exceptions that are CIDRs strictly inside it (the first bad one ends the check). */
function validateIPBlock(block: Obj, path: FieldPath): FieldError[] {
  const cidr = str(block.cidr);
  if (cidr === '') return [required(path.child('cidr'))];
  const outer = parseCIDR(cidr);
  if (!outer) return [invalid(path.child('cidr'), cidr, 'not a valid CIDR')];
  const errs: FieldError[] = [];
  const except = Array.isArray(block.except) ? block.except : [];
  for (let i = 0; i < except.length; i++) {
    const text = str(except[i]);
    const inner = parseCIDR(text);
    if (!inner) return [...errs, invalid(path.child('except').index(i), text, 'not a valid CIDR')];
    if (!contains(outer, inner) || outer.prefix >= inner.prefix) errs.push(invalid(path.child('except').index(i), text, 'must be a strict subset of `cidr`'));
  }
  return errs;
}

/** A peer: at least one of the selectors or an IP block, and an IP block alone. */
function validatePeer(peer: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let peers = 0;
  for (const key of ['podSelector', 'namespaceSelector']) {
    const sel = obj(peer[key]);
    if (!sel) continue;
    peers++;
    errs.push(...validateLabelSelectorObject(sel as LabelSelectorObject, path.child(key)));
  }
  const block = obj(peer.ipBlock);
  if (block) {
    peers++;
    errs.push(...validateIPBlock(block, path.child('ipBlock')));
  }
  if (peers === 0) errs.push(required(path, 'must specify a peer'));
  else if (peers > 1 && block) errs.push(forbidden(path, 'may not specify both ipBlock and another peer'));
  return errs;
}

/** The rules of one direction: their ports and peers (`from` or `to`). */
function validateRules(rules: unknown, path: FieldPath, peersKey: 'from' | 'to'): FieldError[] {
  const errs: FieldError[] = [];
  objs(rules).forEach((rule, i) => {
    objs(rule.ports).forEach((p, j) => errs.push(...validatePort(p, path.index(i).child('ports').index(j))));
    objs(rule[peersKey]).forEach((p, j) => errs.push(...validatePeer(p, path.index(i).child(peersKey).index(j))));
  });
  return errs;
}

/** The spec of a NetworkPolicy (upstream `ValidateNetworkPolicySpec`). */
function validateSpec(s: Obj): FieldError[] {
  const errs = validateLabelSelectorObject(obj(s.podSelector) as LabelSelectorObject | undefined, spec.child('podSelector'));
  errs.push(...validateRules(s.ingress, spec.child('ingress'), 'from'));
  errs.push(...validateRules(s.egress, spec.child('egress'), 'to'));
  const types = Array.isArray(s.policyTypes) ? s.policyTypes.map(str) : [];
  if (types.length > POLICY_TYPES.length) {
    const shown = new GoSyntax(`[]networking.PolicyType{${types.map((t) => JSON.stringify(t)).join(', ')}}`);
    return [...errs, invalid(spec.child('policyTypes'), shown, 'may not specify more than two policyTypes')];
  }
  types.forEach((t, i) => {
    if (!POLICY_TYPES.includes(t)) errs.push(notSupported(spec.child('policyTypes').index(i), t, POLICY_TYPES));
  });
  return errs;
}

/** Create (and, as upstream, again on update): the spec. */
export function validateNetworkPolicy(np: Obj): FieldError[] {
  return validateSpec(obj(np.spec) ?? {});
}

/** Update: the spec once more, as upstream's `ValidateNetworkPolicyUpdate` does after `ValidateNetworkPolicy`. */
export function validateNetworkPolicyUpdate(np: Obj): FieldError[] {
  return validateSpec(obj(np.spec) ?? {});
}
