import { expect } from 'chai';
import { node } from '../../../../lib/apis/core/v1/cluster-kinds.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { VENDOR_DOMAIN } from '../../../../lib/apis/vendor.js';
import { cellsOf, meta } from './helpers.js';

const ready = (status: string): Obj => ({ type: 'Ready', status, reason: 'KubeletReady' });

function n(labels: Obj, spec: Obj, status: Obj): Obj {
  return { apiVersion: 'v1', kind: 'Node', metadata: { ...meta('node-1', 12 * 86400), namespace: undefined, labels }, spec, status };
}

const nodeInfo = { kubeletVersion: 'v1.30.2', osImage: 'Debian GNU/Linux 12 (bookworm)', kernelVersion: '6.1.0-18-amd64', containerRuntimeVersion: 'containerd://1.7.13' };
const addresses = [
  { type: 'Hostname', address: 'node-1' },
  { type: 'InternalIP', address: '192.168.1.10' },
  { type: 'InternalIP', address: 'fd00::10' },
  { type: 'ExternalIP', address: '203.0.113.10' },
];

describe('apis/printers: Node', () => {
  it('a cordoned control-plane node: Ready,SchedulingDisabled, roles sorted, wide columns', () => {
    const labels = { [`node-role.${VENDOR_DOMAIN}/control-plane`]: '', [`${VENDOR_DOMAIN}/role`]: 'etcd', 'example.io/zone': 'a' };
    const obj = n(labels, { unschedulable: true, taints: [{ key: 'node.example.io/unschedulable', effect: 'NoSchedule' }] }, { conditions: [{ type: 'MemoryPressure', status: 'False' }, ready('True')], addresses, nodeInfo });
    expect(cellsOf(node, obj)).to.deep.equal([
      'node-1',
      'Ready,SchedulingDisabled',
      'control-plane,etcd',
      '12d',
      'v1.30.2',
      '192.168.1.10',
      '203.0.113.10',
      'Debian GNU/Linux 12 (bookworm)',
      '6.1.0-18-amd64',
      'containerd://1.7.13',
    ]);
  });

  const statuses: Array<[string, Obj, Obj, string]> = [
    ['Ready', {}, { conditions: [ready('True')] }, 'Ready'],
    ['NotReady (False)', {}, { conditions: [ready('False')] }, 'NotReady'],
    ['NotReady (Unknown)', {}, { conditions: [ready('Unknown')] }, 'NotReady'],
    ['no Ready condition', {}, {}, 'Unknown'],
    ['no Ready condition, cordoned', { unschedulable: true }, {}, 'Unknown,SchedulingDisabled'],
    ['the last Ready condition counts', {}, { conditions: [ready('False'), ready('True')] }, 'Ready'],
  ];
  for (const [name, spec, status, text] of statuses) {
    it(`Status: ${name} → ${text}`, () => expect(cellsOf(node, n({}, spec, status))[1]).to.equal(text));
  }

  const roles: Array<[string, Obj, string]> = [
    ['no role labels', { 'example.io/zone': 'a' }, '<none>'],
    ['an empty role suffix is ignored', { [`node-role.${VENDOR_DOMAIN}/`]: '' }, '<none>'],
    ['an empty role value is ignored', { [`${VENDOR_DOMAIN}/role`]: '' }, '<none>'],
    ['duplicates once', { [`node-role.${VENDOR_DOMAIN}/worker`]: 'x', [`${VENDOR_DOMAIN}/role`]: 'worker' }, 'worker'],
  ];
  for (const [name, labels, text] of roles) {
    it(`Roles: ${name} → ${text}`, () => expect(cellsOf(node, n(labels, {}, {}))[2]).to.equal(text));
  }

  it('a node with nothing reported: empty version, <none> addresses, <unknown> node info', () => {
    expect(cellsOf(node, n({}, {}, {})).slice(4)).to.deep.equal(['', '<none>', '<none>', '<unknown>', '<unknown>', '<unknown>']);
  });
});
