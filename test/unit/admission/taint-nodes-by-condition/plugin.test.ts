import { expect } from 'chai';
import { TaintNodesByCondition, addNotReadyTaint } from '../../../../lib/admission/plugins/taint-nodes-by-condition.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { TAINT_NODE_NOT_READY, VENDOR_DOMAIN } from '../../../../lib/apis/vendor.js';
import { internalContext } from '../../../../lib/request/context.js';
import { admissionAttrs } from '../attrs.js';

const ADMIN = { name: 'admin', groups: ['system:masters'] };
const plugin = new TaintNodesByCondition();

describe('TaintNodesByCondition admission (spec 001 § Admission control)', () => {
  it('spells the taint in the vendor domain', () => {
    expect(TAINT_NODE_NOT_READY).to.equal(`node.${VENDOR_DOMAIN}/not-ready`);
  });

  it('adds not-ready:NoSchedule to a new Node, after its own taints', async () => {
    const node: Obj = { metadata: { name: 'n1' }, spec: { taints: [{ key: 'a', effect: 'NoExecute' }] } };
    await plugin.admit(internalContext(ADMIN), admissionAttrs(ADMIN, { resource: 'nodes', name: 'n1', object: node }));
    expect((node.spec as Obj).taints).to.deep.equal([
      { key: 'a', effect: 'NoExecute' },
      { key: TAINT_NODE_NOT_READY, effect: 'NoSchedule' },
    ]);
  });

  it('creates the spec of a Node that has none', () => {
    const node: Obj = { metadata: { name: 'n1' } };
    addNotReadyTaint(node);
    expect(node.spec).to.deep.equal({ taints: [{ key: TAINT_NODE_NOT_READY, effect: 'NoSchedule' }] });
  });

  it('keeps a taint of the same key and effect as it is (the value does not matter)', () => {
    const taints = [{ key: TAINT_NODE_NOT_READY, value: 'x', effect: 'NoSchedule' }];
    const node: Obj = { spec: { taints } };
    addNotReadyTaint(node);
    expect((node.spec as Obj).taints).to.deep.equal([{ key: TAINT_NODE_NOT_READY, value: 'x', effect: 'NoSchedule' }]);
  });

  it('adds the taint when the node has the key with another effect', () => {
    const node: Obj = { spec: { taints: [{ key: TAINT_NODE_NOT_READY, effect: 'NoExecute' }] } };
    addNotReadyTaint(node);
    expect((node.spec as Obj).taints).to.have.length(2);
  });

  it('handles only creates, of Nodes themselves', async () => {
    expect(plugin.handles('CREATE')).to.equal(true);
    expect(plugin.handles('UPDATE')).to.equal(false);
    const ctx = internalContext(ADMIN);
    const status: Obj = { metadata: { name: 'n1' } };
    await plugin.admit(ctx, admissionAttrs(ADMIN, { resource: 'nodes', subresource: 'status', object: status }));
    const pod: Obj = { metadata: { name: 'p' } };
    await plugin.admit(ctx, admissionAttrs(ADMIN, { resource: 'pods', namespace: 'ns', object: pod }));
    expect(status.spec).to.equal(undefined);
    expect(pod.spec).to.equal(undefined);
  });
});
