import { expect } from 'chai';
import { normalizeClusterIPs } from '../../../../../lib/apis/core/v1/service-defaults.js';
import { SERVICE_ANNOTATIONS } from '../../../../../lib/apis/core/v1/service-validation.js';
import { service } from '../../../../../lib/apis/core/v1/service.js';
import type { Obj } from '../../../../../lib/apis/define.js';
import { decodeAndDefault, fixture, messages, unsetFields, validateCreate, validateStatus, validateUpdate, variant } from '../../kind-pipeline.js';

const minimal = (): Obj => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'web', namespace: 'default' },
  spec: { selector: { app: 'web' }, ports: [{ port: 80 }] },
});
const spec = (o: Obj): Obj => o.spec as Obj;
const ready = (o: Obj): Obj => {
  decodeAndDefault(service, o);
  normalizeClusterIPs(o);
  return o;
};

describe('core/v1 Service (issue #2 item 5)', () => {
  it('declares the upstream discovery facts', () => {
    expect(service).to.include({ group: '', version: 'v1', resource: 'services', singular: 'service', namespaced: true, nameRule: 'dns1035Label', statusSubresource: true });
    expect(service.shortNames).to.deep.equal(['svc']);
    expect(service.categories).to.deep.equal(['all']);
  });

  it('decodes a minimal service and applies exactly the upstream defaults', () => {
    const s = minimal();
    expect(decodeAndDefault(service, s)).to.deep.equal({ unknownFields: [] });
    expect(s.spec).to.deep.equal({
      selector: { app: 'web' },
      ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
      type: 'ClusterIP',
      sessionAffinity: 'None',
      internalTrafficPolicy: 'Cluster',
    });
    expect(validateCreate(service, s)).to.deep.equal([]);
  });

  it('decodes the complete fixture with every field and no unknown field', () => {
    expect(decodeAndDefault(service, fixture('service'))).to.deep.equal({ unknownFields: [] });
    expect(unsetFields(service.schema, fixture('service'))).to.deep.equal([]);
  });

  describe('conditional defaults', () => {
    it('NodePort: externalTrafficPolicy Cluster', () => {
      const s = ready(variant(minimal(), (o) => (spec(o).type = 'NodePort')));
      expect(spec(s)).to.include({ externalTrafficPolicy: 'Cluster', internalTrafficPolicy: 'Cluster' });
      expect(spec(s)).not.to.have.property('allocateLoadBalancerNodePorts');
    });
    it('LoadBalancer: externalTrafficPolicy Cluster, allocateLoadBalancerNodePorts true, ingress ipMode VIP', () => {
      const s = ready(variant(minimal(), (o) => {
        spec(o).type = 'LoadBalancer';
        o.status = { loadBalancer: { ingress: [{ ip: '192.0.2.1' }, { hostname: 'lb.example.com' }] } };
      }));
      expect(spec(s)).to.include({ externalTrafficPolicy: 'Cluster', allocateLoadBalancerNodePorts: true, internalTrafficPolicy: 'Cluster' });
      expect(s.status).to.deep.equal({ loadBalancer: { ingress: [{ ip: '192.0.2.1', ipMode: 'VIP' }, { hostname: 'lb.example.com' }] } });
    });
    it('ClusterIP with externalIPs is externally accessible', () => {
      expect(spec(ready(variant(minimal(), (o) => (spec(o).externalIPs = ['192.0.2.9']))))).to.include({ externalTrafficPolicy: 'Cluster' });
    });
    it('ExternalName gets neither traffic policy', () => {
      const s = ready({ metadata: { name: 'db', namespace: 'default' }, spec: { type: 'ExternalName', externalName: 'db.example.com' } });
      expect(spec(s)).to.deep.equal({ type: 'ExternalName', externalName: 'db.example.com', sessionAffinity: 'None' });
      expect(validateCreate(service, s)).to.deep.equal([]);
    });
    it('ClientIP affinity gets a 10800 s timeout; None drops any config', () => {
      expect(spec(ready(variant(minimal(), (o) => (spec(o).sessionAffinity = 'ClientIP')))).sessionAffinityConfig).to.deep.equal({ clientIP: { timeoutSeconds: 10800 } });
      expect(spec(ready(variant(minimal(), (o) => (spec(o).sessionAffinityConfig = { clientIP: { timeoutSeconds: 5 } }))))).not.to.have.property('sessionAffinityConfig');
    });
    it('a named or explicit targetPort is kept', () => {
      expect(spec(ready(variant(minimal(), (o) => (spec(o).ports = [{ port: 80, targetPort: 'http' }])))).ports).to.deep.equal([{ port: 80, targetPort: 'http', protocol: 'TCP' }]);
    });
  });

  const cases: Array<[string, (o: Obj) => void, string[]]> = [
    ['name must be a DNS-1035 label', (o) => ((o.metadata as Obj).name = '1web'), [
      "metadata.name: Invalid value: \"1web\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    ]],
    ['ports are required unless headless or ExternalName', (o) => delete spec(o).ports, ['spec.ports: Required value']],
    ['port numbers are 1–65535', (o) => (spec(o).ports = [{ port: 70000, targetPort: 80 }]), ['spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive']],
    ['port is required', (o) => (spec(o).ports = [{ targetPort: 80 }]), ['spec.ports[0].port: Required value']],
    ['names are required when there are several ports', (o) => (spec(o).ports = [{ port: 80 }, { port: 81 }]), ['spec.ports[0].name: Required value', 'spec.ports[1].name: Required value']],
    ['port names are unique', (o) => (spec(o).ports = [{ name: 'a', port: 80 }, { name: 'a', port: 81 }]), ['spec.ports[1].name: Duplicate value: "a"']],
    ['port names are DNS labels', (o) => (spec(o).ports = [{ name: 'A', port: 80 }]), [
      "spec.ports[0].name: Invalid value: \"A\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    ]],
    ['protocol is TCP, UDP or SCTP', (o) => (spec(o).ports = [{ port: 80, protocol: 'HTTP' }]), ['spec.ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"']],
    ['duplicate port/protocol pairs', (o) => (spec(o).ports = [{ name: 'a', port: 80 }, { name: 'b', port: 80 }]), ['spec.ports[1]: Duplicate value: {"port":80,"protocol":"TCP"}']],
    ['numeric targetPort in range', (o) => (spec(o).ports = [{ port: 80, targetPort: 0x10000 }]), ['spec.ports[0].targetPort: Invalid value: 65536: must be between 1 and 65535, inclusive']],
    ['named targetPort is an IANA service name', (o) => (spec(o).ports = [{ port: 80, targetPort: 'web--http' }]), ['spec.ports[0].targetPort: Invalid value: "web--http": must not contain consecutive hyphens']],
    ['appProtocol is a qualified name', (o) => (spec(o).ports = [{ port: 80, appProtocol: 'a b' }]), [
      "spec.ports[0].appProtocol: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ]],
    ['type is one of the four', (o) => (spec(o).type = 'Internal'), ['spec.type: Unsupported value: "Internal": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"']],
    ['an explicit empty type is not defaulted and is required', (o) => (spec(o).type = ''), ['spec.type: Required value']],
    ['sessionAffinity is ClientIP or None', (o) => (spec(o).sessionAffinity = 'Cookie'), ['spec.sessionAffinity: Unsupported value: "Cookie": supported values: "ClientIP", "None"']],
    ['ClientIP timeout at most one day', (o) => {
      spec(o).sessionAffinity = 'ClientIP';
      spec(o).sessionAffinityConfig = { clientIP: { timeoutSeconds: 86401 } };
    }, ['spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 86401: must be greater than 0 and less than 86400']],
    ['selector keys and values are label syntax, reported at spec.selector', (o) => (spec(o).selector = { app: 'bad value' }), [
      "spec.selector: Invalid value: \"bad value\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ]],
    ['ExternalName requires externalName', (o) => {
      spec(o).type = 'ExternalName';
      delete spec(o).ports;
    }, ['spec.externalName: Required value']],
    ['externalName must be a DNS name (a trailing dot is allowed)', (o) => {
      spec(o).type = 'ExternalName';
      spec(o).externalName = 'db_primary.example.com.';
    }, [
      "spec.externalName: Invalid value: \"db_primary.example.com\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]],
    ['ExternalName may not carry cluster IPs', (o) => {
      spec(o).type = 'ExternalName';
      spec(o).externalName = 'db.example.com';
      spec(o).clusterIP = '10.0.0.1';
    }, ['spec.clusterIPs: Forbidden: may not be set for ExternalName services']],
    ['clusterIP must be an IP address', (o) => (spec(o).clusterIP = '10.0.0.300'), ['spec.clusterIPs[0]: Invalid value: "10.0.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)']],
    ['clusterIPs[0] must match clusterIP', (o) => {
      spec(o).clusterIP = '10.0.0.1';
      spec(o).clusterIPs = ['10.0.0.2'];
    }, ['spec.clusterIPs: Invalid value: ["10.0.0.2"]: first value must match `clusterIP`']],
    ['two cluster IPs must be of different families', (o) => {
      spec(o).clusterIP = '10.0.0.1';
      spec(o).clusterIPs = ['10.0.0.1', '10.0.0.2'];
    }, ['spec.clusterIPs: Invalid value: ["10.0.0.1","10.0.0.2"]: may specify no more than one IP for each IP family']],
    ['cluster IPs match their ipFamilies', (o) => {
      spec(o).clusterIP = '10.0.0.1';
      spec(o).ipFamilies = ['IPv6'];
    }, ['spec.clusterIPs[0]: Invalid value: "10.0.0.1": expected an IPv6 value as indicated by `ipFamilies[0]`']],
    ['NodePort services may not be headless', (o) => {
      spec(o).type = 'NodePort';
      spec(o).clusterIP = 'None';
    }, ["spec.clusterIPs[0]: Invalid value: \"None\": may not be set to 'None' for NodePort services"]],
    ['headless services need no ports', (o) => {
      delete spec(o).ports;
      spec(o).clusterIP = 'None';
    }, []],
    ['nodePort is forbidden on ClusterIP services', (o) => (spec(o).ports = [{ port: 80, nodePort: 30080 }]), ["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"]],
    ['externalIPs are valid, non-special addresses', (o) => (spec(o).externalIPs = ['127.0.0.1', 'x']), [
      'spec.externalIPs[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      'spec.externalIPs[1]: Invalid value: "x": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    ]],
    ['loadBalancerSourceRanges only on LoadBalancer and must be CIDRs', (o) => (spec(o).loadBalancerSourceRanges = ['10.0.0.0/33']), [
      "spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'",
      'spec.LoadBalancerSourceRanges[0]: Invalid value: "10.0.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
    ]],
    ['the source-ranges annotation is checked the same way', (o) => ((o.metadata as Obj).annotations = { [SERVICE_ANNOTATIONS.loadBalancerSourceRanges]: '10.0.0.0/8, bad' }), [
      `metadata.annotations[${SERVICE_ANNOTATIONS.loadBalancerSourceRanges}]: Forbidden: may only be used when \`type\` is 'LoadBalancer'`,
      `metadata.annotations[${SERVICE_ANNOTATIONS.loadBalancerSourceRanges}]: Invalid value: "bad": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)`,
    ]],
    ['externalTrafficPolicy only on externally accessible services', (o) => (spec(o).externalTrafficPolicy = 'Local'), [
      'spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services',
    ]],
    ['LoadBalancer with Local traffic needs a healthCheckNodePort', (o) => {
      spec(o).type = 'LoadBalancer';
      spec(o).externalTrafficPolicy = 'Local';
    }, ['spec.healthCheckNodePort: Required value']],
    ['healthCheckNodePort only with LoadBalancer and Local', (o) => (spec(o).healthCheckNodePort = 31000), [
      "spec.healthCheckNodePort: Invalid value: 31000: may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
    ]],
    ['allocateLoadBalancerNodePorts only on LoadBalancer', (o) => (spec(o).allocateLoadBalancerNodePorts = false), [
      "spec.allocateLoadBalancerNodePorts: Forbidden: may only be used when `type` is 'LoadBalancer'",
    ]],
    ['loadBalancerClass only on LoadBalancer', (o) => (spec(o).loadBalancerClass = 'example.com/lb'), ["spec.loadBalancerClass: Forbidden: may only be used when `type` is 'LoadBalancer'"]],
    ['internalTrafficPolicy is Cluster or Local', (o) => (spec(o).internalTrafficPolicy = 'Node'), ['spec.internalTrafficPolicy: Unsupported value: "Node": supported values: "Cluster", "Local"']],
    ['trafficDistribution is PreferClose', (o) => (spec(o).trafficDistribution = 'Anywhere'), ['spec.trafficDistribution: Unsupported value: "Anywhere": supported values: "PreferClose"']],
    ['topology annotations must agree', (o) => ((o.metadata as Obj).annotations = { [SERVICE_ANNOTATIONS.topologyAwareHints]: 'Auto', [SERVICE_ANNOTATIONS.topologyMode]: 'Disabled' }), [
      `metadata.annotations[${SERVICE_ANNOTATIONS.topologyMode}]: Invalid value: "Disabled": must match annotations[${SERVICE_ANNOTATIONS.topologyAwareHints}] when both are specified`,
    ]],
  ];
  for (const [name, mutate, expected] of cases) {
    it(`validation: ${name}`, () => {
      expect(messages(validateCreate(service, ready(variant(minimal(), mutate))))).to.deep.equal(expected);
    });
  }

  describe('update rules', () => {
    const allocated = (): Obj => ready(variant(minimal(), (o) => (spec(o).clusterIP = '10.0.0.1')));
    const update = (old: Obj, mutate: (o: Obj) => void): string[] => {
      const next = variant(old, mutate);
      normalizeClusterIPs(next, old);
      return messages(validateUpdate(service, next, old));
    };
    it('clusterIP may not change once set', () => {
      expect(update(allocated(), (o) => (spec(o).clusterIP = '10.0.0.2'))).to.deep.equal(['spec.clusterIPs[0]: Invalid value: ["10.0.0.2"]: may not change once set']);
    });
    it('an old client omitting clusterIPs keeps the allocated ones', () => {
      expect(update(allocated(), (o) => delete spec(o).clusterIPs)).to.deep.equal([]);
    });
    it('clusterIP may be cleared when changing to ExternalName', () => {
      expect(update(allocated(), (o) => {
        spec(o).type = 'ExternalName';
        spec(o).externalName = 'db.example.com';
        delete spec(o).clusterIP;
      })).to.deep.equal([]);
    });
    it('clusterIP may be set when changing from ExternalName', () => {
      const old = ready({ metadata: { name: 'db', namespace: 'default' }, spec: { type: 'ExternalName', externalName: 'db.example.com' } });
      expect(update(old, (o) => {
        spec(o).type = 'ClusterIP';
        spec(o).clusterIP = '10.0.0.9';
        spec(o).internalTrafficPolicy = 'Cluster';
        spec(o).ports = [{ port: 80, targetPort: 80, protocol: 'TCP' }];
        delete spec(o).externalName;
      })).to.deep.equal([]);
    });
    it('the primary ipFamily may not change', () => {
      const old = ready(variant(minimal(), (o) => {
        spec(o).clusterIP = '10.0.0.1';
        spec(o).ipFamilies = ['IPv4'];
      }));
      expect(update(old, (o) => (spec(o).ipFamilies = ['IPv6']))).to.deep.equal([
        'spec.clusterIPs[0]: Invalid value: "10.0.0.1": expected an IPv6 value as indicated by `ipFamilies[0]`',
        'spec.ipFamilies[0]: Invalid value: ["IPv6"]: may not change once set',
      ]);
    });
    it('loadBalancerClass may not change on a LoadBalancer', () => {
      const old = ready(variant(minimal(), (o) => {
        spec(o).type = 'LoadBalancer';
        spec(o).loadBalancerClass = 'example.com/a';
      }));
      expect(update(old, (o) => (spec(o).loadBalancerClass = 'example.com/b'))).to.deep.equal(['spec.loadBalancerClass: Invalid value: "example.com/b": may not change once set']);
    });
  });

  describe('status writes', () => {
    const lb = (): Obj => ready(variant(minimal(), (o) => (spec(o).type = 'LoadBalancer')));
    const status = (svc: Obj, ingress: Obj[]): string[] => messages(validateStatus(service, variant(svc, (o) => (o.status = { loadBalancer: { ingress } })), svc));
    it('ingress only on LoadBalancer services', () => {
      expect(status(ready(minimal()), [{ ip: '192.0.2.1', ipMode: 'VIP' }])).to.deep.equal(["status.loadBalancer.ingress: Forbidden: may only be used when `spec.type` is 'LoadBalancer'"]);
    });
    it('ingress IPs are valid and carry an ipMode', () => {
      expect(status(lb(), [{ ip: '192.0.2.300', ipMode: 'VIP' }, { ip: '192.0.2.1' }])).to.deep.equal([
        'status.loadBalancer.ingress[0].ip: Invalid value: "192.0.2.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
        'status.loadBalancer.ingress[1].ipMode: Required value: must be specified when `ip` is set',
      ]);
    });
    it('ipMode needs an ip and is VIP or Proxy', () => {
      expect(status(lb(), [{ hostname: 'lb.example.com', ipMode: 'VIP' }, { ip: '192.0.2.1', ipMode: 'Direct' }])).to.deep.equal([
        'status.loadBalancer.ingress[1].ipMode: Unsupported value: "Direct": supported values: "Proxy", "VIP"',
        'status.loadBalancer.ingress[0].ipMode: Forbidden: may not be specified when `ip` is not set',
      ]);
    });
    it('hostnames are DNS names, not IPs', () => {
      expect(status(lb(), [{ hostname: '192.0.2.1' }])).to.deep.equal(['status.loadBalancer.ingress[0].hostname: Invalid value: "192.0.2.1": must be a DNS name, not an IP address']);
    });
  });
});
