import { expect } from 'chai';
import { lease } from '../../../../lib/apis/coordination/v1/lease.js';
import { configMap } from '../../../../lib/apis/core/v1/config-map.js';
import { endpoints, namespace, secret, service, serviceAccount } from '../../../../lib/apis/core/v1/cluster-kinds.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { cellsOf, meta } from './helpers.js';

const o = (kind: string, name: string, body: Obj, apiVersion = 'v1'): Obj => ({ apiVersion, kind, metadata: meta(name, 45), ...body });

describe('apis/printers: core kinds', () => {
  const cases: Array<[string, Parameters<typeof cellsOf>[0], Obj, unknown[]]> = [
    ['Namespace Active', namespace, o('Namespace', 'team-a', { spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } }), ['team-a', 'Active', '45s']],
    ['Namespace Terminating', namespace, o('Namespace', 'old', { status: { phase: 'Terminating' } }), ['old', 'Terminating', '45s']],
    ['Secret with two keys', secret, o('Secret', 'creds', { type: 'Opaque', data: { user: 'YQ==', pass: 'Yg==' } }), ['creds', 'Opaque', 2, '45s']],
    ['Secret without data', secret, o('Secret', 'empty', { type: 'example.io/token' }), ['empty', 'example.io/token', 0, '45s']],
    ['ConfigMap counts data and binaryData keys', configMap, o('ConfigMap', 'cfg', { data: { a: '1', b: '2' }, binaryData: { c: 'AA==' } }), ['cfg', 3, '45s']],
    ['ConfigMap without data', configMap, o('ConfigMap', 'none', {}), ['none', 0, '45s']],
    ['ServiceAccount with a secret', serviceAccount, o('ServiceAccount', 'builder', { secrets: [{ name: 'builder-token' }] }), ['builder', 1, '45s']],
    ['ServiceAccount without secrets', serviceAccount, o('ServiceAccount', 'default', {}), ['default', 0, '45s']],
    ['Lease with a holder', lease, o('Lease', 'node-1', { spec: { holderIdentity: 'node-1', leaseDurationSeconds: 40 } }, 'coordination.orch.io/v1'), ['node-1', 'node-1', '45s']],
    ['Lease without a holder', lease, o('Lease', 'free', { spec: {} }, 'coordination.orch.io/v1'), ['free', '', '45s']],
  ];
  for (const [name, kind, obj, cells] of cases) {
    it(name, () => expect(cellsOf(kind, obj)).to.deep.equal(cells));
  }
});

describe('apis/printers: Endpoints', () => {
  const addr = (...ips: string[]): Obj[] => ips.map((ip) => ({ ip }));
  const cases: Array<[string, unknown, string]> = [
    ['no subsets', undefined, '<none>'],
    ['one address, one port', [{ addresses: addr('10.0.0.1'), ports: [{ port: 80, protocol: 'TCP' }] }], '10.0.0.1:80'],
    [
      'more than three endpoints over ports and subsets',
      [
        { addresses: addr('10.0.0.1', '10.0.0.2'), ports: [{ name: 'http', port: 80 }, { name: 'https', port: 443 }] },
        { addresses: addr('10.0.0.3'), ports: [{ port: 8080 }] },
      ],
      '10.0.0.1:80,10.0.0.2:80,10.0.0.1:443 + 2 more...',
    ],
    ['IPv6 in brackets', [{ addresses: addr('fd00::1'), ports: [{ port: 53 }] }], '[fd00::1]:53'],
    ['headless, no ports: bare IPs', [{ addresses: addr('10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4') }], '10.0.0.1,10.0.0.2,10.0.0.3 + 1 more...'],
    ['only not-ready addresses: empty text', [{ notReadyAddresses: addr('10.0.0.9'), ports: [{ port: 80 }] }], ''],
  ];
  for (const [name, subsets, text] of cases) {
    it(name, () => {
      const obj = { apiVersion: 'v1', kind: 'Endpoints', metadata: meta('web', 45), ...(subsets === undefined ? {} : { subsets }) };
      expect(cellsOf(endpoints, obj)).to.deep.equal(['web', text, '45s']);
    });
  }
});

describe('apis/printers: Service', () => {
  const svc = (spec: Obj, status: Obj = {}): Obj => ({ apiVersion: 'v1', kind: 'Service', metadata: meta('web', 45), spec, status });
  const cases: Array<[string, Obj, unknown[]]> = [
    [
      'ClusterIP with two ports and a selector',
      svc({ type: 'ClusterIP', clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10'], selector: { app: 'web', tier: 'front' }, ports: [{ port: 80, protocol: 'TCP', targetPort: 8080 }, { port: 53, protocol: 'UDP' }] }),
      ['web', 'ClusterIP', '10.96.0.10', '<none>', '80/TCP,53/UDP', '45s', 'app=web,tier=front'],
    ],
    [
      'ClusterIP with external IPs',
      svc({ type: 'ClusterIP', clusterIPs: ['10.96.0.11'], externalIPs: ['1.2.3.4', '1.2.3.5'], ports: [{ port: 80, protocol: 'TCP' }] }),
      ['web', 'ClusterIP', '10.96.0.11', '1.2.3.4,1.2.3.5', '80/TCP', '45s', '<none>'],
    ],
    [
      'headless',
      svc({ type: 'ClusterIP', clusterIP: 'None', clusterIPs: ['None'], selector: { app: 'db' } }),
      ['web', 'ClusterIP', 'None', '<none>', '<none>', '45s', 'app=db'],
    ],
    [
      'NodePort shows port:nodePort',
      svc({ type: 'NodePort', clusterIPs: ['10.96.0.12'], ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }] }),
      ['web', 'NodePort', '10.96.0.12', '<none>', '80:30080/TCP', '45s', '<none>'],
    ],
    [
      'LoadBalancer pending',
      svc({ type: 'LoadBalancer', clusterIPs: ['10.96.0.13'], ports: [{ port: 443, nodePort: 31443, protocol: 'TCP' }] }),
      ['web', 'LoadBalancer', '10.96.0.13', '<pending>', '443:31443/TCP', '45s', '<none>'],
    ],
    [
      'LoadBalancer with ingress (IPs or host names, sorted, unique) and external IPs',
      svc({ type: 'LoadBalancer', clusterIPs: ['10.96.0.14'], externalIPs: ['9.9.9.9'], ports: [] }, { loadBalancer: { ingress: [{ ip: '5.6.7.8' }, { hostname: 'lb.example.com' }, { ip: '5.6.7.8' }, { ip: '1.1.1.1', hostname: 'x' }] } }),
      ['web', 'LoadBalancer', '10.96.0.14', '1.1.1.1,5.6.7.8,lb.example.com,9.9.9.9', '<none>', '45s', '<none>'],
    ],
    [
      'ExternalName',
      svc({ type: 'ExternalName', externalName: 'db.example.com' }),
      ['web', 'ExternalName', '<none>', 'db.example.com', '<none>', '45s', '<none>'],
    ],
  ];
  for (const [name, obj, cells] of cases) {
    it(name, () => expect(cellsOf(service, obj)).to.deep.equal(cells));
  }
});
