import { expect } from 'chai';
import { fieldSetOf } from '../../../../lib/apimachinery/managedfields/extract.js';
import { update } from '../../../../lib/apimachinery/managedfields/index.js';
import { deployment } from '../../../../lib/apis/apps/v1/index.js';
import { configMap } from '../../../../lib/apis/core/v1/config-map.js';
import { applied, at, edited, entries, fieldsOf, LATER, NOW, type Obj, owners, stored, updated } from './helpers.js';

const schema = configMap.schema;
const cm = (data: Record<string, string>, labels?: Record<string, string>): Obj => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cfg', namespace: 'ns', ...(labels ? { labels } : {}) },
  data,
});

describe('managedfields/update: non-apply writes', () => {
  it('a create records every field for the creator, new maps and lists marked "." as upstream', () => {
    const d = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'ns', labels: { app: 'web' } },
      spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx', ports: [{ containerPort: 80, protocol: 'TCP' }] }] } } },
    };
    const mf = update({ live: undefined, updated: d, manager: 'kubectl-create', apiVersion: 'apps/v1', schema: deployment.schema, now: NOW });
    expect(mf).to.deep.equal([
      {
        manager: 'kubectl-create',
        operation: 'Update',
        apiVersion: 'apps/v1',
        time: '2024-05-01T10:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
          'f:spec': {
            'f:replicas': {},
            'f:selector': {},
            'f:template': {
              'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
              'f:spec': {
                'f:containers': {
                  'k:{"name":"nginx"}': {
                    '.': {},
                    'f:image': {},
                    'f:name': {},
                    'f:ports': { '.': {}, 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:protocol': {} } },
                  },
                },
              },
            },
          },
        },
      },
    ]);
  });

  it('a write that changes only fields its manager owns keeps the entry\'s fieldsV1 object (no encoding)', () => {
    const live = updated(schema, undefined, cm({ a: '1', b: '1' }), 'writer');
    const owned = fieldsOf(live, 'writer');
    const same = updated(schema, live, edited(live, (x) => (at(x, 'data').a = '2')), 'writer', { now: LATER });
    expect(fieldsOf(same, 'writer')).to.equal(owned);
    expect(entries(same)[0]!.time).to.equal('2024-05-01T11:00:00Z');
    const grown = updated(schema, live, edited(live, (x) => (at(x, 'data').c = '3')), 'writer', { now: LATER });
    expect(fieldsOf(grown, 'writer')).to.deep.equal({ 'f:data': { '.': {}, 'f:a': {}, 'f:b': {}, 'f:c': {} } });
  });

  it('updates of one manager at one apiVersion merge into one entry (union of fields, latest time)', () => {
    const live = updated(schema, undefined, cm({ a: '1' }), 'writer');
    const o = updated(schema, live, edited(live, (x) => (at(x, 'data').b = '2')), 'writer', { now: LATER });
    expect(owners(o)).to.deep.equal([['writer', 'Update']]);
    expect(fieldsOf(o, 'writer')).to.deep.equal({ 'f:data': { '.': {}, 'f:a': {}, 'f:b': {} } });
    expect(entries(o)[0]!.time).to.equal('2024-05-01T11:00:00Z');
  });

  it('another apiVersion, or an apply of the same manager, is a separate entry', () => {
    const live = updated(schema, undefined, cm({ a: '1' }), 'writer');
    const v2 = updated(schema, live, { ...edited(live, (x) => (at(x, 'data').b = '2')), apiVersion: 'v2' }, 'writer');
    expect(entries(v2).map((e) => [e.manager, e.operation, e.apiVersion])).to.deep.equal([
      ['writer', 'Update', 'v1'],
      ['writer', 'Update', 'v2'],
    ]);
    const both = applied(schema, live, cm({ a: '1', c: '3' }), 'writer');
    expect(owners(both)).to.deep.equal([['writer', 'Apply'], ['writer', 'Update']]);
  });

  it('a write that changes nothing adds no entry and keeps times', () => {
    const live = updated(schema, undefined, cm({ a: '1' }), 'writer');
    const o = updated(schema, live, edited(live, () => undefined), 'other', { now: LATER });
    expect(entries(o)).to.deep.equal(entries(live));
  });

  it('a write that only removes fields takes them from their owners without creating an entry', () => {
    const live = applied(schema, undefined, cm({ a: '1', b: '2' }), 'alice');
    const o = updated(schema, live, edited(live, (x) => delete at(x, 'data').b), 'remover');
    expect(owners(o)).to.deep.equal([['alice', 'Apply']]);
    expect(fieldsOf(o, 'alice')).to.deep.equal({ 'f:data': { 'f:a': {} } });
  });

  it('name, namespace, uid and the other identity fields are never owned; labels are', () => {
    const o = updated(schema, undefined, cm({}, { app: 'x' }), 'w');
    expect(fieldsOf(o, 'w')).to.deep.equal({ 'f:data': {}, 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } });
  });

  it('an existing object without entries stays untracked by non-apply writes', () => {
    const legacy = stored(cm({ a: '1' }), undefined);
    expect(update({ live: legacy, updated: edited(legacy, (x) => (at(x, 'data').a = '2')), manager: 'w', apiVersion: 'v1', schema, now: NOW })).to.equal(undefined);
  });

  it('reset fields (status on the main resource) are never owned', () => {
    const d = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { replicas: 2 }, status: { replicas: 2 } };
    const mf = update({ live: undefined, updated: d, manager: 'w', apiVersion: 'apps/v1', schema: deployment.schema, resetFields: fieldSetOf([['status']]), now: NOW });
    expect(mf![0]!.fieldsV1).to.deep.equal({ 'f:spec': { 'f:replicas': {} } });
  });

  it('a subresource write ignores the entries it sends and records its subresource', () => {
    const live = applied(schema, undefined, cm({ a: '1' }), 'alice');
    const next = { ...edited(live, (x) => (at(x, 'data').b = '2')), metadata: { ...(live.metadata as Obj), managedFields: [{}] } };
    const mf = update({ live, updated: next, manager: 'kubelet', apiVersion: 'v1', subresource: 'status', schema, now: NOW });
    expect(mf!.map((e) => [e.manager, e.operation, e.subresource])).to.deep.equal([
      ['alice', 'Apply', undefined],
      ['kubelet', 'Update', 'status'],
    ]);
  });

  it('more than 10 Update entries: the oldest merge into ancient-changes', () => {
    let o = updated(schema, undefined, cm({ k0: '0' }), 'm0', { now: new Date(Date.UTC(2024, 0, 1, 0, 0, 0)) });
    for (let i = 1; i <= 10; i++) o = updated(schema, o, edited(o, (x) => (at(x, 'data')[`k${i}`] = String(i))), `m${i}`, { now: new Date(Date.UTC(2024, 0, 1, 0, 0, i)) });
    const managers = entries(o).map((e) => e.manager);
    expect(managers).to.have.length(10);
    expect(managers[0]).to.equal('ancient-changes');
    expect(fieldsOf(o, 'ancient-changes')).to.deep.equal({ 'f:data': { '.': {}, 'f:k0': {}, 'f:k1': {} } });
  });
});

