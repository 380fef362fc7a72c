import { expect } from 'chai';
import { Priority, defaultPriorityClass } from '../../../../lib/admission/plugins/priority.js';
import type { AdmissionAttributes } from '../../../../lib/admission/interface.js';
import { StatusError } from '../../../../lib/apimachinery/errors.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { vendorGroup } from '../../../../lib/apis/vendor.js';
import { internalContext } from '../../../../lib/request/context.js';
import { admissionAttrs } from '../attrs.js';

const ADMIN = { name: 'admin', groups: ['system:masters'] };
const SCHEDULING = vendorGroup('scheduling');

const pc = (name: string, value: number, extra: Obj = {}): Obj => ({ metadata: { name }, value, preemptionPolicy: 'PreemptLowerPriority', ...extra });

/** The plugin over `cached` (the informer's view) and `live` (only a live read finds them). */
function pluginOver(cached: Obj[], live: Obj[] = []): Priority {
  const byName = (list: Obj[], name: string) => list.find((o) => (o.metadata as Obj).name === name);
  return new Priority({
    lister: { get: (_ns, name) => byName(cached, name), list: () => [...cached], generation: () => 0 },
    get: async (name) => byName(live, name) ?? null,
  });
}

const podAttrs = (spec: Obj, a: Partial<AdmissionAttributes> = {}) =>
  admissionAttrs(ADMIN, { resource: 'pods', namespace: 'ns', name: 'p', object: { metadata: { name: 'p', namespace: 'ns' }, spec }, ...a });

/** Runs admit on a pod with `spec`; the resulting spec, or the rejection as `<code> <message>`. */
async function admitPod(plugin: Priority, spec: Obj, a: Partial<AdmissionAttributes> = {}): Promise<Obj | string> {
  const attrs = podAttrs(spec, a);
  try {
    await plugin.admit(internalContext(ADMIN), attrs);
    return attrs.object!.spec as Obj;
  } catch (err) {
    if (!(err instanceof StatusError)) throw err;
    return `${err.status.code} ${err.status.message}`;
  }
}

/** Runs validate on a PriorityClass write; '' when admitted, else `<code> <message>`. */
async function validateClass(plugin: Priority, op: 'CREATE' | 'UPDATE', obj: Obj): Promise<string> {
  const name = (obj.metadata as Obj).name as string;
  try {
    await plugin.validate(internalContext(ADMIN), admissionAttrs(ADMIN, { operation: op, group: SCHEDULING, resource: 'priorityclasses', name, object: obj }));
    return '';
  } catch (err) {
    if (!(err instanceof StatusError)) throw err;
    return `${err.status.code} ${err.status.message}`;
  }
}

