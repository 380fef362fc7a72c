import { expect } from 'chai';
import { MEMBER } from '../../../../lib/apimachinery/managedfields/fieldsv1.js';
import { fromFieldsV1, shareManagedFields, toFieldsV1 } from '../../../../lib/apimachinery/managedfields/index.js';
import { sharedFieldsV1 } from '../../../../lib/apimachinery/managedfields/shared.js';

const TEXT = '{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"app\\"}":{".":{},"f:image":{},"f:name":{}}}}}';
const entry = (fieldsV1: unknown, manager = 'kubectl') => ({ manager, operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1 });

describe('managedfields/shared: one frozen copy of each distinct fieldsV1 tree (issue #24 item 2)', () => {
  it('equal trees decoded apart come back as one frozen object with the same text', () => {
    const a = sharedFieldsV1(JSON.parse(TEXT));
    const b = sharedFieldsV1(JSON.parse(TEXT));
    expect(a).to.equal(b);
    expect(JSON.stringify(a)).to.equal(TEXT);
    expect(Object.isFrozen(a)).to.equal(true);
    expect(() => {
      (a as Record<string, unknown>)['f:x'] = {};
    }).to.throw(TypeError);
  });

  it('every {} leaf of a shared tree is the one MEMBER object', () => {
    const t = sharedFieldsV1(JSON.parse(TEXT)) as Record<string, Record<string, Record<string, unknown>>>;
    expect(t['f:metadata']!['f:labels']!['.']).to.equal(MEMBER);
    expect(t['f:metadata']!['f:labels']!['f:app']).to.equal(MEMBER);
    expect(Object.isFrozen(MEMBER)).to.equal(true);
  });

  it('leaves its input as it was', () => {
    const input = JSON.parse(TEXT) as Record<string, unknown>;
    const shared = sharedFieldsV1(input);
    expect(shared).to.not.equal(input);
    expect(Object.isFrozen(input)).to.equal(false);
    expect(JSON.stringify(input)).to.equal(TEXT);
  });

  it('different trees stay different', () => {
    const a = sharedFieldsV1(JSON.parse('{"f:data":{"f:a":{}}}'));
    const b = sharedFieldsV1(JSON.parse('{"f:data":{"f:b":{}}}'));
    expect(a).to.not.equal(b);
    expect(JSON.stringify(b)).to.equal('{"f:data":{"f:b":{}}}');
  });

  it('a malformed tree (a value that is not an object, a __proto__ key) is kept as it is', () => {
    for (const text of ['{"f:a":1}', '{"f:a":{"f:b":[]}}', '{"f:a":null}', '{"__proto__":{}}']) {
      const input = JSON.parse(text) as unknown;
      expect(sharedFieldsV1(input), text).to.equal(input);
      expect(JSON.stringify(input)).to.equal(text);
    }
    expect(sharedFieldsV1('x')).to.equal('x');
  });

  it('shareManagedFields points each entry at the shared tree in place, and keeps the entries', () => {
    const one = { metadata: { name: 'a', managedFields: [entry(JSON.parse(TEXT)), entry(JSON.parse('{"f:status":{}}'), 'kubelet')] } };
    const two = { metadata: { name: 'b', managedFields: [entry(JSON.parse(TEXT))] } };
    const before = JSON.stringify(one);
    const entries = one.metadata.managedFields;
    const first = entries[0];
    shareManagedFields(one);
    shareManagedFields(two);
    expect(JSON.stringify(one)).to.equal(before);
    expect(one.metadata.managedFields).to.equal(entries);
    expect(one.metadata.managedFields[0]).to.equal(first);
    expect(one.metadata.managedFields[0]!.fieldsV1).to.equal(two.metadata.managedFields[0]!.fieldsV1);
  });

  it('shareManagedFields leaves objects without entries, and odd entries, alone', () => {
    const odd = { metadata: { managedFields: [null, 'x', { manager: 'm' }] } };
    shareManagedFields(odd);
    expect(odd).to.deep.equal({ metadata: { managedFields: [null, 'x', { manager: 'm' }] } });
    const none = { metadata: { managedFields: 'no' } };
    shareManagedFields(none);
    expect(none.metadata.managedFields).to.equal('no');
    shareManagedFields({});
  });

  it('a shared tree decodes to the set it was made from, and that set encodes as the shared tree', () => {
    const shared = sharedFieldsV1(JSON.parse(TEXT));
    const set = fromFieldsV1(shared);
    expect(toFieldsV1(set)).to.equal(shared);
    expect(JSON.stringify(toFieldsV1(fromFieldsV1(JSON.parse(TEXT))))).to.equal(TEXT);
  });

  it('a shared tree is decoded once: every later decode hands back the same set', () => {
    const shared = sharedFieldsV1(JSON.parse(TEXT));
    expect(fromFieldsV1(shared)).to.equal(fromFieldsV1(shared));
    expect(fromFieldsV1(JSON.parse(TEXT))).to.not.equal(fromFieldsV1(JSON.parse(TEXT)));
  });
});
