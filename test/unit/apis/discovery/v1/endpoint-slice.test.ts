import { expect } from 'chai';
import type { Obj } from '../../../../../lib/apis/define.js';
import { DISCOVERY_GROUP, discoveryV1Kinds, endpointSlice } from '../../../../../lib/apis/discovery/v1/index.js';
import { vendorGroup } from '../../../../../lib/apis/vendor.js';
import { endpointSliceStrategy } from '../../../../../lib/registry/discovery/endpointslice/strategy.js';
import type { RequestContext } from '../../../../../lib/request/context.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, validateUpdate, variant } from '../../kind-pipeline.js';

const ctx = {} as RequestContext;
const minimal = (): Obj => ({
  apiVersion: endpointSlice.apiVersion,
  kind: 'EndpointSlice',
  metadata: { name: 'web-abc12', namespace: 'default' },
  addressType: 'IPv4',
  endpoints: [{ addresses: ['10.244.0.5'] }],
  ports: [{ port: 8080 }],
});
const defaulted = (mutate: (o: Obj) => void = () => {}): Obj => {
  const o = variant(minimal(), mutate);
  decodeAndDefault(endpointSlice, o);
  return o;
};
const errorsOf = (mutate: (o: Obj) => void): string[] => messages(validateCreate(endpointSlice, defaulted(mutate)));
const ep0 = (o: Obj): Obj => (o.endpoints as Obj[])[0]!;
const port0 = (o: Obj): Obj => (o.ports as Obj[])[0]!;
const SUBDOMAIN_RE = "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'";
const LABEL_RE = "'[a-z0-9]([-a-z0-9]*[a-z0-9])?'";

describe('discovery/v1 EndpointSlice: definition', () => {
  it('declares the upstream discovery facts: namespaced, no short name', () => {
    expect(DISCOVERY_GROUP).to.equal(vendorGroup('discovery'));
    expect(endpointSlice).to.include({ group: DISCOVERY_GROUP, version: 'v1', kind: 'EndpointSlice', resource: 'endpointslices', singular: 'endpointslice', namespaced: true, statusSubresource: false });
    expect(endpointSlice.shortNames).to.deep.equal([]);
    expect(endpointSlice.fieldSelectors).to.deep.equal({});
    expect(discoveryV1Kinds).to.deep.equal([endpointSlice]);
  });

  it('defaults a port name to "" and its protocol to TCP, and validates clean', () => {
    const o = defaulted();
    expect(o.ports).to.deep.equal([{ name: '', protocol: 'TCP', port: 8080 }]);
    expect(o.endpoints).to.deep.equal([{ addresses: ['10.244.0.5'] }]);
    expect(validateCreate(endpointSlice, o)).to.deep.equal([]);
  });

  it('decodes the complete fixture with no unknown field and sets every field', () => {
    const complete = (): Obj => ({ apiVersion: endpointSlice.apiVersion, ...fixture('endpoint-slice') });
    expect(decodeAndDefault(endpointSlice, complete())).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(endpointSlice.schema, complete())).to.deep.equal([]);
    expect(validateCreate(endpointSlice, complete())).to.deep.equal([]);
  });
});

