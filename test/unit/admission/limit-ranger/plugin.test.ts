import { expect } from 'chai';
import { admissionAttrs } from '../attrs.js';
import type { AdmissionAttributes } from '../../../../lib/admission/interface.js';
import { LimitRanger } from '../../../../lib/admission/plugins/limit-ranger/plugin.js';
import { StatusError } from '../../../../lib/apimachinery/errors.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { LIMIT_RANGER_ANNOTATION } from '../../../../lib/apis/vendor.js';
import { internalContext } from '../../../../lib/request/context.js';

const USER = { name: 'alice', groups: [] };
const ctx = internalContext(USER);

/** A LimitRanger over fixed LimitRanges by namespace. */
function ranger(byNamespace: Record<string, Obj[]>): LimitRanger {
  return new LimitRanger({ forNamespace: async (ns) => byNamespace[ns] ?? [] });
}

function limitRange(...limits: Obj[]): Obj {
  return { metadata: { name: 'lr', namespace: 'ns' }, spec: { limits } };
}

function pod(containers: Obj[], extra: Obj = {}): Obj {
  return { metadata: { name: 'p', namespace: 'ns' }, spec: { containers, ...extra } };
}

function podAttrs(object: Obj, a: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  return admissionAttrs(USER, { kind: 'Pod', resource: 'pods', namespace: 'ns', name: 'p', object, ...a });
}

function claimAttrs(object: Obj, a: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  return admissionAttrs(USER, { kind: 'PersistentVolumeClaim', resource: 'persistentvolumeclaims', namespace: 'ns', name: 'c', object, ...a });
}

/** `<code> <message>` of the rejection, or '' when admitted. */
async function validation(plugin: LimitRanger, a: AdmissionAttributes): Promise<string> {
  try {
    await plugin.validate(ctx, a);
    return '';
  } catch (err) {
    if (!(err instanceof StatusError)) throw err;
    return `${err.status.code} ${err.status.message}`;
  }
}

const DEFAULTS = limitRange({ type: 'Container', default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '100m', memory: '128Mi' } });

