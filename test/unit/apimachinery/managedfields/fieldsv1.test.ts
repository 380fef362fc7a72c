import { expect } from 'chai';
import { FieldsV1Error, fromFieldsV1, pathString, toFieldSet, toFieldsV1 } from '../../../../lib/apimachinery/managedfields/index.js';
import { fieldElement, indexElement, keyElement, parsePathElement, valueElement } from '../../../../lib/apimachinery/managedfields/path.js';
import { FieldSet } from '../../../../lib/apimachinery/managedfields/set.js';
import { deployment } from '../../../../lib/apis/apps/v1/index.js';

describe('managedfields/fieldsV1: wire form of field sets (spec 000 § Managed-field entry)', () => {
  // Upstream-shaped fieldsV1 documents; each must decode and re-encode byte for byte.
  const roundTrips: Array<[string, string]> = [
    ['field leaves', '{"f:data":{"f:a":{},"f:b":{}}}'],
    ['member with children carries "." first', '{"f:metadata":{"f:labels":{".":{},"f:app":{}}}}'],
    ['map-list entries keyed by name', '{"f:spec":{"f:containers":{"k:{\\"name\\":\\"nginx\\"}":{".":{},"f:image":{},"f:name":{}}}}}'],
    ['map-list entries with two keys, sorted by key name', '{"f:ports":{"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{}}}}'],
    ['set values: numbers, strings, booleans in upstream order', '{"f:s":{"v:1":{},"v:2":{},"v:\\"a\\"":{},"v:true":{}}}'],
    ['list indexes', '{"f:l":{"i:0":{"f:x":{}},"i:1":{},"i:10":{}}}'],
    ['kinds ordered f: < k: < v: < i:', '{"f:x":{"f:a":{},"k:{\\"n\\":\\"b\\"}":{},"v:\\"c\\"":{},"i:2":{}}}'],
    ['empty set', '{}'],
  ];
  for (const [name, json] of roundTrips) {
    it(`round trip: ${name}`, () => {
      expect(JSON.stringify(toFieldsV1(fromFieldsV1(JSON.parse(json))))).to.equal(json);
    });
  }

  it('a Deployment: containers by name, ports by containerPort+protocol, labels granular, finalizers a set', () => {
    const d = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', labels: { app: 'web', tier: 'fe' }, finalizers: ['example.com/x', 'example.com/a'] },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'nginx', image: 'nginx', ports: [{ containerPort: 80, protocol: 'TCP' }, { containerPort: 53, protocol: 'UDP' }] }] },
        },
      },
    };
    expect(JSON.stringify(toFieldsV1(toFieldSet(d, deployment.schema).difference(FieldSet.of([fieldElement('apiVersion')], [fieldElement('kind')]))))).to.equal(
      '{"f:metadata":{"f:finalizers":{"v:\\"example.com/a\\"":{},"v:\\"example.com/x\\"":{}},"f:labels":{"f:app":{},"f:tier":{}},"f:name":{}},' +
        '"f:spec":{"f:selector":{},"f:template":{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"nginx\\"}":{".":{},"f:image":{},"f:name":{},' +
        '"f:ports":{"k:{\\"containerPort\\":53,\\"protocol\\":\\"UDP\\"}":{".":{},"f:containerPort":{},"f:protocol":{}},"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{},"f:protocol":{}}}}}}}}}',
    );
  });

  // A set decoded from the very form toFieldsV1 writes encodes as that object again (an entry a
  // write leaves alone costs no encoding); any other spelling is written again in upstream's form.
  it('a set decoded from its canonical form encodes as the object it was read from', () => {
    const fields = JSON.parse(roundTrips[2]![1]);
    const set = fromFieldsV1(fields);
    expect(toFieldsV1(set)).to.equal(fields);
    expect(toFieldsV1(set.difference(FieldSet.of([fieldElement('other')])))).to.equal(fields);
    const smaller = set.difference(FieldSet.of([fieldElement('spec'), fieldElement('containers'), keyElement([['name', 'nginx']]), fieldElement('image')]));
    expect(JSON.stringify(toFieldsV1(smaller))).to.equal('{"f:spec":{"f:containers":{"k:{\\"name\\":\\"nginx\\"}":{".":{},"f:name":{}}}}}');
  });

  const respelled: Array<[string, unknown, string]> = [
    ['keys out of order', { 'f:b': {}, 'f:a': {} }, '{"f:a":{},"f:b":{}}'],
    ['kinds out of order', { 'i:0': {}, 'f:a': {} }, '{"f:a":{},"i:0":{}}'],
    ['"." at the top level', { '.': {}, 'f:a': {} }, '{"f:a":{}}'],
    ['"." alone', { 'f:a': { '.': {} } }, '{"f:a":{}}'],
    ['"." after a child', { 'f:a': { 'f:b': {}, '.': {} } }, '{"f:a":{".":{},"f:b":{}}}'],
    ['"." with a value', { 'f:a': { '.': { 'f:x': {} }, 'f:b': {} } }, '{"f:a":{".":{},"f:b":{}}}'],
    ['a k: key spelled with its fields unsorted', { 'k:{"protocol":"TCP","containerPort":80}': {} }, '{"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}":{}}'],
    ['an unknown prefix below', { 'f:a': { 'r:x': {} } }, '{"f:a":{}}'],
  ];
  for (const [name, fields, canonical] of respelled) {
    it(`a set read from another spelling is written in upstream's form: ${name}`, () => {
      const out = toFieldsV1(fromFieldsV1(fields));
      expect(out).to.not.equal(fields);
      expect(JSON.stringify(out)).to.equal(canonical);
    });
  }

  it('a node that is a member without children is {} and decodes as a member', () => {
    const s = fromFieldsV1({ 'f:a': {}, 'f:b': { '.': {}, 'f:c': {} }, 'f:d': { 'f:e': {} } });
    expect(s.has([fieldElement('a')])).to.equal(true);
    expect(s.has([fieldElement('b')])).to.equal(true);
    expect(s.has([fieldElement('b'), fieldElement('c')])).to.equal(true);
    expect(s.has([fieldElement('d')])).to.equal(false);
    expect(s.has([fieldElement('d'), fieldElement('e')])).to.equal(true);
  });

  it('keys with an unknown prefix are dropped, as upstream', () => {
    expect(toFieldsV1(fromFieldsV1({ 'f:aaa': {}, 'r:aab': {} }))).to.deep.equal({ 'f:aaa': {} });
  });

  it('a malformed key is an error', () => {
    expect(() => fromFieldsV1({ 'fx': {} })).to.throw(FieldsV1Error, 'parsing key as path element: missing colon: fx');
    expect(() => fromFieldsV1({ 'k:{bad': {} })).to.throw(FieldsV1Error, 'parsing key as path element');
    expect(() => fromFieldsV1({ 'i:x': {} })).to.throw(FieldsV1Error, 'parsing key as path element');
    expect(() => fromFieldsV1({ 'f:a': 1 })).to.throw(FieldsV1Error);
  });

  it('k: keys are written with their fields sorted and Go JSON escapes', () => {
    expect(keyElement([['protocol', 'TCP'], ['containerPort', 80]]).id).to.equal('k:{"containerPort":80,"protocol":"TCP"}');
    expect(valueElement('a<b&c>').id).to.equal('v:"a\\u003cb\\u0026c\\u003e"');
    expect(parsePathElement('k:{"protocol":"TCP","containerPort":80}')!.id).to.equal('k:{"containerPort":80,"protocol":"TCP"}');
  });

  it('paths print as upstream conflict messages do', () => {
    expect(pathString([fieldElement('spec'), fieldElement('containers'), keyElement([['name', 'nginx']]), fieldElement('image')])).to.equal('.spec.containers[name="nginx"].image');
    expect(pathString([fieldElement('ports'), keyElement([['protocol', 'TCP'], ['containerPort', 80]])])).to.equal('.ports[containerPort=80,protocol="TCP"]');
    expect(pathString([fieldElement('metadata'), fieldElement('finalizers'), valueElement('a')])).to.equal('.metadata.finalizers[="a"]');
    expect(pathString([fieldElement('args'), indexElement(2)])).to.equal('.args[2]');
  });
});

describe('managedfields/set: operations', () => {
  const p = (...names: string[]) => names.map(fieldElement);
  const a = FieldSet.of(p('a'), p('b', 'c'), p('b', 'd'));
  const b = FieldSet.of(p('b', 'c'), p('e'));

  it('union, intersection, difference', () => {
    expect(a.union(b).toString()).to.equal('.a\n.e\n.b.c\n.b.d');
    expect(a.intersection(b).toString()).to.equal('.b.c');
    expect(a.difference(b).toString()).to.equal('.a\n.b.d');
  });

  it('difference keeps paths below a removed member; recursiveDifference removes them', () => {
    const s = FieldSet.of(p('x'), p('x', 'y'));
    expect(s.difference(FieldSet.of(p('x'))).toString()).to.equal('.x.y');
    expect(s.recursiveDifference(FieldSet.of(p('x'))).isEmpty()).to.equal(true);
  });

  it('isEmpty, size, equals', () => {
    expect(new FieldSet().isEmpty()).to.equal(true);
    expect(a.size()).to.equal(3);
    expect(a.equals(FieldSet.of(p('b', 'd'), p('a'), p('b', 'c')))).to.equal(true);
    expect(a.equals(b)).to.equal(false);
  });
});
