import { expect } from 'chai';
import { upstreamEqual, upstreamPatchError } from '../../../../lib/apimachinery/patch/json-patch-errors.js';

describe('apimachinery/patch/json-patch-errors', () => {
  it('words what upstream refuses and fast-json-patch lets through', () => {
    expect(upstreamPatchError({ l: [1], a: 1 }, { op: 'copy', from: '/a', path: '/l/5' })).to.equal('error while adding value during copy: Unable to access invalid index: 5: invalid index referenced');
    expect(upstreamPatchError({ l: [1, 2] }, { op: 'move', from: '/l/0', path: '/l/2' })).to.equal("error in move for path: '/l/2': Unable to access invalid index: 2: invalid index referenced");
    expect(upstreamPatchError({ a: 1 }, { op: '_get', path: '/a' })).to.equal('Unexpected kind: _get');
    expect(upstreamPatchError({ a: 1 }, { op: 'toString', path: '/a' })).to.equal('Unexpected kind: toString');
  });

  it('reads path and from as upstream does: missing, null or of another type', () => {
    const cases: [unknown, string][] = [
      [{ op: 'remove', path: 1 }, 'remove operation failed to decode path: missing value'],
      [{ op: 'add', path: null }, 'add operation failed to decode path: missing value'],
      [{ op: 'replace' }, 'replace operation failed to decode path: operation missing path field: missing value'],
      [{ op: 'replace', path: null }, 'replace operation failed to decode path: operation missing path field: missing value'],
      [{ op: 'test', path: true, value: 1 }, 'test operation failed to decode path: json: cannot unmarshal bool into Go value of type string'],
      [{ op: 'test', value: 1 }, 'test operation failed to decode path: operation missing path field: missing value'],
      [{ op: 'move', from: ['a'], path: '/b' }, 'move operation failed to decode from: json: cannot unmarshal array into Go value of type string'],
      [{ op: 'move', from: '/a' }, 'move operation failed to decode path: operation missing path field: missing value'],
      [{ op: 'move', from: '/a', path: {} }, 'move operation failed to decode path: json: cannot unmarshal object into Go value of type string'],
      [{ op: 'copy', from: 2, path: '/b' }, 'copy operation failed to decode from: json: cannot unmarshal number into Go value of type string'],
      [{ op: 'copy', from: '/a', path: 2 }, 'copy operation failed to decode path: missing value'],
    ];
    for (const [op, message] of cases) expect(upstreamPatchError({ a: 1 }, op), JSON.stringify(op)).to.equal(message);
  });

  it('parses array indices as Go\'s strconv.Atoi, quoting the token as strconv.Quote', () => {
    const doc = { l: [1, 2] };
    expect(upstreamPatchError(doc, { op: 'remove', path: '/l/99999999999999999999' })).to.equal('error in remove for path: \'/l/99999999999999999999\': strconv.Atoi: parsing "99999999999999999999": value out of range');
    expect(upstreamPatchError(doc, { op: 'remove', path: '/l/9223372036854775807' })).to.equal("error in remove for path: '/l/9223372036854775807': Unable to access invalid index: 9223372036854775807: invalid index referenced");
    expect(upstreamPatchError(doc, { op: 'remove', path: '/l/a"\tb' })).to.equal('error in remove for path: \'/l/a"\tb\': strconv.Atoi: parsing "a\\"\\tb": invalid syntax');
    expect(upstreamPatchError(doc, { op: 'remove', path: '/l/' })).to.equal('error in remove for path: \'/l/\': strconv.Atoi: parsing "": invalid syntax');
    expect(upstreamPatchError(doc, { op: 'remove', path: '/l/+1' })).to.equal(undefined);
    expect(upstreamPatchError(doc, { op: 'add', path: '/l/+3', value: 0 })).to.equal("error in add for path: '/l/+3': Unable to access invalid index: 3: invalid index referenced");
  });

  it('walks a path as upstream does: null, scalar and out-of-range steps are missing; negative indices count from the end', () => {
    const doc = { n: null, s: 'x', l: [{ a: 1 }, null] };
    expect(upstreamPatchError(doc, { op: 'remove', path: '/n/a' })).to.equal('remove operation does not apply: doc is missing path: "/n/a": missing value');
    expect(upstreamPatchError(doc, { op: 'remove', path: '/s/a' })).to.equal('remove operation does not apply: doc is missing path: "/s/a": missing value');
    expect(upstreamPatchError(doc, { op: 'remove', path: '/l/1/a' })).to.equal('remove operation does not apply: doc is missing path: "/l/1/a": missing value');
    expect(upstreamPatchError(doc, { op: 'remove', path: '/l/2/a' })).to.equal('remove operation does not apply: doc is missing path: "/l/2/a": missing value');
    expect(upstreamPatchError(doc, { op: 'remove', path: '/l/x/a' })).to.equal('remove operation does not apply: doc is missing path: "/l/x/a": missing value');
    expect(upstreamPatchError(doc, { op: 'remove', path: '/l/-2/a' })).to.equal(undefined);
    expect(upstreamPatchError(doc, { op: 'remove', path: '/l/-3/a' })).to.equal('remove operation does not apply: doc is missing path: "/l/-3/a": missing value');
    expect(upstreamPatchError(doc, { op: 'remove', path: 'x/s' })).to.equal(undefined);
  });

  it('finds a move\'s destination in the document its removal leaves, without changing the document', () => {
    const doc = { l: [{ a: 1 }, { b: 2 }, { c: 3 }], m: { k: {} } };
    const before = structuredClone(doc);
    expect(upstreamPatchError(doc, { op: 'move', from: '/l/0', path: '/l/1/x' })).to.equal(undefined);
    expect(upstreamPatchError(doc, { op: 'move', from: '/l/0', path: '/l/2/x' })).to.equal('move operation does not apply: doc is missing destination path: /l/2/x: missing value');
    expect(upstreamPatchError(doc, { op: 'move', from: '/l/2', path: '/l/-4' })).to.equal("error in move for path: '/l/-4': Unable to access invalid index: -4: invalid index referenced");
    expect(upstreamPatchError(doc, { op: 'move', from: '/l/2', path: '/l/-2/x' })).to.equal(undefined);
    expect(upstreamPatchError(doc, { op: 'move', from: '/m/k', path: '/m/k/x' })).to.equal('move operation does not apply: doc is missing destination path: /m/k/x: missing value');
    expect(upstreamPatchError(doc, { op: 'move', from: '/m', path: '/l/0/m' })).to.equal(undefined);
    expect(doc).to.deep.equal(before);
  });

  it('passes what upstream applies, and leaves unjudged the whole document and non-containers', () => {
    const doc = { a: 1, m: {}, l: [1, 2, 3], n: null };
    const applies: unknown[] = [
      { op: 'replace', path: '/m/b', value: 1 },
      { op: 'replace', path: '/l/-1', value: 9 },
      { op: 'copy', from: '/x', path: '/b' },
      { op: 'test', path: '/b', value: null },
      { op: 'test', path: '/n' },
      { op: 'test', path: '/a', value: 1 },
      { op: 'add', path: '/l/-', value: 4 },
      { op: 'add', path: '/l/-4', value: 0 },
      { op: 'remove', path: '/n' },
      { op: 'replace', path: '', value: 1 },
      { op: 'test', path: '', value: 1 },
    ];
    for (const op of applies) expect(upstreamPatchError(doc, op), JSON.stringify(op)).to.equal(undefined);
    expect(upstreamPatchError(null, { op: 'remove', path: '/a' })).to.equal(undefined);
    expect(upstreamPatchError(doc, { op: 'test', path: '/a' })).to.equal('testing value /a failed: test failed');
    expect(upstreamPatchError(doc, { op: 'test', path: '/a', value: null })).to.equal('testing value /a failed: test failed');
  });

  it('compares test values as upstream does, and leaves unjudged a comparison it cannot finish', () => {
    expect(upstreamEqual({ a: 1, b: [true, 'x'] }, { b: [true, 'x'], a: 1 })).to.equal(true);
    expect(upstreamEqual({ a: null }, { a: null })).to.equal(true);
    expect(upstreamEqual({ a: null }, { a: 0 })).to.equal(false);
    expect(upstreamEqual({ a: 1 }, { b: 1 })).to.equal(false);
    expect(upstreamEqual({ a: 1 }, { a: 1, b: 1 })).to.equal(false);
    expect(upstreamEqual([1], { 0: 1 })).to.equal(false);
    expect(upstreamEqual({}, [])).to.equal(false);
    expect(upstreamEqual('1', 1)).to.equal(false);
    expect(upstreamEqual(1, null)).to.equal(false);
    expect(upstreamEqual([1, null], [2, null])).to.equal(false);
    expect(upstreamEqual([1, null], [1, null])).to.equal(undefined);
    expect(upstreamEqual([1, 2], [1, null])).to.equal(undefined);
    expect(upstreamEqual({ a: 1, b: [null] }, { a: 2, b: [null] })).to.equal(undefined);
    expect(upstreamPatchError({ l: [[null], 1] }, { op: 'test', path: '/l', value: [[null], 2] })).to.equal(undefined);
  });
});