describe('LimitRanger admission (spec 001 § Admission control, upstream v1.30)', () => {
  describe('mutating phase', () => {
    it('sets missing requests and limits from the Container defaults and annotates the pod', async () => {
      const object = pod([{ name: 'app', image: 'i' }]);
      await ranger({ ns: [DEFAULTS] }).admit(ctx, podAttrs(object));
      expect((object.spec as Obj).containers).to.deep.equal([
        { name: 'app', image: 'i', resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } } },
      ]);
      expect((object.metadata as Obj).annotations).to.deep.equal({
        [LIMIT_RANGER_ANNOTATION]: 'LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app',
      });
    });

    it('keeps what the container sets, names init containers, and is idempotent', async () => {
      const object = pod([{ name: 'app', resources: { requests: { cpu: '1' }, limits: { cpu: '2', memory: '1Gi' } } }], {
        initContainers: [{ name: 'init', resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } } }],
      });
      (object.metadata as Obj).annotations = { keep: 'me' };
      const plugin = ranger({ ns: [DEFAULTS] });
      await plugin.admit(ctx, podAttrs(object));
      await plugin.admit(ctx, podAttrs(object));
      const [app] = (object.spec as Obj).containers as Obj[];
      expect(app!.resources).to.deep.equal({ requests: { cpu: '1', memory: '128Mi' }, limits: { cpu: '2', memory: '1Gi' } });
      expect((object.metadata as Obj).annotations).to.deep.equal({ keep: 'me', [LIMIT_RANGER_ANNOTATION]: 'LimitRanger plugin set: memory request for container app' });

      const withInit = pod([{ name: 'app', resources: { requests: { cpu: '1', memory: '1' }, limits: { cpu: '1', memory: '1' } } }], { initContainers: [{ name: 'setup' }] });
      await plugin.admit(ctx, podAttrs(withInit));
      expect((withInit.metadata as Obj).annotations).to.deep.equal({
        [LIMIT_RANGER_ANNOTATION]: 'LimitRanger plugin set: cpu, memory request for init container setup; cpu, memory limit for init container setup',
      });
    });

    it('leaves pod updates, subresources, other kinds and namespaces without LimitRanges alone', async () => {
      const plugin = ranger({ ns: [DEFAULTS] });
      for (const a of [
        podAttrs(pod([{ name: 'app' }]), { operation: 'UPDATE', oldObject: pod([{ name: 'app' }]) }),
        podAttrs(pod([{ name: 'app' }]), { subresource: 'status' }),
        podAttrs(pod([{ name: 'app' }]), { namespace: 'other' }),
        podAttrs(pod([{ name: 'app' }]), { kind: 'PodTemplate', resource: 'podtemplates' }),
      ]) {
        await plugin.admit(ctx, a);
        expect((a.object!.spec as Obj).containers).to.deep.equal([{ name: 'app' }]);
      }
    });
  });

  describe('validating phase', () => {
    const bounds = limitRange({ type: 'Container', min: { cpu: '100m' }, max: { cpu: '1', memory: '1Gi' }, maxLimitRequestRatio: { cpu: '4' } });

    it('rejects a container over the maximum with every violation, bracketed', async () => {
      const object = pod([{ name: 'app', resources: { requests: { cpu: '200m', memory: '2Gi' }, limits: { cpu: '2', memory: '2Gi' } } }]);
      expect(await validation(ranger({ ns: [bounds] }), podAttrs(object))).to.equal(
        '403 pods "p" is forbidden: [maximum cpu usage per Container is 1, but limit is 2, maximum memory usage per Container is 1Gi, but limit is 2Gi, ' +
          'cpu max limit to request ratio per Container is 4, but provided ratio is 10.000000]',
      );
    });

    it('rejects with a single message unbracketed, checks init containers, admits what fits', async () => {
      const ok = { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } };
      const plugin = ranger({ ns: [bounds] });
      expect(await validation(plugin, podAttrs(pod([{ name: 'app', resources: ok }])))).to.equal('');
      expect(await validation(plugin, podAttrs(pod([{ name: 'app', resources: ok }], { initContainers: [{ name: 'init', resources: { requests: { cpu: '50m' }, limits: { cpu: '100m', memory: '1Gi' } } }] })))).to.equal(
        '403 pods "p" is forbidden: minimum cpu usage per Container is 100m, but request is 50m',
      );
    });

    it('checks Pod items against the pod total and names a generated pod by its generateName', async () => {
      const lr = limitRange({ type: 'Pod', max: { cpu: '1' } });
      const object = pod([
        { name: 'a', resources: { requests: { cpu: '600m' }, limits: { cpu: '600m' } } },
        { name: 'b', resources: { requests: { cpu: '600m' }, limits: { cpu: '600m' } } },
      ]);
      object.metadata = { generateName: 'web-', namespace: 'ns' };
      expect(await validation(ranger({ ns: [lr] }), podAttrs(object, { name: '' }))).to.equal(
        '403 pods "web-" is forbidden: maximum cpu usage per Pod is 1, but limit is 1200m',
      );
    });

    it('stops at the first LimitRange violated', async () => {
      const first = limitRange({ type: 'Container', max: { cpu: '1' } });
      const second = limitRange({ type: 'Container', max: { memory: '1Gi' } });
      const object = pod([{ name: 'app', resources: { limits: { cpu: '2', memory: '2Gi' } } }]);
      expect(await validation(ranger({ ns: [first, second] }), podAttrs(object))).to.equal(
        '403 pods "p" is forbidden: maximum cpu usage per Container is 1, but limit is 2',
      );
    });

    it('checks claims on create and update against PersistentVolumeClaim items', async () => {
      const lr = limitRange({ type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '10Gi' } });
      const claim = (storage?: string): Obj => ({ metadata: { name: 'c' }, spec: { resources: { requests: storage ? { storage } : {} } } });
      const plugin = ranger({ ns: [lr] });
      expect(await validation(plugin, claimAttrs(claim('5Gi')))).to.equal('');
      expect(await validation(plugin, claimAttrs(claim('500Mi')))).to.equal(
        '403 persistentvolumeclaims "c" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi',
      );
      expect(await validation(plugin, claimAttrs(claim()))).to.equal(
        '403 persistentvolumeclaims "c" is forbidden: [minimum storage usage per PersistentVolumeClaim is 1Gi.  No request is specified, maximum storage usage per PersistentVolumeClaim is 10Gi.  No request is specified]',
      );
      expect(await validation(plugin, claimAttrs(claim('20Gi'), { operation: 'UPDATE', oldObject: claim('5Gi') }))).to.equal(
        '403 persistentvolumeclaims "c" is forbidden: maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi',
      );
    });

    it('ignores updates of objects being deleted, pod updates and subresources', async () => {
      const lr = limitRange({ type: 'PersistentVolumeClaim', max: { storage: '1Gi' } });
      const big: Obj = { metadata: { name: 'c' }, spec: { resources: { requests: { storage: '5Gi' } } } };
      const deleting: Obj = { metadata: { name: 'c', deletionTimestamp: '2024-01-01T00:00:00Z' }, spec: {} };
      const plugin = ranger({ ns: [lr, limitRange({ type: 'Container', max: { cpu: '1' } })] });
      expect(await validation(plugin, claimAttrs(big, { operation: 'UPDATE', oldObject: deleting }))).to.equal('');
      expect(await validation(plugin, claimAttrs(big, { subresource: 'status', operation: 'UPDATE', oldObject: big }))).to.equal('');
      const p = pod([{ name: 'app', resources: { limits: { cpu: '2' } } }]);
      expect(await validation(plugin, podAttrs(p, { operation: 'UPDATE', oldObject: p }))).to.equal('');
    });

    it('turns a failed LimitRange lookup into a 403', async () => {
      const failing = new LimitRanger({ forNamespace: async () => Promise.reject(new Error('etcd is down')) });
      expect(await validation(failing, podAttrs(pod([{ name: 'app' }])))).to.equal('403 pods "p" is forbidden: etcd is down');
    });
  });
});
