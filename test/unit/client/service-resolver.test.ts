import { expect } from 'chai';
import { ResolveError, type ServiceLookup, endpointURL, resolveCluster, resolveEndpoint } from '../../../lib/client/service-resolver.js';

type Obj = Record<string, unknown>;

function lookup(services: Record<string, Obj>, endpoints: Record<string, Obj> = {}): ServiceLookup {
  return { service: (ns, name) => services[`${ns}/${name}`], endpoints: (ns, name) => endpoints[`${ns}/${name}`] };
}

const svc = (spec: Obj): Obj => ({ metadata: { name: 'api', namespace: 'ns' }, spec });
const HTTPS = { ports: [{ name: 'https', port: 443 }], clusterIP: '10.0.0.7' };

describe('client/service-resolver (spec 000 § Other paths; issue #20)', () => {
  describe('resolveEndpoint (--enable-aggregator-routing=true)', () => {
    it('picks a ready address on the endpoint port named like the service port', () => {
      const l = lookup({ 'ns/api': svc(HTTPS) }, { 'ns/api': { subsets: [{ addresses: [], ports: [{ name: 'https', port: 1 }] }, { addresses: [{ ip: '192.0.2.9' }], ports: [{ name: 'other', port: 2 }, { name: 'https', port: 8443 }] }] } });
      expect(resolveEndpoint(l, 'ns', 'api', 443)).to.deep.equal({ host: '192.0.2.9', port: 8443 });
    });

    const failures: Array<[string, ServiceLookup, string]> = [
      ['no service', lookup({}), 'service "api" not found'],
      ['an ExternalName service', lookup({ 'ns/api': svc({ type: 'ExternalName', externalName: 'x.example' }) }), 'unsupported service type "ExternalName"'],
      ['no service port with that number', lookup({ 'ns/api': svc({ ports: [{ name: 'https', port: 444 }] }) }), 'no service port 443 found for service "api"'],
      ['no endpoints', lookup({ 'ns/api': svc(HTTPS) }), 'endpoints "api" not found'],
      ['no address on the port name', lookup({ 'ns/api': svc(HTTPS) }, { 'ns/api': { subsets: [{ addresses: [{ ip: '192.0.2.9' }], ports: [{ name: 'http', port: 80 }] }] } }), 'no endpoints available for service "api"'],
    ];
    for (const [what, l, message] of failures) {
      it(`${what}: ${message}`, () => {
        expect(() => resolveEndpoint(l, 'ns', 'api', 443)).to.throw(ResolveError, message);
      });
    }
  });

  describe('resolveCluster (--enable-aggregator-routing=false)', () => {
    it('is the ClusterIP and the service port', () => {
      expect(resolveCluster(lookup({ 'ns/api': svc(HTTPS) }), 'ns', 'api', 443)).to.deep.equal({ host: '10.0.0.7', port: 443 });
    });
    it('is the external name and the APIService port for an ExternalName service', () => {
      expect(resolveCluster(lookup({ 'ns/api': svc({ type: 'ExternalName', externalName: 'x.example' }) }), 'ns', 'api', 8443)).to.deep.equal({ host: 'x.example', port: 8443 });
    });
    it('refuses a headless service', () => {
      expect(() => resolveCluster(lookup({ 'ns/api': svc({ ...HTTPS, clusterIP: 'None' }) }), 'ns', 'api', 443)).to.throw(ResolveError, 'cannot route to service with ClusterIP "None"');
    });
  });

  it('endpointURL brackets an IPv6 host', () => {
    expect(endpointURL({ host: 'fd00::2', port: 443 }, '/apis')).to.equal('https://[fd00::2]:443/apis');
    expect(endpointURL({ host: '192.0.2.1', port: 8443 }, '/apis/g/v')).to.equal('https://192.0.2.1:8443/apis/g/v');
  });
});
