import { expect } from 'chai';
import { boolean, field, int32, listOf, mapOf, raw, string, struct, time } from '../../../../lib/apimachinery/schema/builder.js';
import { canonicalize } from '../../../../lib/apimachinery/schema/canonical.js';
import type { Field, StructSchema } from '../../../../lib/apimachinery/schema/types.js';

const inner = struct('test.Inner', { b: field(1, string), when: field(2, time, { omitEmpty: false }) });
const node: StructSchema = struct('test.Node', {
  kind: field(0, string),
  apiVersion: field(0, string),
  name: field(1, string),
  count: field(2, int32, { omitEmpty: false }),
  flag: field(3, boolean),
  labels: field(4, mapOf(string)),
  items: field(5, listOf(inner)),
  inner: field(6, inner, { omitEmpty: false }),
  pointer: field(7, inner),
  always: field(8, listOf(string), { omitEmpty: false }),
  blob: field(9, raw),
});
const text = (o: unknown) => JSON.stringify(o);

describe('schema/canonical: the form upstream Go types encode to (issue #23 items 1-2)', () => {
  it('orders properties as the definition declares them, kind before apiVersion', () => {
    const out = canonicalize(node, { name: 'n', apiVersion: 'v1', kind: 'Node', count: 2, inner: { b: 'x' } });
    expect(text(out)).to.equal('{"kind":"Node","apiVersion":"v1","name":"n","count":2,"inner":{"b":"x","when":null},"always":null}');
  });

  it('writes Go zero values for always-written properties: a struct as its own zero object, times and slices null, numbers 0', () => {
    expect(text(canonicalize(node, {}))).to.equal('{"count":0,"inner":{"when":null},"always":null}');
    expect(text(canonicalize(node, { count: null, inner: null }))).to.equal('{"count":0,"inner":{"when":null},"always":null}');
  });

  it('drops empty omitempty values ("", null, [], {} of a map) but keeps present zero numbers and false', () => {
    const out = canonicalize(node, { name: '', labels: {}, items: [], pointer: null, flag: false, count: 0, always: [] });
    expect(text(out)).to.equal('{"count":0,"flag":false,"inner":{"when":null},"always":[]}');
  });

  it('keeps an empty struct in an omitempty field: a non-nil pointer is written as {} (securityContext: {})', () => {
    expect(text(canonicalize(node, { pointer: {} }))).to.equal('{"count":0,"inner":{"when":null},"pointer":{"when":null},"always":null}');
  });

  it('keeps a set "" of an omitempty pointer (*string): only a nil pointer (null, absent) is left out', () => {
    const claim = struct('test.Claim', {
      volumeName: field(1, string),
      storageClassName: field(2, string, { pointer: true }),
      apiGroup: field(3, string, { pointer: true, omitEmpty: false }),
      tags: field(4, listOf(string), { pointer: true }),
    });
    expect(text(canonicalize(claim, { volumeName: '', storageClassName: '', apiGroup: '', tags: [] }))).to.equal('{"storageClassName":"","apiGroup":"","tags":[]}');
    expect(text(canonicalize(claim, { storageClassName: null }))).to.equal('{"apiGroup":null}');
    expect(text(canonicalize(claim, {}))).to.equal('{"apiGroup":null}');
    expect(text(canonicalize(claim, { storageClassName: 'fast' }))).to.equal('{"storageClassName":"fast","apiGroup":null}');
  });

  it('sorts map keys and canonicalizes list items and nested structs', () => {
    const out = canonicalize(node, { labels: { z: '1', a: '2', m: '3' }, items: [{ when: '2026-01-01T00:00:00Z', b: 'y' }], count: 1 });
    expect(text(out)).to.equal(
      '{"count":1,"labels":{"a":"2","m":"3","z":"1"},"items":[{"b":"y","when":"2026-01-01T00:00:00Z"}],"inner":{"when":null},"always":null}',
    );
  });

  it('keeps raw values as they are and puts properties the schema does not know after the known ones, sorted', () => {
    const out = canonicalize(node, { zeta: 1, blob: { y: 1, x: 2 }, alpha: 2, count: 1 });
    expect(text(out)).to.equal('{"count":1,"inner":{"when":null},"always":null,"blob":{"y":1,"x":2},"alpha":2,"zeta":1}');
  });

  it('sorts unknown properties at every level where the schema preserves them (custom resources are maps)', () => {
    const open = struct('test.Open', { spec: field(1, string) }, { preserveUnknownFields: true });
    expect(text(canonicalize(open, { b: { z: 1, a: [{ d: 1, c: 2 }] }, spec: 's' }))).to.equal('{"spec":"s","b":{"a":[{"c":2,"d":1}],"z":1}}');
  });

  it('terminates on recursive types (a zero inside a cycle is {})', () => {
    const fields: Record<string, Field> = {};
    const rec: StructSchema = struct('test.Rec', () => fields);
    fields.name = field(1, string);
    fields.child = field(2, rec, { omitEmpty: false });
    expect(text(canonicalize(rec, { name: 'a' }))).to.equal('{"name":"a","child":{"child":{}}}');
  });

  it('does not modify its input', () => {
    const input = { labels: { b: '1', a: '2' }, name: '' };
    const before = text(input);
    canonicalize(node, input);
    expect(text(input)).to.equal(before);
  });
});
