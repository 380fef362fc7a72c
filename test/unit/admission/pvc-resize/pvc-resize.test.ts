import { expect } from 'chai';
import { admissionAttrs, rejection } from '../attrs.js';
import type { AdmissionAttributes } from '../../../../lib/admission/interface.js';
import { NOT_BOUND_MESSAGE, NOT_EXPANDABLE_MESSAGE, PersistentVolumeClaimResize, claimClass } from '../../../../lib/admission/plugins/pvc-resize.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { BETA_STORAGE_CLASS_ANNOTATION } from '../../../../lib/apis/vendor.js';
import { internalContext } from '../../../../lib/request/context.js';

const USER = { name: 'alice', groups: [] };
const CLASSES: Record<string, Obj> = {
  grow: { metadata: { name: 'grow' }, allowVolumeExpansion: true },
  fixed: { metadata: { name: 'fixed' }, allowVolumeExpansion: false },
  unset: { metadata: { name: 'unset' } },
};
const plugin = new PersistentVolumeClaimResize(async (name) => CLASSES[name] ?? null);

function claim(storage: string | undefined, opts: { cls?: string; phase?: string; annotations?: Record<string, string> } = {}): Obj {
  return {
    metadata: { name: 'data', namespace: 'ns', ...(opts.annotations ? { annotations: opts.annotations } : {}) },
    spec: { storageClassName: opts.cls, resources: { requests: storage === undefined ? {} : { storage } } },
    status: { phase: opts.phase ?? 'Bound' },
  };
}

/** `<code> <message>` of the rejection, or '' when allowed. */
async function outcome(object: Obj, oldObject: Obj, a: Partial<AdmissionAttributes> = {}): Promise<string> {
  const attrs = admissionAttrs(USER, {
    operation: 'UPDATE',
    kind: 'PersistentVolumeClaim',
    resource: 'persistentvolumeclaims',
    namespace: 'ns',
    name: 'data',
    object,
    oldObject,
    ...a,
  });
  return rejection(plugin.validate(internalContext(USER), attrs));
}

describe('PersistentVolumeClaimResize admission (spec 001 § Admission control, upstream v1.30)', () => {
  it('allows growing a bound claim whose class allows expansion', async () => {
    expect(await outcome(claim('2Gi', { cls: 'grow' }), claim('1Gi', { cls: 'grow' }))).to.equal('');
  });

  it('allows keeping or shrinking the request whatever the class (validation decides on shrinking)', async () => {
    expect(await outcome(claim('1Gi', { cls: 'fixed', phase: 'Pending' }), claim('1024Mi', { cls: 'fixed', phase: 'Pending' }))).to.equal('');
    expect(await outcome(claim('1Gi', { cls: 'fixed' }), claim('2Gi', { cls: 'fixed' }))).to.equal('');
  });

  it('refuses growing a claim that is not bound', async () => {
    expect(await outcome(claim('2Gi', { cls: 'grow' }), claim('1Gi', { cls: 'grow', phase: 'Pending' }))).to.equal(
      `403 persistentvolumeclaims "data" is forbidden: ${NOT_BOUND_MESSAGE}`,
    );
    expect(NOT_BOUND_MESSAGE).to.equal('Only bound persistent volume claims can be expanded');
  });

  it('refuses growing when the class does not allow it, is missing, unknown, or changed', async () => {
    const refused = `403 persistentvolumeclaims "data" is forbidden: ${NOT_EXPANDABLE_MESSAGE}`;
    expect(NOT_EXPANDABLE_MESSAGE).to.equal('only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize');
    expect(await outcome(claim('2Gi', { cls: 'fixed' }), claim('1Gi', { cls: 'fixed' }))).to.equal(refused);
    expect(await outcome(claim('2Gi', { cls: 'unset' }), claim('1Gi', { cls: 'unset' }))).to.equal(refused);
    expect(await outcome(claim('2Gi'), claim('1Gi'))).to.equal(refused);
    expect(await outcome(claim('2Gi', { cls: 'nope' }), claim('1Gi', { cls: 'nope' }))).to.equal(refused);
    expect(await outcome(claim('2Gi', { cls: 'grow' }), claim('1Gi', { cls: 'fixed' }))).to.equal(refused);
  });

  it('takes the class from the beta annotation first', async () => {
    const annotations = { [BETA_STORAGE_CLASS_ANNOTATION]: 'grow' };
    expect(claimClass(claim('1Gi', { cls: 'fixed', annotations }))).to.equal('grow');
    expect(await outcome(claim('2Gi', { cls: 'fixed', annotations }), claim('1Gi', { cls: 'fixed', annotations }))).to.equal('');
  });

  it('treats a missing or unparsable old request as zero, and ignores subresources', async () => {
    expect(await outcome(claim('2Gi', { cls: 'fixed' }), claim(undefined, { cls: 'fixed' }))).to.not.equal('');
    expect(await outcome(claim('2Gi', { cls: 'fixed' }), claim('lots', { cls: 'fixed' }))).to.not.equal('');
    expect(await outcome(claim('2Gi', { cls: 'fixed' }), claim('1Gi', { cls: 'fixed' }), { subresource: 'status' })).to.equal('');
  });
});
