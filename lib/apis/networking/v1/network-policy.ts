/**
 * networking/v1 NetworkPolicy: which traffic may reach (ingress) and leave (egress) the pods a
 * selector picks. Upstream v1.30 field structure and protobuf numbers (no status: field 3 is
 * reserved). Defaults as `SetDefaults_NetworkPolicy` / `SetDefaults_NetworkPolicyPort`: a port's
 * protocol is TCP; policyTypes, when empty, is `Ingress`, plus `Egress` when egress rules are
 * present. Short name `netpol`. Validation in network-policy-validation.ts.
 */
import { enumOf, field, int32, intOrString, listOf, string, struct } from '../../../apimachinery/schema/builder.js';
import { defineKind, type Obj } from '../../define.js';
import { labelSelector, objectMeta } from '../../meta/v1/types.js';
import { networkPolicyPrinter } from '../../printers/networking.js';
import { NETWORKING_GROUP, NETWORKING_V1 } from './group.js';
import { validateNetworkPolicy, validateNetworkPolicyUpdate } from './network-policy-validation.js';

/** A port (or port range) on a protocol. */
export const networkPolicyPort = struct(`${NETWORKING_V1}.NetworkPolicyPort`, {
  protocol: field(1, enumOf('TCP', 'UDP', 'SCTP'), { default: 'TCP', description: 'TCP (default), UDP or SCTP.' }),
  port: field(2, intOrString, { description: 'A port number or a named port of the pods; every port when unset.' }),
  endPort: field(3, int32, { description: 'With a numeric port, the last port of the range port..endPort.' }),
});

/** A CIDR and the ranges inside it that are excluded. */
export const ipBlock = struct(`${NETWORKING_V1}.IPBlock`, {
  cidr: field(1, string, { omitEmpty: false, description: 'The CIDR (`192.168.1.0/24`, `2001:db8::/64`).' }),
  except: field(2, listOf(string, { listType: 'atomic' }), { description: 'CIDRs inside cidr that are not included.' }),
});

/** A peer: pods by label (in namespaces by label), or an IP block. */
export const networkPolicyPeer = struct(`${NETWORKING_V1}.NetworkPolicyPeer`, {
  podSelector: field(1, labelSelector, { description: 'Pods, in the policy namespace or in those namespaceSelector picks.' }),
  namespaceSelector: field(2, labelSelector, { description: 'Namespaces whose pods (all, or those podSelector picks) are peers.' }),
  ipBlock: field(3, ipBlock, { description: 'An IP range; exclusive with the selectors.' }),
});

/** Traffic allowed to the selected pods. */
export const networkPolicyIngressRule = struct(`${NETWORKING_V1}.NetworkPolicyIngressRule`, {
  ports: field(1, listOf(networkPolicyPort, { listType: 'atomic' }), { description: 'Ports allowed; every port when empty.' }),
  from: field(2, listOf(networkPolicyPeer, { listType: 'atomic' }), { description: 'Sources allowed; every source when empty.' }),
});

/** Traffic allowed from the selected pods. */
export const networkPolicyEgressRule = struct(`${NETWORKING_V1}.NetworkPolicyEgressRule`, {
  ports: field(1, listOf(networkPolicyPort, { listType: 'atomic' }), { description: 'Destination ports allowed; every port when empty.' }),
  to: field(2, listOf(networkPolicyPeer, { listType: 'atomic' }), { description: 'Destinations allowed; every destination when empty.' }),
});

/** `SetDefaults_NetworkPolicy`: policies affect ingress, and egress too when they have egress rules. */
function defaultPolicyTypes(spec: Obj): void {
  if (Array.isArray(spec.policyTypes) && spec.policyTypes.length > 0) return;
  spec.policyTypes = Array.isArray(spec.egress) && spec.egress.length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
}

/** The pods a policy selects and the traffic it allows them. */
export const networkPolicySpec = struct(
  `${NETWORKING_V1}.NetworkPolicySpec`,
  {
    podSelector: field(1, labelSelector, { omitEmpty: false, description: 'The pods the policy applies to; every pod of the namespace when empty.' }),
    ingress: field(2, listOf(networkPolicyIngressRule, { listType: 'atomic' }), { description: 'Allowed incoming traffic.' }),
    egress: field(3, listOf(networkPolicyEgressRule, { listType: 'atomic' }), { description: 'Allowed outgoing traffic.' }),
    policyTypes: field(4, listOf(string, { listType: 'atomic' }), { description: 'Ingress, Egress or both; defaulted from the rules present.' }),
  },
  { defaulter: defaultPolicyTypes, description: 'The desired behaviour of a NetworkPolicy.' },
);

/** The NetworkPolicy kind: namespaced, short name `netpol`. */
export const networkPolicy = defineKind({
  group: NETWORKING_GROUP,
  version: 'v1',
  kind: 'NetworkPolicy',
  resource: 'networkpolicies',
  singular: 'networkpolicy',
  namespaced: true,
  shortNames: ['netpol'],
  description: 'The network traffic allowed to and from a set of pods.',
  printerColumns: networkPolicyPrinter,
  fields: {
    metadata: field(1, objectMeta, { omitEmpty: false }),
    spec: field(2, networkPolicySpec, { omitEmpty: false, default: {} }),
  },
  validate: validateNetworkPolicy,
  validateUpdate: validateNetworkPolicyUpdate,
});
