import { expect } from 'chai';
import { endpoints } from '../../../../../lib/apis/core/v1/endpoints.js';
import type { Obj } from '../../../../../lib/apis/define.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, variant } from '../../kind-pipeline.js';

const minimal = (): Obj => ({
  apiVersion: 'v1',
  kind: 'Endpoints',
  metadata: { name: 'web', namespace: 'default' },
  subsets: [{ addresses: [{ ip: '10.244.0.5' }], ports: [{ port: 8080 }] }],
});
const subset = (o: Obj): Obj => (o.subsets as Obj[])[0]!;

describe('core/v1 Endpoints (issue #2 item 5)', () => {
  it('declares the upstream discovery facts', () => {
    expect(endpoints).to.include({ group: '', version: 'v1', resource: 'endpoints', singular: 'endpoints', namespaced: true, statusSubresource: false });
    expect(endpoints.shortNames).to.deep.equal(['ep']);
  });

  it('decodes minimal endpoints, defaults port protocol TCP and validates clean', () => {
    const ep = minimal();
    expect(decodeAndDefault(endpoints, ep)).to.deep.equal({ unknownFields: [] });
    expect(ep.subsets).to.deep.equal([{ addresses: [{ ip: '10.244.0.5' }], ports: [{ port: 8080, protocol: 'TCP' }] }]);
    expect(validateCreate(endpoints, ep)).to.deep.equal([]);
  });

  it('decodes the complete fixture with every field and no unknown field', () => {
    expect(decodeAndDefault(endpoints, fixture('endpoints'))).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(endpoints.schema, fixture('endpoints'))).to.deep.equal([]);
  });

  const cases: Array<[string, (o: Obj) => void, string[]]> = [
    ['a subset needs addresses or notReadyAddresses', (o) => delete subset(o).addresses, ['subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`']],
    ['addresses are IP addresses', (o) => (subset(o).addresses = [{ ip: 'web-0' }]), [
      'subsets[0].addresses[0].ip: Invalid value: "web-0": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      'subsets[0].addresses[0].ip: Invalid value: "web-0": must be a valid IP address',
    ]],
    ['address ip is required', (o) => (subset(o).addresses = [{ hostname: 'web-0' }]), ['subsets[0].addresses[0].ip: Required value']],
    ['addresses may not be loopback or link-local', (o) => (subset(o).notReadyAddresses = [{ ip: '::1' }, { ip: '169.254.1.1' }]), [
      'subsets[0].notReadyAddresses[0].ip: Invalid value: "::1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      'subsets[0].notReadyAddresses[1].ip: Invalid value: "169.254.1.1": may not be in the link-local range (169.254.0.0/16, fe80::/10)',
    ]],
    ['hostnames are DNS labels', (o) => (subset(o).addresses = [{ ip: '10.0.0.1', hostname: 'web.0' }]), [
      "subsets[0].addresses[0].hostname: Invalid value: \"web.0\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ]],
    ['port numbers are 1–65535', (o) => (subset(o).ports = [{ port: 0 }]), ['subsets[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive']],
    ['ports are named when there are several', (o) => (subset(o).ports = [{ port: 80 }, { name: 'b', port: 81 }]), ['subsets[0].ports[0].name: Required value']],
    ['protocol is TCP, UDP or SCTP', (o) => (subset(o).ports = [{ port: 80, protocol: 'tcp' }]), ['subsets[0].ports[0].protocol: Unsupported value: "tcp": supported values: "SCTP", "TCP", "UDP"']],
  ];
  for (const [name, mutate, expected] of cases) {
    it(`validation: ${name}`, () => {
      const ep = variant(minimal(), mutate);
      decodeAndDefault(endpoints, ep);
      expect(messages(validateCreate(endpoints, ep))).to.deep.equal(expected);
    });
  }
});
