import { expect } from 'chai';
import { StatusError } from '../../../../lib/apimachinery/errors.js';
import { apply, type ApplyConflict, conflictMessage, newApplyConflict, validateApplyConfig } from '../../../../lib/apimachinery/managedfields/index.js';
import { fieldSetOf } from '../../../../lib/apimachinery/managedfields/extract.js';
import { deployment } from '../../../../lib/apis/apps/v1/index.js';
import { configMap } from '../../../../lib/apis/core/v1/config-map.js';
import { applied, at, edited, entries, fieldsOf, LATER, NOW, type Obj, owners, stored, updated } from './helpers.js';
import { covers } from '../../../conformance/covers.js';

const cmSchema = configMap.schema;
const cm = (data: Record<string, string>): Obj => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'ns' }, data });

interface C {
  name: string;
  image?: string;
  ports?: Obj[];
  [k: string]: unknown;
}
const dep = (containers: C[], spec: Obj = {}): Obj => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'ns' },
  spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers } }, ...spec },
});
const depApply = (live: Obj | undefined, config: Obj, manager: string, force = false) =>
  apply({ live, config, manager, apiVersion: 'apps/v1', kind: 'Deployment', force, schema: deployment.schema, now: NOW });

describe('managedfields/apply: conflicts and their 409 Status', () => {
  const base = applied(deployment.schema, undefined, dep([{ name: 'nginx', image: 'nginx:1' }], { replicas: 1 }), 'alice');

  it('one conflict with an applier: singular message, one FieldManagerConflict cause', () => {
    const r = depApply(base, dep([{ name: 'nginx', image: 'nginx:2' }]), 'bob');
    const err = newApplyConflict(r.conflicts!);
    expect(err).to.be.instanceOf(StatusError);
    expect(err.status).to.deep.equal({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Apply failed with 1 conflict: conflict with "alice": .spec.template.spec.containers[name="nginx"].image',
      reason: 'Conflict',
      details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.spec.template.spec.containers[name="nginx"].image' }] },
      code: 409,
    });
  });

  it('several conflicts with several managers: plural message grouped by manager; updaters print their apiVersion', () => {
    const scaled = updated(deployment.schema, base, edited(base, (x) => (at(x, 'spec').replicas = 3)), 'hpa-controller');
    const r = depApply(scaled, dep([{ name: 'nginx', image: 'nginx:2' }], { replicas: 5, minReadySeconds: 1 }), 'bob');
    expect(r.conflicts!.map((c) => [c.manager, c.path])).to.deep.equal([
      ['alice', '.spec.template.spec.containers[name="nginx"].image'],
      ['hpa-controller', '.spec.replicas'],
    ]);
    expect(conflictMessage(r.conflicts!)).to.equal(
      'Apply failed with 2 conflicts: conflicts with "alice":\n- .spec.template.spec.containers[name="nginx"].image\nconflicts with "hpa-controller" using apps/v1:\n- .spec.replicas',
    );
    expect(newApplyConflict(r.conflicts!).status.details!.causes![1]).to.deep.equal({ reason: 'FieldManagerConflict', message: 'conflict with "hpa-controller" using apps/v1', field: '.spec.replicas' });
  });

  it('a manager of a subresource is printed with it', () => {
    const c: ApplyConflict = { manager: 'kubelet', operation: 'Update', apiVersion: 'v1', subresource: 'status', path: '.status.phase', identifier: '' };
    expect(conflictMessage([c])).to.equal('Apply failed with 1 conflict: conflict with "kubelet" with subresource "status" using v1: .status.phase');
  });

  it('force takes every conflicting field and leaves the object as applied', () => {
    const r = depApply(base, dep([{ name: 'nginx', image: 'nginx:2' }], { replicas: 4 }), 'bob', true);
    expect(r.conflicts).to.equal(undefined);
    const o = stored(r.object!, r.managedFields);
    expect(at(o, 'spec').replicas).to.equal(4);
    expect(fieldsOf(o, 'bob')).to.have.nested.property('f:spec.f:replicas');
    expect(JSON.stringify(fieldsOf(o, 'alice'))).not.to.contain('f:image').and.not.to.contain('f:replicas');
  });
});

