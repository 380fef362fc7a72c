import { expect } from 'chai';
import { admissionAttrs } from '../attrs.js';
import type { AdmissionAttributes } from '../../../../lib/admission/interface.js';
import { StorageObjectInUseProtection } from '../../../../lib/admission/plugins/storage-object-in-use-protection.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { PVC_PROTECTION_FINALIZER, PV_PROTECTION_FINALIZER } from '../../../../lib/apis/vendor.js';
import { internalContext } from '../../../../lib/request/context.js';

const USER = { name: 'alice', groups: [] };
const plugin = new StorageObjectInUseProtection();

async function admitted(object: Obj, a: Partial<AdmissionAttributes>): Promise<unknown> {
  await plugin.admit(internalContext(USER), admissionAttrs(USER, { object, ...a }));
  return (object.metadata as Obj).finalizers;
}

const PVC = { kind: 'PersistentVolumeClaim', resource: 'persistentvolumeclaims', namespace: 'ns' };
const PV = { kind: 'PersistentVolume', resource: 'persistentvolumes' };

describe('StorageObjectInUseProtection admission (spec 001 § Admission control, upstream v1.30)', () => {
  it('adds the PVC protection finalizer to a new claim, after any it has', async () => {
    expect(await admitted({ metadata: { name: 'c' } }, PVC)).to.deep.equal([PVC_PROTECTION_FINALIZER]);
    expect(await admitted({ metadata: { name: 'c', finalizers: ['example.com/x'] } }, PVC)).to.deep.equal(['example.com/x', PVC_PROTECTION_FINALIZER]);
  });

  it('adds the PV protection finalizer to a new volume', async () => {
    expect(await admitted({ metadata: { name: 'v' } }, PV)).to.deep.equal([PV_PROTECTION_FINALIZER]);
  });

  it('does not add it twice, and leaves subresources and other resources alone', async () => {
    expect(await admitted({ metadata: { name: 'v', finalizers: [PV_PROTECTION_FINALIZER] } }, PV)).to.deep.equal([PV_PROTECTION_FINALIZER]);
    expect(await admitted({ metadata: { name: 'c' } }, { ...PVC, subresource: 'status' })).to.equal(undefined);
    expect(await admitted({ metadata: { name: 'p' } }, { kind: 'Pod', resource: 'pods', namespace: 'ns' })).to.equal(undefined);
    expect(plugin.handles('UPDATE')).to.equal(false);
  });
});
