import { expect } from 'chai';
import type { AdmissionAttributes } from '../../../../lib/admission/interface.js';
import { RuntimeClass, resourceListsEqual } from '../../../../lib/admission/plugins/runtime-class/plugin.js';
import { StatusError } from '../../../../lib/apimachinery/errors.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { internalContext } from '../../../../lib/request/context.js';
import { admissionAttrs } from '../attrs.js';

const ADMIN = { name: 'admin', groups: ['system:masters'] };
const CLASSES: Record<string, Obj> = {
  kata: { metadata: { name: 'kata' }, handler: 'kata', overhead: { podFixed: { cpu: '250m', memory: '120Mi' } } },
  gvisor: {
    metadata: { name: 'gvisor' },
    handler: 'runsc',
    scheduling: { nodeSelector: { sandbox: 'gvisor' }, tolerations: [{ key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' }] },
  },
  plain: { metadata: { name: 'plain' }, handler: 'runc' },
};
const LIVE: Record<string, Obj> = { late: { metadata: { name: 'late' }, handler: 'x', overhead: { podFixed: { cpu: '1' } } } };

const plugin = new RuntimeClass({
  lister: { get: (_ns, name) => CLASSES[name], list: () => Object.values(CLASSES), generation: () => 0 },
  get: async (name) => LIVE[name] ?? null,
});

/** Runs `phase` on a pod with `spec`: the resulting spec, or the rejection as `<code> <message>`. */
async function run(phase: 'admit' | 'validate', spec: Obj, a: Partial<AdmissionAttributes> = {}): Promise<Obj | string> {
  const attrs = admissionAttrs(ADMIN, { resource: 'pods', namespace: 'ns', name: 'p', object: { metadata: { name: 'p' }, spec }, ...a });
  try {
    await plugin[phase](internalContext(ADMIN), attrs);
    return attrs.object!.spec as Obj;
  } catch (err) {
    if (!(err instanceof StatusError)) throw err;
    return `${err.status.code} ${err.status.message}`;
  }
}

describe('RuntimeClass admission (spec 001 § Admission control)', () => {
  it('leaves a pod naming no class untouched', async () => {
    expect(await run('admit', { containers: [] })).to.deep.equal({ containers: [] });
  });

  it('rejects a pod naming an unknown class, in both phases', async () => {
    const msg = '403 pods "p" is forbidden: pod rejected: RuntimeClass "nope" not found';
    expect(await run('admit', { runtimeClassName: 'nope' })).to.equal(msg);
    expect(await run('validate', { runtimeClassName: 'nope' })).to.equal(msg);
  });

  it('sets the class overhead, reading a class the informer lacks', async () => {
    expect(await run('admit', { runtimeClassName: 'kata' })).to.deep.equal({ runtimeClassName: 'kata', overhead: { cpu: '250m', memory: '120Mi' } });
    expect(await run('admit', { runtimeClassName: 'late' })).to.deep.include({ overhead: { cpu: '1' } });
  });

  it('accepts a pod overhead equal in value to the class’s, and rejects a different one', async () => {
    expect(await run('admit', { runtimeClassName: 'kata', overhead: { cpu: '0.25', memory: '120Mi' } })).to.deep.include({ overhead: { cpu: '250m', memory: '120Mi' } });
    const msg = '403 pods "p" is forbidden: pod rejected: Pod\'s Overhead doesn\'t match RuntimeClass\'s defined Overhead';
    expect(await run('admit', { runtimeClassName: 'kata', overhead: { cpu: '1' } })).to.equal(msg);
    expect(await run('validate', { runtimeClassName: 'kata', overhead: { cpu: '250m' } })).to.equal(msg);
  });

  it('rejects an overhead without a class that defines one (validating phase)', async () => {
    const msg = '403 pods "p" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead';
    expect(await run('validate', { overhead: { cpu: '1' } })).to.equal(msg);
    expect(await run('validate', { runtimeClassName: 'plain', overhead: { cpu: '1' } })).to.equal(msg);
    expect(await run('validate', { runtimeClassName: 'kata', overhead: { memory: '120Mi', cpu: '250m' } })).to.be.an('object');
  });

  it('merges the class node selector and tolerations into the pod', async () => {
    expect(
      await run('admit', {
        runtimeClassName: 'gvisor',
        nodeSelector: { zone: 'a' },
        tolerations: [{ key: 'sandbox', operator: 'Equal', value: 'x', effect: 'NoSchedule' }, { key: 'z', operator: 'Exists' }],
      }),
    ).to.deep.equal({
      runtimeClassName: 'gvisor',
      nodeSelector: { zone: 'a', sandbox: 'gvisor' },
      tolerations: [
        { key: 'z', operator: 'Exists' },
        { key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' },
      ],
    });
    expect(await run('admit', { runtimeClassName: 'gvisor' })).to.deep.equal({
      runtimeClassName: 'gvisor',
      nodeSelector: { sandbox: 'gvisor' },
      tolerations: [{ key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' }],
    });
  });

  it('rejects a node selector conflicting with the class’s', async () => {
    expect(await run('admit', { runtimeClassName: 'gvisor', nodeSelector: { sandbox: 'kata' } })).to.equal(
      '403 pods "p" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[sandbox] = gvisor; pod.spec.nodeSelector[sandbox] = kata',
    );
  });

  it('ignores subresources, other resources and non-creates', async () => {
    expect(plugin.handles('UPDATE')).to.equal(false);
    expect(await run('admit', { runtimeClassName: 'nope' }, { subresource: 'binding' })).to.deep.equal({ runtimeClassName: 'nope' });
    expect(await run('validate', { overhead: { cpu: '1' } }, { resource: 'podtemplates' })).to.deep.equal({ overhead: { cpu: '1' } });
  });

  it('compares resource lists by key and value', () => {
    expect(resourceListsEqual({ cpu: '1', memory: '1Gi' }, { memory: '1024Mi', cpu: '1000m' })).to.equal(true);
    expect(resourceListsEqual({ cpu: '1' }, { cpu: '1', memory: '1Gi' })).to.equal(false);
    expect(resourceListsEqual({ cpu: '1' }, { memory: '1' })).to.equal(false);
    expect(resourceListsEqual({ cpu: 'bad' }, { cpu: 'bad' })).to.equal(false);
  });
});
