import { expect } from 'chai';
import { admissionAttrs } from '../attrs.js';
import type { AdmissionAttributes } from '../../../../lib/admission/interface.js';
import { DefaultStorageClass, defaultStorageClasses, isDefaultStorageClass } from '../../../../lib/admission/plugins/default-storage-class.js';
import type { Obj } from '../../../../lib/apis/define.js';
import { BETA_STORAGE_CLASS_ANNOTATION, DEFAULT_STORAGE_CLASS_ANNOTATIONS } from '../../../../lib/apis/vendor.js';
import { internalContext } from '../../../../lib/request/context.js';

const USER = { name: 'alice', groups: [] };
const [GA, BETA, UPSTREAM_GA] = DEFAULT_STORAGE_CLASS_ANNOTATIONS as [string, string, string];

function sc(name: string, created: string, annotations: Record<string, string> = {}): Obj {
  return { metadata: { name, creationTimestamp: created, annotations } };
}

function plugin(classes: Obj[]): DefaultStorageClass {
  return new DefaultStorageClass({ get: () => undefined, list: () => classes, generation: () => 0 });
}

function claimAttrs(object: Obj, a: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  return admissionAttrs(USER, { kind: 'PersistentVolumeClaim', resource: 'persistentvolumeclaims', namespace: 'ns', name: 'c', object, ...a });
}

const claim = (spec: Obj = {}, annotations?: Record<string, string>): Obj => ({ metadata: { name: 'c', ...(annotations ? { annotations } : {}) }, spec });

describe('DefaultStorageClass admission (spec 001 § Admission control, upstream v1.30)', () => {
  it('recognizes the default annotations (ours, the beta spelling, upstream\'s) only with value "true"', () => {
    expect(isDefaultStorageClass(sc('a', '', { [GA]: 'true' }))).to.equal(true);
    expect(isDefaultStorageClass(sc('a', '', { [BETA]: 'true' }))).to.equal(true);
    expect(isDefaultStorageClass(sc('a', '', { [UPSTREAM_GA]: 'true' }))).to.equal(true);
    expect(isDefaultStorageClass(sc('a', '', { [GA]: 'True' }))).to.equal(false);
    expect(isDefaultStorageClass(sc('a', ''))).to.equal(false);
  });

  it('finds every default class', () => {
    const old = sc('old', '2024-01-01T00:00:00Z', { [GA]: 'true' });
    const newer = sc('newer', '2024-02-01T00:00:00Z', { [BETA]: 'true' });
    const plain = sc('plain', '2025-01-01T00:00:00Z');
    expect(defaultStorageClasses([old, newer, plain])).to.deep.equal([old, newer]);
    expect(defaultStorageClasses([plain])).to.deep.equal([]);
  });

  it('rejects a claim without a class while several classes are default (spec 001)', async () => {
    const object = claim({ accessModes: ['ReadWriteOnce'] });
    const classes = [sc('a', '2024-01-01T00:00:00Z', { [GA]: 'true' }), sc('b', '2024-02-01T00:00:00Z', { [BETA]: 'true' })];
    const err = await plugin(classes).admit(internalContext(USER), claimAttrs(object)).catch((e: unknown) => e);
    expect(err).to.have.nested.property('status.code', 403);
    expect((err as { status: { message: string } }).status.message).to.match(/^persistentvolumeclaims ".*" is forbidden: Internal error occurred: 2 default StorageClasses were found$/);
  });

  it('sets the default class on a claim created without one', async () => {
    const object = claim({ accessModes: ['ReadWriteOnce'] });
    await plugin([sc('fast', '2024-01-01T00:00:00Z', { [GA]: 'true' })]).admit(internalContext(USER), claimAttrs(object));
    expect(object.spec).to.deep.equal({ accessModes: ['ReadWriteOnce'], storageClassName: 'fast' });
  });

  it('leaves claims that name a class (even "" or by the beta annotation), updates, subresources and other resources alone', async () => {
    const p = plugin([sc('fast', '2024-01-01T00:00:00Z', { [GA]: 'true' })]);
    const cases: [Obj, Partial<AdmissionAttributes>][] = [
      [claim({ storageClassName: '' }), {}],
      [claim({ storageClassName: 'slow' }), {}],
      [claim({}, { [BETA_STORAGE_CLASS_ANNOTATION]: '' }), {}],
      [claim({}), { subresource: 'status' }],
      [claim({}), { resource: 'persistentvolumes', kind: 'PersistentVolume', namespace: '' }],
    ];
    for (const [object, a] of cases) {
      const before = JSON.stringify(object);
      await p.admit(internalContext(USER), claimAttrs(object, a));
      expect(JSON.stringify(object)).to.equal(before);
    }
    expect(p.handles('UPDATE')).to.equal(false);
    expect(p.handles('CREATE')).to.equal(true);
  });

  it('does nothing when no class is default', async () => {
    const object = claim({});
    await plugin([sc('plain', '2024-01-01T00:00:00Z')]).admit(internalContext(USER), claimAttrs(object));
    expect(object.spec).to.deep.equal({});
  });
});