describe('managedfields/update: the managedFields a client sends, and the reset rule', () => {
  const live = applied(schema, undefined, cm({ a: '1', b: '2' }), 'alice');
  const send = (managedFields: unknown, edit: (x: Obj) => void = () => undefined): Obj => {
    const next = edited(live, edit);
    (next.metadata as Obj).managedFields = managedFields;
    return next;
  };

  it('[{}] with no other change removes all managed-field data', () => {
    expect(update({ live, updated: send([{}]), manager: 'w', apiVersion: 'v1', schema, now: NOW })).to.equal(undefined);
  });

  it('[] does not reset: the live entries are kept', () => {
    expect(update({ live, updated: send([]), manager: 'w', apiVersion: 'v1', schema, now: NOW })).to.deep.equal(entries(live));
  });

  it('[{}] with a change: the reset comes first, then the requester owns what it changed', () => {
    const mf = update({ live, updated: send([{}], (x) => (at(x, 'data').b = '3')), manager: 'w', apiVersion: 'v1', schema, now: NOW });
    expect(mf!.map((e) => [e.manager, e.fieldsV1])).to.deep.equal([['w', { 'f:data': { 'f:b': {} } }]]);
  });

  it('entries the client edits are taken as sent (ownership handed over by hand)', () => {
    const handed = [{ manager: 'bob', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': {}, 'f:b': {} } } }];
    expect(update({ live, updated: send(handed), manager: 'w', apiVersion: 'v1', schema, now: NOW })).to.deep.equal(handed);
  });

  it('entries that cannot be decoded are ignored in favour of the live ones', () => {
    expect(update({ live, updated: send([{ manager: 'x', operation: 'Bogus' }]), manager: 'w', apiVersion: 'v1', schema, now: NOW })).to.deep.equal(entries(live));
  });
});