describe('managedfields/apply: merging and releasing', () => {
  it('apply on a missing object creates it from the kind zero object; the applier owns exactly its fields', () => {
    const r = depApply(undefined, dep([{ name: 'nginx', image: 'nginx:1', ports: [{ containerPort: 80 }] }]), 'kubectl');
    expect(r.changed).to.equal(true);
    expect(at(r.object!, 'spec', 'template', 'spec').containers).to.deep.equal([{ name: 'nginx', image: 'nginx:1', ports: [{ containerPort: 80 }] }]);
    expect(r.managedFields).to.deep.equal([
      {
        manager: 'kubectl',
        operation: 'Apply',
        apiVersion: 'apps/v1',
        time: '2024-05-01T10:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:spec': {
            'f:selector': {},
            'f:template': {
              'f:metadata': { 'f:labels': { 'f:app': {} } },
              'f:spec': {
                'f:containers': {
                  'k:{"name":"nginx"}': { '.': {}, 'f:image': {}, 'f:name': {}, 'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } } },
                },
              },
            },
          },
        },
      },
    ]);
  });

  it(`map-lists merge by key: live order kept, new entries follow; set-lists union; atomic lists replaced${covers('000 § Merge strategy markers (schema extensions) › listType', '000 § Merge strategy markers (schema extensions) › listMapKey', '000 § Type and object metadata › finalizers')}`, () => {
    const live = applied(deployment.schema, undefined, dep([{ name: 'a' }, { name: 'b', args: ['x', 'y'] }, { name: 'c' }]), 'alice');
    const withFinalizer = applied(deployment.schema, live, { ...dep([]), metadata: { name: 'web', namespace: 'ns', finalizers: ['example.com/one'] } }, 'carol');
    const o = applied(deployment.schema, withFinalizer, { ...dep([{ name: 'c', image: 'img' }, { name: 'd' }, { name: 'b', args: ['z'] }]), metadata: { name: 'web', namespace: 'ns', finalizers: ['example.com/two'] } }, 'bob', { force: true });
    expect((at(o, 'spec', 'template', 'spec').containers as C[]).map((c) => c.name)).to.deep.equal(['a', 'c', 'd', 'b']);
    expect((at(o, 'spec', 'template', 'spec').containers as C[])[3]!.args).to.deep.equal(['z']);
    expect(at(o, 'metadata').finalizers).to.deep.equal(['example.com/one', 'example.com/two']);
  });

  it('an applier omitting an entry it alone owned removes it; one co-owned by another applier stays', () => {
    const two = applied(deployment.schema, undefined, dep([{ name: 'nginx', image: 'n' }, { name: 'sidecar', image: 's' }, { name: 'shared', image: 'x' }]), 'alice');
    const co = applied(deployment.schema, two, dep([{ name: 'shared', image: 'x' }]), 'bob');
    const o = applied(deployment.schema, co, dep([{ name: 'nginx', image: 'n' }]), 'alice');
    expect((at(o, 'spec', 'template', 'spec').containers as C[]).map((c) => c.name)).to.deep.equal(['nginx', 'shared']);
  });

  it('a field released by an applier but changed since by an updater is kept (the updater owns it)', () => {
    const live = applied(cmSchema, undefined, cm({ a: '1', b: '2' }), 'alice');
    const edited1 = updated(cmSchema, live, edited(live, (x) => (at(x, 'data').b = 'edited')), 'editor');
    const o = applied(cmSchema, edited1, cm({ a: '1' }), 'alice');
    expect(o.data).to.deep.equal({ a: '1', b: 'edited' });
  });

  it('the first apply to an object without entries records its fields for before-first-apply', () => {
    const legacy = stored(cm({ a: '1' }), undefined);
    const r = apply({ live: legacy, config: cm({ a: '2' }), manager: 'alice', apiVersion: 'v1', kind: 'ConfigMap', force: false, schema: cmSchema, now: NOW });
    expect(r.conflicts!.map((c) => [c.manager, c.operation, c.path])).to.deep.equal([['before-first-apply', 'Update', '.data.a']]);
    const o = applied(cmSchema, legacy, cm({ b: '2' }), 'alice');
    expect(owners(o)).to.deep.equal([['alice', 'Apply'], ['before-first-apply', 'Update']]);
    expect(fieldsOf(o, 'before-first-apply')).to.deep.equal({ 'f:data': { '.': {}, 'f:a': {} } });
  });

  it('an apply that changes nothing keeps the object and the entry time; a new co-owner entry has no time, as upstream', () => {
    const live = applied(cmSchema, undefined, cm({ a: '1' }), 'alice');
    const again = apply({ live, config: cm({ a: '1' }), manager: 'alice', apiVersion: 'v1', kind: 'ConfigMap', force: false, schema: cmSchema, now: LATER });
    expect(again.changed).to.equal(false);
    expect(again.managedFields).to.deep.equal(entries(live));
    const bob = apply({ live, config: cm({ a: '1' }), manager: 'bob', apiVersion: 'v1', kind: 'ConfigMap', force: false, schema: cmSchema, now: LATER });
    // Entries without a time sort first, as upstream (time 0).
    expect(bob.managedFields!.map((e) => [e.manager, e.time])).to.deep.equal([['bob', undefined], ['alice', '2024-05-01T10:00:00Z']]);
  });

  it('a changing apply stamps the applier entry with the time of the write', () => {
    const live = applied(cmSchema, undefined, cm({ a: '1' }), 'alice');
    const r = apply({ live, config: cm({ a: '2' }), manager: 'alice', apiVersion: 'v1', kind: 'ConfigMap', force: false, schema: cmSchema, now: LATER });
    expect(r.managedFields![0]!.time).to.equal('2024-05-01T11:00:00Z');
  });

  it('reset fields are merged but never owned and never in conflict', () => {
    const status = fieldSetOf([['status']]);
    const live = applied(deployment.schema, undefined, { ...dep([{ name: 'n' }]), status: { replicas: 1 } }, 'alice', { resetFields: status });
    expect(fieldsOf(live, 'alice')).not.to.have.property('f:status');
    const r = apply({ live, config: { ...dep([{ name: 'n' }]), status: { replicas: 7 } }, manager: 'bob', apiVersion: 'apps/v1', kind: 'Deployment', force: false, schema: deployment.schema, resetFields: status, now: NOW });
    expect(r.conflicts).to.equal(undefined);
  });

  it('an applier with nothing but untracked fields has no entry', () => {
    const r = apply({ live: undefined, config: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }, manager: 'a', apiVersion: 'v1', kind: 'ConfigMap', force: false, schema: cmSchema, now: NOW });
    expect(r.managedFields).to.equal(undefined);
  });
});

