import { expect } from 'chai';
import { applyWithLastApplied, buildLastApplied, conflictMessage, type ApplyConflicts, type ApplySuccess } from '../../../../lib/apimachinery/managedfields/index.js';
import { allowedConflictsFromLastApplied, setLastApplied } from '../../../../lib/apimachinery/managedfields/last-applied.js';
import { goJSON } from '../../../../lib/apimachinery/serializers/go-json.js';
import { LAST_APPLIED_CONFIG_ANNOTATION as LAST_APPLIED } from '../../../../lib/apis/vendor.js';
import { deployment } from '../../../../lib/apis/apps/v1/index.js';
import { configMap } from '../../../../lib/apis/core/v1/config-map.js';
import { edited, fieldsOf, NOW, type Obj, stored, updated } from './helpers.js';

const schema = configMap.schema;
const CSA = 'kubectl-client-side-apply';
const cm = (data: Record<string, string>, annotations?: Record<string, string>): Obj => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cfg', namespace: 'ns', ...(annotations ? { annotations } : {}) },
  data,
});

/** What stock kubectl's client-side apply stores: the object with its configuration in the annotation. */
function clientSideApplied(data: Record<string, string>, lastApplied: unknown = cm(data, {})): Obj {
  const text = typeof lastApplied === 'string' ? lastApplied : `${JSON.stringify(lastApplied)}\n`;
  return updated(schema, undefined, cm(data, { [LAST_APPLIED]: text }), CSA);
}

const ssa = (live: Obj | undefined, config: Obj, manager = 'kubectl', extra: Obj = {}) =>
  applyWithLastApplied({ live, config, manager, apiVersion: 'v1', kind: 'ConfigMap', force: false, schema, now: NOW, ...extra });

function ok(r: ApplySuccess | ApplyConflicts): Obj {
  if (r.conflicts) expect.fail(`unexpected conflicts: ${conflictMessage(r.conflicts)}`);
  return stored(r.object!, r.managedFields);
}
const annotationOf = (o: Obj) => ((o.metadata as Obj).annotations as Obj)[LAST_APPLIED];

describe('managedfields/last-applied: hand-over from client-side apply (upstream lastAppliedManager)', () => {
  it('kubectl takes over the fields the annotation lists with their live value: forced, ownership moved', () => {
    const live = clientSideApplied({ x: '1', y: '1' });
    const o = ok(ssa(live, cm({ x: '2', y: '1' })));
    expect(o.data).to.deep.equal({ x: '2', y: '1' });
    expect(fieldsOf(o, 'kubectl', 'Apply')).to.deep.equal({ 'f:data': { 'f:x': {}, 'f:y': {} } });
    expect(fieldsOf(o, CSA)).to.deep.equal({ 'f:data': { '.': {}, 'f:y': {} }, 'f:metadata': { 'f:annotations': { '.': {}, [`f:${LAST_APPLIED}`]: {} } } });
  });

  it('a conflict on a field the annotation does not list stays, and only that one is reported', () => {
    const csa = clientSideApplied({ x: '1' });
    const live = updated(schema, csa, edited(csa, (c) => ((c.data as Obj).y = '1')), 'editor');
    const r = ssa(live, cm({ x: '2', y: '2' }));
    expect(r.conflicts!.map((c) => [c.manager, c.path])).to.deep.equal([['editor', '.data.y']]);
    expect(r.paths!.length).to.equal(1);
  });

  it('a field the annotation lists with another value than the live one is not allowed', () => {
    const csa = clientSideApplied({ x: '1', y: '1' });
    const live = updated(schema, csa, edited(csa, (c) => ((c.data as Obj).x = '5')), 'editor');
    const r = ssa(live, cm({ x: '2', y: '2' }));
    expect(r.conflicts!.map((c) => [c.manager, c.path])).to.deep.equal([['editor', '.data.x']]);
  });

  it('another manager than kubectl gets the conflicts as before', () => {
    const r = ssa(clientSideApplied({ x: '1' }), cm({ x: '2' }), 'team-b');
    expect(r.conflicts!.map((c) => [c.manager, c.path])).to.deep.equal([[CSA, '.data.x']]);
  });

  it('no annotation, an empty one, invalid JSON, no kind, another apiVersion or kind, an unknown field: the conflicts as before', () => {
    const plain = updated(schema, undefined, cm({ x: '1' }), CSA);
    expect(ssa(plain, cm({ x: '2' })).conflicts, 'no annotation').to.have.length(1);
    for (const text of [
      '',
      '{"apiVersion":"v1",',
      '{"apiVersion":"v1","data":{"x":"1"}}',
      '{"apiVersion":"v2","kind":"ConfigMap","data":{"x":"1"}}',
      '{"apiVersion":"v1","kind":"Secret","data":{"x":"1"}}',
      '{"apiVersion":"v1","kind":"ConfigMap","data":{"x":"1"},"bogus":1}',
      '{"apiVersion":"v1","kind":"ConfigMap","data":{"x":1}}',
      '[1]',
    ]) {
      expect(ssa(clientSideApplied({ x: '1' }, text), cm({ x: '2' })).conflicts, text).to.have.length(1);
    }
  });

  it('the allowed set: last-applied fields minus those modified, added or removed against live', () => {
    const live = stored(cm({ same: '1', changed: '2', extra: '3' }), undefined);
    (live.metadata as Obj).annotations = {
      [LAST_APPLIED]: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' }, data: { same: '1', changed: '1', gone: '1' } }),
    };
    const allowed = allowedConflictsFromLastApplied(live, 'v1', 'ConfigMap', schema)!;
    expect(allowed.toString().split('\n')).to.deep.equal(['.apiVersion', '.kind', '.data.same', '.metadata.name']);
  });

  it('duplicate or unkeyable list items in the annotation allow nothing (upstream types it without AllowDuplicates)', () => {
    const dep = (containers: Obj[]): Obj => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'ns' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers } } },
    });
    const live = stored(dep([{ name: 'a', image: 'x' }]), undefined);
    const withAnnotation = (last: Obj) => ({ ...live, metadata: { ...(live.metadata as Obj), annotations: { [LAST_APPLIED]: JSON.stringify(last) } } });
    expect(allowedConflictsFromLastApplied(withAnnotation(dep([{ name: 'a', image: 'x' }])), 'apps/v1', 'Deployment', deployment.schema)!.isEmpty()).to.equal(false);
    const dup = dep([
      { name: 'a', image: 'x' },
      { name: 'a', image: 'y' },
    ]);
    expect(allowedConflictsFromLastApplied(withAnnotation(dup), 'apps/v1', 'Deployment', deployment.schema)).to.equal(undefined);
    expect(allowedConflictsFromLastApplied(withAnnotation(dep([{ image: 'x' }])), 'apps/v1', 'Deployment', deployment.schema)).to.equal(undefined);
  });
});

