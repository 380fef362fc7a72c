/**
 * The Service field rules around allocation (issue #12 item 2): IP family inference with
 * upstream's messages (initIPFamilyFields), the carry-over of allocated values an update left out
 * (patchAllocatedValues) and the wiping of type-dependent fields on a type change
 * (dropTypeDependentFields).
 */
import { expect } from 'chai';
import { fieldErrorString } from '../../../../../lib/apimachinery/field-errors.js';
import type { Obj } from '../../../../../lib/apis/define.js';
import { initIPFamilyFields } from '../../../../../lib/registry/core/service/ip-families.js';
import { patchAllocatedValues } from '../../../../../lib/registry/core/service/service-fields.js';
import { dropTypeDependentFields } from '../../../../../lib/registry/core/service/strategy.js';

/** A Service whose spec is read field by field. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Svc = Obj & { spec: Record<string, any>; status?: Obj };
const svc = (spec: Obj): Svc => ({ metadata: { name: 's' }, spec: { type: 'ClusterIP', ports: [{ port: 80 }], ...spec } });
const V4 = ['IPv4'] as const;
const DUAL = ['IPv4', 'IPv6'] as const;

describe('registry/core/service field rules (issue #12 item 2)', () => {
  describe('initIPFamilyFields', () => {
    const cases: Array<[string, Obj, readonly ('IPv4' | 'IPv6')[], Obj]> = [
      ['default: SingleStack with the primary family', {}, V4, { ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4'] }],
      ['PreferDualStack on a dual-stack cluster gets both', { ipFamilyPolicy: 'PreferDualStack' }, DUAL, { ipFamilyPolicy: 'PreferDualStack', ipFamilies: ['IPv4', 'IPv6'] }],
      ['PreferDualStack on a single-stack cluster gets one', { ipFamilyPolicy: 'PreferDualStack' }, V4, { ipFamilyPolicy: 'PreferDualStack', ipFamilies: ['IPv4'] }],
      ['RequireDualStack asking IPv6 first', { ipFamilyPolicy: 'RequireDualStack', ipFamilies: ['IPv6'] }, DUAL, { ipFamilies: ['IPv6', 'IPv4'] }],
      ['the family of a given address', { clusterIP: 'fd00::5', clusterIPs: ['fd00::5'] }, DUAL, { ipFamilies: ['IPv6'], ipFamilyPolicy: 'SingleStack' }],
      ['headless with a selector: SingleStack', { clusterIP: 'None', clusterIPs: ['None'], selector: { a: 'b' } }, V4, { ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4'] }],
      ['headless without a selector: RequireDualStack, both families, even single-stack', { clusterIP: 'None', clusterIPs: ['None'] }, V4, { ipFamilyPolicy: 'RequireDualStack', ipFamilies: ['IPv4', 'IPv6'] }],
      ['ExternalName: nothing', { type: 'ExternalName', externalName: 'x.example.com' }, V4, {}],
    ];
    for (const [title, spec, families, expected] of cases) {
      it(title, () => {
        const s = svc(spec);
        expect(initIPFamilyFields(s, undefined, families)).to.deep.equal([]);
        expect(s.spec).to.deep.include(expected);
        if (spec.type === 'ExternalName') expect(s.spec).to.not.have.any.keys('ipFamilies', 'ipFamilyPolicy');
      });
    }

    const rejected: Array<[string, Obj, readonly ('IPv4' | 'IPv6')[], string[]]> = [
      ['RequireDualStack on a single-stack cluster', { ipFamilyPolicy: 'RequireDualStack' }, V4, ['spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services']],
      ['an unconfigured family', { ipFamilies: ['IPv6'] }, V4, ['spec.ipFamilies[0]: Invalid value: "IPv6": not configured on this cluster']],
      ['an address of an unconfigured family', { clusterIP: 'fd00::1', clusterIPs: ['fd00::1'] }, V4, ['spec.clusterIPs[0]: Invalid value: []string{"fd00::1"}: IPv6 is not configured on this cluster']],
      [
        'SingleStack with two addresses and two families',
        { ipFamilyPolicy: 'SingleStack', clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5', 'fd00::5'], ipFamilies: ['IPv4', 'IPv6'] },
        DUAL,
        [
          "spec.ipFamilyPolicy: Invalid value: \"SingleStack\": must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified",
          "spec.ipFamilyPolicy: Invalid value: \"SingleStack\": must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified",
        ],
      ],
    ];
    for (const [title, spec, families, messages] of rejected) {
      it(`refuses ${title}`, () => {
        expect(initIPFamilyFields(svc(spec), undefined, families).map(fieldErrorString)).to.deep.equal(messages);
      });
    }

    it('an update keeps the old policy and trims a dual-stack Service asked to be SingleStack', () => {
      const old = svc({ clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5', 'fd00::5'], ipFamilies: ['IPv4', 'IPv6'], ipFamilyPolicy: 'RequireDualStack' });
      const kept = svc({ clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5', 'fd00::5'], ipFamilies: ['IPv4', 'IPv6'] });
      expect(initIPFamilyFields(kept, old, DUAL)).to.deep.equal([]);
      expect(kept.spec.ipFamilyPolicy).to.equal('RequireDualStack');
      const single = svc({ clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5', 'fd00::5'], ipFamilies: ['IPv4', 'IPv6'], ipFamilyPolicy: 'SingleStack' });
      expect(initIPFamilyFields(single, old, DUAL)).to.deep.equal([]);
      expect(single.spec).to.deep.include({ clusterIPs: ['10.0.0.5'], ipFamilies: ['IPv4'] });
      const reduced = svc({ clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5'], ipFamilies: ['IPv4', 'IPv6'] });
      expect(initIPFamilyFields(reduced, old, DUAL).map(fieldErrorString)).to.deep.equal([
        "spec.ipFamilyPolicy: Invalid value: \"RequireDualStack\": must be 'SingleStack' to release the secondary cluster IP",
      ]);
    });
  });

  describe('patchAllocatedValues', () => {
    it('carries the cluster IPs, node ports (by port name) and health check node port an update left out', () => {
      const old = svc({
        type: 'LoadBalancer',
        externalTrafficPolicy: 'Local',
        clusterIP: '10.0.0.5',
        clusterIPs: ['10.0.0.5'],
        healthCheckNodePort: 31000,
        ports: [{ name: 'a', port: 80, nodePort: 30001 }, { name: 'b', port: 81, nodePort: 30002 }],
      });
      const next = svc({ type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: [{ name: 'a', port: 80 }, { name: 'b', port: 82, nodePort: 30001 }] });
      patchAllocatedValues(next, old);
      expect(next.spec).to.deep.include({ clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5'], healthCheckNodePort: 31000 });
      expect(next.spec.ports).to.deep.equal([{ name: 'a', port: 80 }, { name: 'b', port: 82, nodePort: 30001 }]);
    });

    it('carries nothing to an ExternalName Service', () => {
      const next = svc({ type: 'ExternalName', externalName: 'x.example.com' });
      patchAllocatedValues(next, svc({ clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5'] }));
      expect(next.spec).to.not.have.any.keys('clusterIP', 'clusterIPs');
    });
  });

  describe('dropTypeDependentFields', () => {
    it('NodePort to ClusterIP with the node ports unchanged: node ports and externalTrafficPolicy go', () => {
      const old = svc({ type: 'NodePort', externalTrafficPolicy: 'Cluster', ports: [{ port: 80, nodePort: 30001 }] });
      const next = svc({ type: 'ClusterIP', externalTrafficPolicy: 'Cluster', ports: [{ port: 80, nodePort: 30001 }] });
      dropTypeDependentFields(next, old);
      expect(next.spec.ports).to.deep.equal([{ port: 80 }]);
      expect(next.spec).to.not.have.property('externalTrafficPolicy');
    });

    it('a new node port on the way to ClusterIP is kept (validation refuses it)', () => {
      const next = svc({ type: 'ClusterIP', ports: [{ port: 80, nodePort: 30009 }] });
      dropTypeDependentFields(next, svc({ type: 'NodePort', ports: [{ port: 80, nodePort: 30001 }] }));
      expect(next.spec.ports[0].nodePort).to.equal(30009);
    });

    it('to ExternalName: cluster IPs and IP family fields go when unchanged', () => {
      const ips = { clusterIP: '10.0.0.5', clusterIPs: ['10.0.0.5'], ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' };
      const next = svc({ type: 'ExternalName', externalName: 'x.example.com', ...ips });
      dropTypeDependentFields(next, svc(ips));
      expect(next.spec).to.not.have.any.keys('clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy');
    });

    it('away from LoadBalancer: health check node port, allocateLoadBalancerNodePorts, class and load balancer status go', () => {
      const lb = { type: 'LoadBalancer', externalTrafficPolicy: 'Local', healthCheckNodePort: 31000, allocateLoadBalancerNodePorts: true, loadBalancerClass: 'x/y' };
      const next: Svc = { ...svc({ ...lb, type: 'NodePort' }), status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } } };
      dropTypeDependentFields(next, svc(lb));
      expect(next.spec).to.not.have.any.keys('healthCheckNodePort', 'allocateLoadBalancerNodePorts', 'loadBalancerClass');
      expect(next.status).to.deep.equal({ loadBalancer: {} });
    });
  });
});