describe('managedfields/apply: invalid configurations', () => {
  const err = (f: () => unknown): StatusError => {
    try {
      f();
    } catch (e) {
      return e as StatusError;
    }
    return expect.fail('no error') as never;
  };

  it('a body of another kind or version is 400 invalid object type', () => {
    const e = err(() => validateApplyConfig({ apiVersion: 'v1', kind: 'Secret' }, 'v1', 'ConfigMap'));
    expect([e.code, e.status.reason, e.message]).to.deep.equal([400, 'BadRequest', 'invalid object type: /v1, Kind=Secret']);
    expect(err(() => validateApplyConfig({ apiVersion: 'apps/v1beta1', kind: 'Deployment' }, 'apps/v1', 'Deployment')).message).to.equal('invalid object type: apps/v1beta1, Kind=Deployment');
  });

  it('a body carrying metadata.managedFields (even []) is 400 metadata.managedFields must be nil; null is accepted', () => {
    for (const mf of [[], [{ manager: 'x' }]]) {
      const e = err(() => validateApplyConfig({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { managedFields: mf } }, 'v1', 'ConfigMap'));
      expect([e.code, e.message]).to.deep.equal([400, 'metadata.managedFields must be nil']);
    }
    expect(() => validateApplyConfig({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { managedFields: null } }, 'v1', 'ConfigMap')).not.to.throw();
  });

  it('a port omitting a key field without default (containerPort) is upstream\'s typed-object error', () => {
    const e = err(() => depApply(undefined, dep([{ name: 'nginx', ports: [{ name: 'http' }] }]), 'k'));
    expect(e.code).to.equal(400);
    expect(e.message).to.equal(
      'failed to create typed patch object (ns/web; apps/v1, Kind=Deployment): .spec.template.spec.containers[name="nginx"].ports: element 0: associative list with keys has an element that omits key field "containerPort" (and doesn\'t have default value)',
    );
  });

  it('two configuration entries with one key are an error', () => {
    const e = err(() => depApply(undefined, dep([{ name: 'a' }, { name: 'a' }]), 'k'));
    expect(e.message).to.contain('.spec.template.spec.containers: duplicate entries for key [name="a"]');
  });
});