describe('managedfields/last-applied: the annotation follows kubectl server-side applies (upstream lastAppliedUpdater)', () => {
  it('after the hand-over the annotation is the applied configuration, as the unstructured JSON scheme encodes it', () => {
    const o = ok(ssa(clientSideApplied({ x: '1' }), cm({ x: '2' })));
    expect(annotationOf(o)).to.equal('{"apiVersion":"v1","data":{"x":"2"},"kind":"ConfigMap","metadata":{"name":"cfg","namespace":"ns"}}\n');
  });

  it('an apply without conflict rewrites it too; the annotation itself is never vouched for by the annotation', () => {
    const live = clientSideApplied({ x: '1' });
    const o = ok(ssa(live, cm({ x: '1' }, { team: 'a' })));
    expect(JSON.parse(annotationOf(o) as string)).to.deep.equal(cm({ x: '1' }, { team: 'a' }));
    const r = ssa(live, cm({ x: '1' }, { [LAST_APPLIED]: 'mine' }));
    expect(r.conflicts!.map((c) => c.path)).to.deep.equal([`.metadata.annotations.${LAST_APPLIED}`]);
  });

  it('the applied object as decoded is encoded (nulls kept), not the typed configuration', () => {
    const applied = { ...cm({ x: '1' }), metadata: { name: 'cfg', namespace: 'ns', creationTimestamp: null } };
    const o = ok(ssa(clientSideApplied({ x: '1' }), cm({ x: '1' }), 'kubectl', { applied }));
    expect(annotationOf(o)).to.equal('{"apiVersion":"v1","data":{"x":"1"},"kind":"ConfigMap","metadata":{"creationTimestamp":null,"name":"cfg","namespace":"ns"}}\n');
  });

  it('no annotation on the result: none is added; another manager: not rewritten', () => {
    const plain = ok(ssa(undefined, cm({ x: '1' })));
    expect((plain.metadata as Obj).annotations).to.equal(undefined);
    const live = clientSideApplied({ x: '1' });
    const o = ok(ssa(live, cm({ x: '1' }), 'team-b'));
    expect(annotationOf(o)).to.equal(annotationOf(live));
  });

  it('buildLastApplied: keys sorted by bytes, Go escapes, annotations that are not a map of strings dropped, an empty map kept', () => {
    expect(buildLastApplied({ b: '<&>', a: 'é\u2028\b\f\x01"\\', metadata: { annotations: { [LAST_APPLIED]: 'x' } } })).to.equal(
      '{"a":"é\\u2028\\b\\f\\u0001\\"\\\\","b":"\\u003c\\u0026\\u003e","metadata":{"annotations":{}}}\n',
    );
    expect(buildLastApplied({ metadata: { annotations: null, name: 'n' } })).to.equal('{"metadata":{"name":"n"}}\n');
    expect(buildLastApplied({ metadata: { annotations: { a: 1 } } })).to.equal('{"metadata":{}}\n');
    expect(goJSON({ '\uffff': 1, '\u{10000}': 2, z: [1.5, 1e21, 1e-7, -0, true, null] })).to.equal('{"z":[1.5,1e+21,1e-7,-0,true,null],"\uffff":1,"\u{10000}":2}');
  });

  it('setLastApplied drops the annotation when the annotations would exceed 256 KiB', () => {
    const obj: Obj = { metadata: { annotations: { [LAST_APPLIED]: 'old', other: 'x'.repeat(200 * 1024) } } };
    setLastApplied(obj, 'y'.repeat(56 * 1024));
    expect(Object.keys((obj.metadata as Obj).annotations as Obj)).to.deep.equal(['other']);
    const small: Obj = { metadata: { annotations: { [LAST_APPLIED]: 'old' } } };
    setLastApplied(small, 'new');
    expect(annotationOf(small)).to.equal('new');
  });
});
