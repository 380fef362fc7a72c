import { expect } from 'chai';
import { DefaultTolerationSeconds, addDefaultTolerations, toleratesNoExecute } from '../../../../lib/admission/plugins/default-toleration-seconds.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { TAINT_NODE_NOT_READY, TAINT_NODE_UNREACHABLE, VENDOR_DOMAIN } from '../../../../lib/apis/vendor.js';
import { internalContext } from '../../../../lib/request/context.js';
import { admissionAttrs } from '../attrs.js';

const ADMIN = { name: 'admin', groups: ['system:masters'] };
const notReady = (s: number) => ({ key: TAINT_NODE_NOT_READY, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: s });
const unreachable = (s: number) => ({ key: TAINT_NODE_UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: s });

/** The tolerations of a pod with `tolerations` after the plugin (seconds 300 and 60). */
function after(tolerations?: Obj[]): unknown {
  const pod: Obj = { spec: tolerations ? { tolerations } : {} };
  addDefaultTolerations(pod, 300, 60);
  return (pod.spec as Obj).tolerations;
}

describe('DefaultTolerationSeconds admission (spec 001 § Admission control)', () => {
  it('spells the taint keys in the vendor domain', () => {
    expect(TAINT_NODE_NOT_READY).to.equal(`node.${VENDOR_DOMAIN}/not-ready`);
    expect(TAINT_NODE_UNREACHABLE).to.equal(`node.${VENDOR_DOMAIN}/unreachable`);
  });

  it('adds both tolerations, not-ready first, with the configured seconds', () => {
    expect(after()).to.deep.equal([notReady(300), unreachable(60)]);
  });

  it('appends after the pod’s own tolerations', () => {
    expect(after([{ key: 'k', operator: 'Equal', value: 'v', effect: 'NoSchedule' }])).to.deep.equal([
      { key: 'k', operator: 'Equal', value: 'v', effect: 'NoSchedule' },
      notReady(300),
      unreachable(60),
    ]);
  });

  it('adds only what is missing: a toleration of the key with effect NoExecute or no effect covers it, whatever its operator', () => {
    expect(after([{ key: TAINT_NODE_NOT_READY, operator: 'Equal', value: 'x', effect: 'NoExecute', tolerationSeconds: 5 }])).to.deep.equal([
      { key: TAINT_NODE_NOT_READY, operator: 'Equal', value: 'x', effect: 'NoExecute', tolerationSeconds: 5 },
      unreachable(60),
    ]);
    expect(after([{ key: TAINT_NODE_UNREACHABLE, operator: 'Exists' }])).to.deep.equal([{ key: TAINT_NODE_UNREACHABLE, operator: 'Exists' }, notReady(300)]);
  });

  it('treats an empty key as every key and an empty effect as every effect', () => {
    expect(after([{ operator: 'Exists' }])).to.deep.equal([{ operator: 'Exists' }]);
    expect(after([{ operator: 'Exists', effect: 'NoExecute' }])).to.deep.equal([{ operator: 'Exists', effect: 'NoExecute' }]);
    expect(after([{ operator: 'Exists', effect: 'NoSchedule' }])).to.have.length(3);
  });

  it('does not count a toleration of the key for another effect', () => {
    expect(toleratesNoExecute([{ key: TAINT_NODE_NOT_READY, operator: 'Exists', effect: 'NoSchedule' }], TAINT_NODE_NOT_READY)).to.equal(false);
  });

  it('runs on Pod creates and updates, not on subresources or other resources', async () => {
    const plugin = new DefaultTolerationSeconds(30, 40);
    expect(plugin.handles('CREATE') && plugin.handles('UPDATE')).to.equal(true);
    expect(plugin.handles('DELETE')).to.equal(false);
    const ctx = internalContext(ADMIN);
    const pod: Obj = { metadata: { name: 'p' }, spec: { containers: [] } };
    await plugin.admit(ctx, admissionAttrs(ADMIN, { operation: 'UPDATE', resource: 'pods', namespace: 'ns', name: 'p', object: pod }));
    expect((pod.spec as Obj).tolerations).to.deep.equal([notReady(30), unreachable(40)]);
    const other: Obj = { spec: {} };
    await plugin.admit(ctx, admissionAttrs(ADMIN, { resource: 'pods', subresource: 'ephemeralcontainers', namespace: 'ns', object: other }));
    await plugin.admit(ctx, admissionAttrs(ADMIN, { resource: 'podtemplates', namespace: 'ns', object: other }));
    expect(other.spec).to.deep.equal({});
  });
});
