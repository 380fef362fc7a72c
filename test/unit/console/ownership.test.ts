import { expect } from 'chai';
import { itemChild, managersOf, ownedLines, parseElement, parseFieldsV1, pathsOf } from '../../../console/src/views/object/ownership.js';

/** A ConfigMap-like object with two managers owning different fields. */
function twoManagers(): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'x',
      labels: { app: 'web' },
      managedFields: [
        { manager: 'editor', operation: 'Update', time: '2026-01-01T10:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { '.': {}, 'f:a': {} } } },
        { manager: 'applier', operation: 'Apply', time: '2026-01-01T11:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:b': {} }, 'f:metadata': { 'f:labels': { 'f:app': {} } } } },
      ],
    },
    data: { a: '1', b: '2', c: '3' },
  };
}

function ownersOfLine(lines: ReturnType<typeof ownedLines>, path: string, names: string[]): string[] {
  const line = lines.find((l) => l.path === path);
  expect(line, path).to.not.equal(undefined);
  return line!.owners.map((i) => names[i]!);
}

describe('console/object/ownership (issue #22 § One object, field ownership)', () => {
  describe('parseElement', () => {
    it('reads the four element kinds of structured-merge-diff', () => {
      expect(parseElement('f:data')).to.deep.equal({ field: 'data' });
      expect(parseElement('k:{"containerPort":80,"protocol":"TCP"}')).to.deep.equal({ key: { containerPort: 80, protocol: 'TCP' } });
      expect(parseElement('v:"finalizer.example"')).to.deep.equal({ value: 'finalizer.example' });
      expect(parseElement('i:3')).to.deep.equal({ index: 3 });
    });

    it('keeps the rest of an f: element as the field name, colons included', () => {
      expect(parseElement('f:example.com/a:b')).to.deep.equal({ field: 'example.com/a:b' });
    });

    it('rejects an unknown prefix, a key that is not an object and a bad index', () => {
      expect(() => parseElement('x:y')).to.throw(/unknown path element/);
      expect(() => parseElement('k:[1]')).to.throw(/bad key/);
      expect(() => parseElement('i:-1')).to.throw(/bad index/);
    });
  });

  describe('parseFieldsV1', () => {
    it('puts leaves ({}) and nodes holding "." in the set, and nothing else', () => {
      const set = parseFieldsV1({
        'f:data': { '.': {}, 'f:a': {} },
        'f:spec': { 'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:image': {} } }, 'f:finalizers': { 'v:"x"': {} }, 'f:args': { 'i:0': {} } },
      });
      expect(pathsOf(set)).to.deep.equal([
        '.data',
        '.data.a',
        '.spec.containers[name="c"]',
        '.spec.containers[name="c"].image',
        '.spec.finalizers[="x"]',
        '.spec.args[0]',
      ]);
    });
  });

  describe('itemChild', () => {
    const set = parseFieldsV1({ 'k:{"name":"c","port":80}': {}, 'v:{"a":1}': {}, 'i:4': {} });
    it('finds a map-list item by all of its key fields', () => {
      expect(itemChild(set, { name: 'c', port: 80, image: 'i' }, 0)).to.not.equal(undefined);
      expect(itemChild(set, { name: 'c', port: 81 }, 0)).to.equal(undefined);
    });
    it('finds a set item by its value, key order ignored', () => {
      expect(itemChild(set, { a: 1 }, 1)).to.not.equal(undefined);
      expect(itemChild(set, { a: 2 }, 1)).to.equal(undefined);
    });
    it('finds an atomic-list item by its position', () => {
      expect(itemChild(set, 'anything', 4)).to.not.equal(undefined);
      expect(itemChild(set, 'anything', 3)).to.equal(undefined);
    });
  });

  describe('ownedLines', () => {
    it('marks each field line with the manager that owns it, and leaves unowned lines unmarked', () => {
      const obj = twoManagers();
      const managers = managersOf(obj);
      const names = managers.map((m) => m.manager);
      expect(managers.map((m) => [m.manager, m.operation])).to.deep.equal([['editor', 'Update'], ['applier', 'Apply']]);
      const lines = ownedLines(obj, managers);
      expect(ownersOfLine(lines, '.data.a', names)).to.deep.equal(['editor']);
      expect(ownersOfLine(lines, '.data.b', names)).to.deep.equal(['applier']);
      expect(ownersOfLine(lines, '.data.c', names)).to.deep.equal([]);
      expect(ownersOfLine(lines, '.data', names)).to.deep.equal(['editor']);
      expect(ownersOfLine(lines, '.metadata.labels.app', names)).to.deep.equal(['applier']);
      expect(ownersOfLine(lines, '.metadata.name', names)).to.deep.equal([]);
    });

    it('prints YAML without managedFields, one line per field', () => {
      const lines = ownedLines(twoManagers(), []);
      expect(lines.map((l) => l.text)).to.deep.equal([
        'apiVersion: v1',
        'kind: ConfigMap',
        'metadata:',
        '  name: x',
        '  labels:',
        '    app: web',
        'data:',
        '  a: "1"',
        '  b: "2"',
        '  c: "3"',
      ]);
    });

    it('marks list items by key and their fields, and every line of a multi-line value', () => {
      const obj = {
        spec: { containers: [{ name: 'c', image: 'i' }, { name: 'd', image: 'j' }], script: 'one\ntwo' },
        metadata: { managedFields: [{ manager: 'm', operation: 'Apply', fieldsV1: { 'f:spec': { 'f:script': {}, 'f:containers': { 'k:{"name":"d"}': { '.': {}, 'f:image': {} } } } } }] },
      };
      const lines = ownedLines(obj, managersOf(obj));
      const text = lines.map((l) => `${l.text}${l.owners.length ? ' <m>' : ''}`);
      expect(text).to.deep.equal([
        'spec:',
        '  containers:',
        '    - name: c',
        '      image: i',
        '    - name: d <m>',
        '      image: j <m>',
        '  script: |- <m>',
        '    one <m>',
        '    two <m>',
        'metadata: {}',
      ]);
    });

    it('gives an entry whose fieldsV1 cannot be parsed no fields', () => {
      const obj = { data: { a: '1' }, metadata: { managedFields: [{ manager: 'bad', operation: 'Update', fieldsV1: { 'q:a': {} } }] } };
      const managers = managersOf(obj);
      expect(managers[0]!.manager).to.equal('bad');
      expect(ownedLines(obj, managers).every((l) => l.owners.length === 0)).to.equal(true);
    });
  });
});