describe('Priority admission (spec 001 § Admission control)', () => {
  describe('pods', () => {
    it('resolves the named class to its value and preemption policy', async () => {
      const plugin = pluginOver([pc('high', 1000, { preemptionPolicy: 'Never' })]);
      expect(await admitPod(plugin, { priorityClassName: 'high' })).to.deep.equal({ priorityClassName: 'high', priority: 1000, preemptionPolicy: 'Never' });
    });

    it('reads a class the informer does not have yet', async () => {
      expect(await admitPod(pluginOver([], [pc('fresh', 7)]), { priorityClassName: 'fresh' })).to.include({ priority: 7 });
    });

    it('gives a pod naming no class the global default class, its name and value', async () => {
      const plugin = pluginOver([pc('a', 5), pc('d', 100, { globalDefault: true, preemptionPolicy: 'Never' })]);
      expect(await admitPod(plugin, {})).to.deep.equal({ priorityClassName: 'd', priority: 100, preemptionPolicy: 'Never' });
    });

    it('picks the lowest value when several classes are the default', () => {
      expect(defaultPriorityClass([pc('x', 10, { globalDefault: true }), pc('y', 3, { globalDefault: true }), pc('z', 1)])).to.deep.include({ value: 3 });
      expect(defaultPriorityClass([pc('z', 1)])).to.equal(undefined);
    });

    it('gives priority 0 and PreemptLowerPriority when no class is named and none is the default', async () => {
      expect(await admitPod(pluginOver([pc('a', 5)]), {})).to.deep.equal({ priority: 0, preemptionPolicy: 'PreemptLowerPriority' });
    });

    it('rejects an unknown class', async () => {
      expect(await admitPod(pluginOver([]), { priorityClassName: 'nope' })).to.equal('403 pods "p" is forbidden: no PriorityClass with name nope was found');
    });

    it('rejects a priority that differs from the computed one, and accepts an equal one', async () => {
      const plugin = pluginOver([pc('high', 1000)]);
      expect(await admitPod(plugin, { priorityClassName: 'high', priority: 5 })).to.equal(
        '403 pods "p" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name',
      );
      expect(await admitPod(plugin, { priorityClassName: 'high', priority: 1000 })).to.include({ priority: 1000 });
      expect(await admitPod(pluginOver([]), { priority: 1 })).to.match(/priority \(1\) must not be provided in pod spec; priority admission controller computed 0 from/);
    });

    it('rejects a preemption policy that differs from the class’s', async () => {
      expect(await admitPod(pluginOver([pc('high', 1000)]), { priorityClassName: 'high', preemptionPolicy: 'Never' })).to.equal(
        '403 pods "p" is forbidden: the string value of PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller computed PreemptLowerPriority from the given PriorityClass name',
      );
    });

    it('leaves the pod’s preemption policy when the class has none', async () => {
      const plugin = pluginOver([{ metadata: { name: 'bare' }, value: 1 }]);
      expect(await admitPod(plugin, { priorityClassName: 'bare', preemptionPolicy: 'Never' })).to.deep.equal({ priorityClassName: 'bare', priority: 1, preemptionPolicy: 'Never' });
    });

    it('keeps the stored priority and preemption policy on update when the new object omits them', async () => {
      const plugin = pluginOver([]);
      const oldObject = { spec: { priority: 10, preemptionPolicy: 'Never', priorityClassName: 'gone' } };
      expect(await admitPod(plugin, { priorityClassName: 'gone' }, { operation: 'UPDATE', oldObject })).to.deep.equal({
        priorityClassName: 'gone',
        priority: 10,
        preemptionPolicy: 'Never',
      });
      expect(await admitPod(plugin, { priority: 3 }, { operation: 'UPDATE', oldObject })).to.deep.equal({ priority: 3, preemptionPolicy: 'Never' });
    });

    it('ignores subresources and other resources', async () => {
      const plugin = pluginOver([]);
      expect(await admitPod(plugin, { priorityClassName: 'nope' }, { subresource: 'status' })).to.deep.equal({ priorityClassName: 'nope' });
      expect(await admitPod(plugin, { priorityClassName: 'nope' }, { resource: 'podtemplates' })).to.deep.equal({ priorityClassName: 'nope' });
    });
  });

  describe('priority classes', () => {
    const plugin = pluginOver([pc('d', 100, { globalDefault: true }), pc('other', 1)]);

    it('rejects a second global default on create', async () => {
      expect(await validateClass(plugin, 'CREATE', pc('new', 5, { globalDefault: true }))).to.equal(
        '403 priorityclasses.' + SCHEDULING + ' "new" is forbidden: PriorityClass d is already marked as default. Only one default can exist',
      );
    });

    it('rejects making another class the default, and lets the default class itself be updated', async () => {
      expect(await validateClass(plugin, 'UPDATE', pc('other', 1, { globalDefault: true }))).to.match(/PriorityClass d is already marked as default/);
      expect(await validateClass(plugin, 'UPDATE', pc('d', 100, { globalDefault: true, description: 'x' }))).to.equal('');
    });

    it('admits classes that are not the default, and any default when there is none', async () => {
      expect(await validateClass(plugin, 'CREATE', pc('plain', 5))).to.equal('');
      expect(await validateClass(pluginOver([pc('other', 1)]), 'CREATE', pc('new', 5, { globalDefault: true }))).to.equal('');
    });
  });
});
