import { expect } from 'chai';
import type { Obj } from '../../../../../lib/apis/define.js';
import { NETWORKING_GROUP, networkPolicy } from '../../../../../lib/apis/networking/v1/index.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, validateUpdate, variant } from '../../kind-pipeline.js';

const minimal = (): Obj => ({
  apiVersion: networkPolicy.apiVersion,
  kind: 'NetworkPolicy',
  metadata: { name: 'deny-all', namespace: 'default' },
  spec: { podSelector: {} },
});
const spec = (o: Obj): Obj => o.spec as Obj;
const defaulted = (mutate: (o: Obj) => void = () => {}): Obj => {
  const o = variant(minimal(), mutate);
  decodeAndDefault(networkPolicy, o);
  return o;
};
const errorsOf = (mutate: (o: Obj) => void): string[] => messages(validateCreate(networkPolicy, defaulted(mutate)));
const ingressFrom = (peer: Obj): ((o: Obj) => void) => (o) => (spec(o).ingress = [{ from: [peer] }]);
const ingressPort = (port: Obj): ((o: Obj) => void) => (o) => (spec(o).ingress = [{ ports: [port] }]);

describe('networking/v1 NetworkPolicy: definition', () => {
  it('declares the upstream discovery facts: namespaced, short name netpol, no status', () => {
    expect(networkPolicy).to.include({ group: NETWORKING_GROUP, version: 'v1', kind: 'NetworkPolicy', resource: 'networkpolicies', singular: 'networkpolicy', namespaced: true, statusSubresource: false });
    expect(networkPolicy.shortNames).to.deep.equal(['netpol']);
    expect(networkPolicy.fieldSelectors).to.deep.equal({});
  });

  it('defaults policyTypes to Ingress without egress rules, and validates clean', () => {
    const o = defaulted();
    expect(spec(o)).to.deep.equal({ podSelector: {}, policyTypes: ['Ingress'] });
    expect(validateCreate(networkPolicy, o)).to.deep.equal([]);
    expect(spec(defaulted((x) => delete x.spec)).policyTypes).to.deep.equal(['Ingress']);
  });

  it('defaults policyTypes to Ingress and Egress with egress rules; keeps given ones', () => {
    expect(spec(defaulted((o) => (spec(o).egress = [{}]))).policyTypes).to.deep.equal(['Ingress', 'Egress']);
    expect(spec(defaulted((o) => Object.assign(spec(o), { egress: [{}], policyTypes: ['Egress'] }))).policyTypes).to.deep.equal(['Egress']);
  });

  it('defaults a port protocol to TCP', () => {
    expect(spec(defaulted(ingressPort({ port: 80 }))).ingress).to.deep.equal([{ ports: [{ protocol: 'TCP', port: 80 }] }]);
  });

  it('decodes the complete fixture with no unknown field and sets every field', () => {
    const complete = (): Obj => ({ apiVersion: networkPolicy.apiVersion, ...fixture('network-policy') });
    expect(decodeAndDefault(networkPolicy, complete())).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(networkPolicy.schema, complete())).to.deep.equal([]);
    expect(validateCreate(networkPolicy, complete())).to.deep.equal([]);
  });
});

describe('networking/v1 NetworkPolicy: validation (upstream ValidateNetworkPolicy; 422 causes)', () => {
  const P = 'spec.ingress[0]';
  const cases: [string, (o: Obj) => void, string[]][] = [
    ['a protocol is TCP, UDP or SCTP', ingressPort({ protocol: 'ICMP' }), [`${P}.ports[0].protocol: Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP"`]],
    ['a port number is in range', ingressPort({ port: 0 }), [`${P}.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive`]],
    ['a port range ends at or after its start', ingressPort({ port: 80, endPort: 70 }), [`${P}.ports[0].endPort: Invalid value: 80: must be greater than or equal to \`port\``]],
    ['a range needs a numeric port', ingressPort({ port: 'http', endPort: 90 }), [`${P}.ports[0].endPort: Invalid value: 90: may not be specified when \`port\` is non-numeric`]],
    ['a range needs a port', ingressPort({ endPort: 90 }), [`${P}.ports[0].endPort: Invalid value: 90: may not be specified when \`port\` is not specified`]],
    ['a named port is an IANA service name', ingressPort({ port: 'http--x' }), [`${P}.ports[0].port: Invalid value: "http--x": must not contain consecutive hyphens`]],
    ['a peer is required', ingressFrom({}), [`${P}.from[0]: Required value: must specify a peer`]],
    ['an IP block stands alone', ingressFrom({ podSelector: {}, ipBlock: { cidr: '10.0.0.0/8' } }), [`${P}.from[0]: Forbidden: may not specify both ipBlock and another peer`]],
    ['an IP block has a CIDR', ingressFrom({ ipBlock: {} }), [`${P}.from[0].ipBlock.cidr: Required value`]],
    ['an IP block CIDR is valid', ingressFrom({ ipBlock: { cidr: '10.0.0.0/33' } }), [`${P}.from[0].ipBlock.cidr: Invalid value: "10.0.0.0/33": not a valid CIDR`]],
    ['exceptions are strictly inside the CIDR', ingressFrom({ ipBlock: { cidr: '10.0.0.0/16', except: ['10.1.0.0/24', '10.0.0.0/16', '10.0.1.0/24'] } }), [
      `${P}.from[0].ipBlock.except[0]: Invalid value: "10.1.0.0/24": must be a strict subset of \`cidr\``,
      `${P}.from[0].ipBlock.except[1]: Invalid value: "10.0.0.0/16": must be a strict subset of \`cidr\``,
    ]],
    ['an invalid exception ends the check', ingressFrom({ ipBlock: { cidr: '10.0.0.0/16', except: ['x', '11.0.0.0/24'] } }), [`${P}.from[0].ipBlock.except[0]: Invalid value: "x": not a valid CIDR`]],
    ['selectors are valid', ingressFrom({ podSelector: { matchExpressions: [{ key: 'a', operator: 'In' }] } }), [
      `${P}.from[0].podSelector.matchExpressions[0].values: Required value: must be specified when \`operator\` is 'In' or 'NotIn'`,
    ]],
    ['egress peers are checked too', (o) => (spec(o).egress = [{ to: [{}] }]), ['spec.egress[0].to[0]: Required value: must specify a peer']],
    ['policy types are known', (o) => (spec(o).policyTypes = ['Ingress', 'Outbound']), ['spec.policyTypes[1]: Unsupported value: "Outbound": supported values: "Ingress", "Egress"']],
    ['at most two policy types', (o) => (spec(o).policyTypes = ['Ingress', 'Egress', 'Bogus']), [
      'spec.policyTypes: Invalid value: []networking.PolicyType{"Ingress", "Egress", "Bogus"}: may not specify more than two policyTypes',
    ]],
  ];
  for (const [name, mutate, expected] of cases) it(name, () => expect(errorsOf(mutate)).to.deep.equal(expected));

  it('an update reports each spec problem twice, as upstream does', () => {
    const old = defaulted();
    expect(messages(validateUpdate(networkPolicy, defaulted(ingressFrom({})), old))).to.deep.equal([
      `${P}.from[0]: Required value: must specify a peer`,
      `${P}.from[0]: Required value: must specify a peer`,
    ]);
  });
});