describe('discovery/v1 EndpointSlice: validation (upstream ValidateEndpointSlice; 422 causes)', () => {
  const cases: [string, (o: Obj) => void, string[]][] = [
    ['addressType is required', (o) => delete o.addressType, ['addressType: Required value']],
    ['addressType is IPv4, IPv6 or FQDN', (o) => (o.addressType = 'IP'), ['addressType: Unsupported value: "IP": supported values: "FQDN", "IPv4", "IPv6"']],
    ['at most 1000 endpoints', (o) => (o.endpoints = Array.from({ length: 1001 }, () => ({ addresses: ['10.0.0.1'] }))), ['endpoints: Too many: 1001: must have at most 1000 items']],
    ['an endpoint has an address', (o) => (ep0(o).addresses = []), ['endpoints[0].addresses: Required value: must contain at least 1 address']],
    ['at most 100 addresses', (o) => (ep0(o).addresses = Array.from({ length: 101 }, (_, i) => `10.0.${i >> 8}.${(i % 250) + 1}`)), ['endpoints[0].addresses: Too many: 101: must have at most 100 items']],
    ['IPv4 addresses are IPv4', (o) => (ep0(o).addresses = ['2001:db8::1']), ['endpoints[0].addresses[0]: Invalid value: "2001:db8::1": must be a valid IPv4 address']],
    ['IPv4 addresses are not special', (o) => (ep0(o).addresses = ['127.0.0.1']), ['endpoints[0].addresses[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)']],
    ['an unparsable address', (o) => (ep0(o).addresses = ['web']), [
      'endpoints[0].addresses[0]: Invalid value: "web": must be a valid IPv4 address',
      'endpoints[0].addresses[0]: Invalid value: "web": must be a valid IP address',
    ]],
    ['IPv6 addresses are IPv6', (o) => Object.assign(o, { addressType: 'IPv6', endpoints: [{ addresses: ['10.0.0.1'] }] }), ['endpoints[0].addresses[0]: Invalid value: "10.0.0.1": must be a valid IPv6 address']],
    ['FQDN addresses have two labels', (o) => Object.assign(o, { addressType: 'FQDN', endpoints: [{ addresses: ['web'] }] }), ['endpoints[0].addresses[0]: Invalid value: "web": should be a domain with at least two segments separated by dots']],
    ['FQDN addresses may end with a dot', (o) => Object.assign(o, { addressType: 'FQDN', endpoints: [{ addresses: ['web.example.com.'] }] }), []],
    ['FQDN addresses are subdomains', (o) => Object.assign(o, { addressType: 'FQDN', endpoints: [{ addresses: ['Web.example.com'] }] }), [
      `endpoints[0].addresses[0]: Invalid value: "Web.example.com": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is ${SUBDOMAIN_RE})`,
    ]],
    ['a node name is a subdomain', (o) => (ep0(o).nodeName = 'Node_1'), [
      `endpoints[0].nodeName: Invalid value: "Node_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is ${SUBDOMAIN_RE})`,
    ]],
    ['a hostname is a DNS label', (o) => (ep0(o).hostname = 'web.0'), [
      `endpoints[0].hostname: Invalid value: "web.0": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is ${LABEL_RE})`,
    ]],
    ['zone hints are unique', (o) => (ep0(o).hints = { forZones: [{ name: 'a' }, { name: 'a' }] }), ['endpoints[0].hints.forZones[1].name: Duplicate value: "a"']],
    ['at most 8 zone hints', (o) => (ep0(o).hints = { forZones: Array.from({ length: 9 }, (_, i) => ({ name: `z${i}` })) }), ['endpoints[0].hints.forZones: Too many: 9: must have at most 8 items']],
    ['port names are unique', (o) => (o.ports = [{ name: 'http', port: 80 }, { name: 'http', port: 81 }]), ['ports[1].name: Duplicate value: "http"']],
    ['port names are DNS labels', (o) => (port0(o).name = 'HTTP'), [
      `ports[0].name: Invalid value: "HTTP": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is ${LABEL_RE})`,
    ]],
    ['a protocol is TCP, UDP or SCTP', (o) => (port0(o).protocol = 'ICMP'), ['ports[0].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"']],
    ['an app protocol is a qualified name', (o) => (port0(o).appProtocol = 'a/b/c'), [
      "ports[0].appProtocol: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ]],
  ];
  for (const [name, mutate, expected] of cases) it(name, () => expect(errorsOf(mutate)).to.deep.equal(expected));
});

describe('discovery/v1 EndpointSlice: update rules (upstream ValidateEndpointSliceUpdate, endpointslice strategy)', () => {
  it('addressType is immutable', () => {
    const old = defaulted();
    const next = defaulted((o) => Object.assign(o, { addressType: 'FQDN', endpoints: [{ addresses: ['web.example.com'] }] }));
    expect(messages(validateUpdate(endpointSlice, next, old))).to.deep.equal(['addressType: Invalid value: "FQDN": field is immutable']);
  });

  it('create starts the generation at 1 and drops the v1beta1 topology', () => {
    const o = defaulted((x) => (ep0(x).deprecatedTopology = { 'example.com/rack': 'r1' }));
    endpointSliceStrategy.prepareForCreate(ctx, o);
    expect((o.metadata as Obj).generation).to.equal(1);
    expect(ep0(o)).to.deep.equal({ addresses: ['10.244.0.5'] });
  });

  it('an update bumps the generation for any change but metadata, and for label changes', () => {
    const old = defaulted((x) => ((x.metadata as Obj).generation = 3));
    const same = variant(old, (x) => ((x.metadata as Obj).annotations = { a: 'b' }));
    endpointSliceStrategy.prepareForUpdate(ctx, same, old);
    expect((same.metadata as Obj).generation).to.equal(3);
    const relabelled = variant(old, (x) => ((x.metadata as Obj).labels = { a: 'b' }));
    endpointSliceStrategy.prepareForUpdate(ctx, relabelled, old);
    expect((relabelled.metadata as Obj).generation).to.equal(4);
    const changed = variant(old, (x) => (port0(x).port = 9090));
    endpointSliceStrategy.prepareForUpdate(ctx, changed, old);
    expect((changed.metadata as Obj).generation).to.equal(4);
  });

  it('an update that changes the endpoints drops the topology written with them', () => {
    const old = defaulted();
    const next = variant(old, (x) => (ep0(x).deprecatedTopology = { 'example.com/rack': 'r1' }));
    endpointSliceStrategy.prepareForUpdate(ctx, next, old);
    expect(ep0(next).deprecatedTopology).to.equal(undefined);
  });
});
