import { expect } from 'chai';
import { restoreObjectMeta, validateConvertedObject } from '../../../../lib/apiextensions/conversion/restore-meta.js';

type Obj = Record<string, unknown>;

const original = (): Obj => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'a', namespace: 'ns', uid: 'u', resourceVersion: '5', labels: { app: 'x' }, annotations: { note: 'n' }, finalizers: ['f'] },
});

describe('apiextensions conversion: converted object metadata', () => {
  it('restores every metadata field but labels and annotations from the original', () => {
    const orig = original();
    const converted: Obj = { kind: 'Widget', metadata: { name: 'a', namespace: 'ns', uid: 'u', resourceVersion: '999', finalizers: [], labels: { app: 'y', added: 'z' }, annotations: { other: 'o' } } };
    expect(restoreObjectMeta(orig, converted)).to.equal(undefined);
    expect(converted.metadata).to.deep.equal({ name: 'a', namespace: 'ns', uid: 'u', resourceVersion: '5', labels: { app: 'y', added: 'z' }, annotations: { other: 'o' }, finalizers: ['f'] });
    expect((converted.metadata as Obj).finalizers).to.not.equal((orig.metadata as Obj).finalizers);
    expect(orig).to.deep.equal(original());
  });

  it('drops labels and annotations the converted object leaves out or nulls', () => {
    const converted: Obj = { kind: 'Widget', metadata: { annotations: null } };
    expect(restoreObjectMeta(original(), converted)).to.equal(undefined);
    expect(converted.metadata).to.not.have.any.keys('labels', 'annotations');
  });

  const refusals: Array<[string, Obj, string]> = [
    ['no metadata', { kind: 'Widget' }, 'missing metadata in converted object'],
    ['metadata of the wrong type', { kind: 'Widget', metadata: 'x' }, 'invalid metadata of type string in converted object'],
    ['null metadata', { kind: 'Widget', metadata: null }, 'invalid metadata of type <nil> in converted object'],
    ['labels of the wrong type', { kind: 'Widget', metadata: { labels: ['a'] } }, 'invalid metadata.labels of type []interface {} in converted object'],
    ['a label value that is not a string', { kind: 'Widget', metadata: { labels: { app: 5 } } }, 'metadata.labels[app] must be a string, but is int64 in converted object'],
    ['an annotation value that is not a string', { kind: 'Widget', metadata: { annotations: { n: 1.5 } } }, 'metadata.annotations[n] must be a string, but is float64 in converted object'],
    [
      'an invalid label value',
      { kind: 'Widget', metadata: { labels: { app: 'not ok' } } },
      `metadata.labels: Invalid value: "not ok": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
    ],
    [
      'an invalid annotation key (reported at metadata.annotation, as upstream)',
      { kind: 'Widget', metadata: { annotations: { 'bad key': 'v' } } },
      `metadata.annotation: Invalid value: "bad key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    ],
  ];
  for (const [name, converted, message] of refusals) {
    it(`refuses ${name}`, () => {
      expect(restoreObjectMeta(original(), converted)).to.equal(message);
    });
  }

  it('does not validate labels the converter left unchanged', () => {
    const orig: Obj = { kind: 'Widget', metadata: { labels: { app: 'not ok' } } };
    expect(restoreObjectMeta(orig, { kind: 'Widget', metadata: { labels: { app: 'not ok' } } })).to.equal(undefined);
  });

  const identity: Array<[string, Obj, string]> = [
    ['kind', { kind: 'Gadget', metadata: { name: 'a', namespace: 'ns', uid: 'u' } }, 'must have the same kind: Widget != Gadget'],
    ['name', { kind: 'Widget', metadata: { name: 'b', namespace: 'ns', uid: 'u' } }, 'must have the same name: a != b'],
    ['namespace', { kind: 'Widget', metadata: { name: 'a', namespace: 'other', uid: 'u' } }, 'must have the same namespace: ns != other'],
    ['uid', { kind: 'Widget', metadata: { name: 'a', namespace: 'ns' } }, 'must have the same UID: u != '],
  ];
  for (const [what, converted, message] of identity) {
    it(`refuses a converted object with another ${what}`, () => {
      expect(validateConvertedObject(original(), converted)).to.equal(message);
    });
  }
});
