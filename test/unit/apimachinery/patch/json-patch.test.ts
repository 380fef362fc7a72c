import { expect } from 'chai';
import fastJsonPatch from 'fast-json-patch';
import { applyJSONPatch, JSONPatchError, jsonPatchShapeError, jsonSize, MAX_JSON_PATCH_COPY_BYTES, MAX_JSON_PATCH_OPERATIONS, tooManyOperations } from '../../../../lib/apimachinery/patch/json-patch.js';


describe('apimachinery/patch/json-patch', () => {
  it('jsonSize is the byte length of compact JSON, escapes and multi-byte characters included', () => {
    const values: unknown[] = [
      null,
      true,
      0,
      -12.5,
      1e21,
      '',
      'plain',
      'quote " backslash \\ newline \n tab \t control \u0001',
      'é€😀',
      [],
      {},
      [1, 'two', null, [], {}],
      { a: 1, 'é"': { b: [true, false], c: {} }, d: [[[]]] },
    ];
    for (const v of values) expect(jsonSize(v), JSON.stringify(v)).to.equal(Buffer.byteLength(JSON.stringify(v)));
  });

  it('applies operations in turn, as the library does, a root replacement included', () => {
    const ops: fastJsonPatch.Operation[] = [
      { op: 'add', path: '/a/-', value: 3 },
      { op: 'move', from: '/b', path: '/c' },
      { op: 'copy', from: '/a', path: '/d' },
      { op: 'replace', path: '/a/0', value: 0 },
      { op: 'remove', path: '/e' },
      { op: 'test', path: '/c', value: 'x' },
    ];
    const doc = () => ({ a: [1, 2], b: 'x', e: true });
    const expected = fastJsonPatch.applyPatch(doc(), structuredClone(ops), true, true, false).newDocument;
    expect(applyJSONPatch(doc(), structuredClone(ops))).to.deep.equal(expected).and.deep.equal({ a: [0, 2, 3], c: 'x', d: [1, 2, 3] });
    expect(applyJSONPatch(doc(), [{ op: 'replace', path: '', value: { z: 1 } }])).to.deep.equal({ z: 1 });
  });

  it('throws JSONPatchError with the library\'s first line for an operation that does not apply', () => {
    expect(() => applyJSONPatch({ a: 1 }, [{ op: 'remove', path: '/missing' }])).to.throw(JSONPatchError, /^Cannot perform the operation at a path that does not exist[^\n]*$/);
    expect(() => applyJSONPatch({ a: 1 }, [{ op: 'test', path: '/a', value: 2 }])).to.throw(JSONPatchError);
  });

  it('a replace of a key an object lacks sets it, as upstream\'s evanphx/json-patch v4 does; a missing parent or array index still fails', () => {
    expect(applyJSONPatch({ m: { a: '1' } }, [{ op: 'replace', path: '/m/b', value: '2' }])).to.deep.equal({ m: { a: '1', b: '2' } });
    expect(applyJSONPatch({ m: {} }, [{ op: 'replace', path: '/m/a~1b~0c', value: 'v' }])).to.deep.equal({ m: { 'a/b~c': 'v' } });
    expect(applyJSONPatch({ a: 1 }, [{ op: 'replace', path: '/b', value: 2 }])).to.deep.equal({ a: 1, b: 2 });
    expect(applyJSONPatch({ m: { a: '1' } }, [{ op: 'replace', path: '/m/a', value: '3' }])).to.deep.equal({ m: { a: '3' } });
    expect(() => applyJSONPatch({ a: 1 }, [{ op: 'replace', path: '/m/b', value: 2 }])).to.throw(JSONPatchError);
    expect(() => applyJSONPatch({ l: [1] }, [{ op: 'replace', path: '/l/1', value: 2 }])).to.throw(JSONPatchError);
    expect(() => applyJSONPatch({ a: 1 }, [{ op: 'remove', path: '/b' }])).to.throw(JSONPatchError);
  });

  it('a test of a key an object lacks passes for null, as in v4; for another value it fails', () => {
    expect(applyJSONPatch({ a: 1 }, [{ op: 'test', path: '/b', value: null }, { op: 'add', path: '/c', value: 2 }])).to.deep.equal({ a: 1, c: 2 });
    expect(() => applyJSONPatch({ a: 1 }, [{ op: 'test', path: '/b', value: 0 }])).to.throw(JSONPatchError);
    expect(() => applyJSONPatch({ a: 1 }, [{ op: 'test', path: '/m/b', value: null }])).to.throw(JSONPatchError);
  });

  it('an add or replace without a value writes null, as in v4', () => {
    expect(applyJSONPatch({ a: 1 }, [{ op: 'add', path: '/b' }, { op: 'replace', path: '/a' }] as never)).to.deep.equal({ a: null, b: null });
  });

  it('add and remove count a negative array index from the end, as v4 does; one past the start fails', () => {
    expect(applyJSONPatch({ l: [1, 2, 3] }, [{ op: 'remove', path: '/l/-1' }])).to.deep.equal({ l: [1, 2] });
    expect(applyJSONPatch({ l: [1, 2, 3] }, [{ op: 'remove', path: '/l/-3' }])).to.deep.equal({ l: [2, 3] });
    expect(applyJSONPatch({ l: [1, 2, 3] }, [{ op: 'add', path: '/l/-1', value: 9 }])).to.deep.equal({ l: [1, 2, 3, 9] });
    expect(applyJSONPatch({ l: [1, 2, 3] }, [{ op: 'add', path: '/l/-2', value: 9 }])).to.deep.equal({ l: [1, 2, 9, 3] });
    expect(applyJSONPatch({ l: [1, 2, 3] }, [{ op: 'add', path: '/l/-4', value: 9 }])).to.deep.equal({ l: [9, 1, 2, 3] });
    expect(() => applyJSONPatch({ l: [1, 2, 3] }, [{ op: 'remove', path: '/l/-4' }])).to.throw(JSONPatchError);
    expect(() => applyJSONPatch({ l: [1, 2, 3] }, [{ op: 'add', path: '/l/-5', value: 9 }])).to.throw(JSONPatchError);
    expect(() => applyJSONPatch({ l: [1, 2, 3] }, [{ op: 'replace', path: '/l/-1', value: 9 }])).to.throw(JSONPatchError);
  });

  it('lets copies add up to the limit, and refuses the copy that passes it before making it', () => {
    const doc = { v: 'x'.repeat(98) }; // 100 bytes as JSON
    const copy = (i: number): fastJsonPatch.Operation => ({ op: 'copy', from: '/v', path: `/c${i}` });
    const within = applyJSONPatch(structuredClone(doc), [copy(0), copy(1), copy(2)], 300) as Record<string, string>;
    expect(Object.keys(within)).to.deep.equal(['v', 'c0', 'c1', 'c2']);
    const original = structuredClone(doc);
    expect(() => applyJSONPatch(original, [copy(0), copy(1), copy(2), copy(3)], 300)).to.throw(JSONPatchError, /^Unable to complete the copy, the accumulated size increase of copy is 400, exceeding the limit 300$/);
    expect(Object.keys(original)).to.deep.equal(['v', 'c0', 'c1', 'c2']);
  });

  it('stops a patch that doubles the object by copying it into itself at the default 3 MiB', () => {
    const ops: fastJsonPatch.Operation[] = [{ op: 'add', path: '/x', value: { s: 'x'.repeat(1024) } }];
    for (let i = 0; i < 40; i++) ops.push({ op: 'copy', from: '/x', path: `/x/y${i}` });
    let message = '';
    expect(() => applyJSONPatch({}, ops)).to.throw(JSONPatchError).that.satisfies((e: Error) => ((message = e.message), true));
    expect(message).to.match(new RegExp(`accumulated size increase of copy is \\d+, exceeding the limit ${MAX_JSON_PATCH_COPY_BYTES}$`));
    const copied = Number(/is (\d+),/.exec(message)![1]);
    expect(copied).to.be.greaterThan(MAX_JSON_PATCH_COPY_BYTES).and.lessThan(3 * MAX_JSON_PATCH_COPY_BYTES);
  });

  it('accepts the document shapes Go decodes into jsonpatch.Patch, and words the others as Go does', () => {
    for (const ok of [[], null, [{}], [null, { op: 'nope' }], [{ op: 'add', path: '/a', value: 1 }]]) expect(jsonPatchShapeError(ok), JSON.stringify(ok)).to.equal(undefined);
    expect(jsonPatchShapeError({ op: 'add' })).to.equal('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
    expect(jsonPatchShapeError('x')).to.equal('json: cannot unmarshal string into Go value of type jsonpatch.Patch');
    expect(jsonPatchShapeError([{}, 1])).to.equal('json: cannot unmarshal number into Go value of type jsonpatch.Operation');
    expect(jsonPatchShapeError([true])).to.equal('json: cannot unmarshal bool into Go value of type jsonpatch.Operation');
    expect(jsonPatchShapeError([[]])).to.equal('json: cannot unmarshal array into Go value of type jsonpatch.Operation');
  });

  it('refuses a malformed operation when it applies (upstream: 422, not 400)', () => {
    for (const op of [{ op: 'nope', path: '/a' }, { op: 'add' }, null]) {
      expect(() => applyJSONPatch({ a: 1 }, [op as never]), JSON.stringify(op)).to.throw(JSONPatchError);
    }
  });

  it('counts operations against upstream\'s bound of 10,000', () => {
    expect(tooManyOperations(MAX_JSON_PATCH_OPERATIONS)).to.equal(undefined);
    expect(tooManyOperations(MAX_JSON_PATCH_OPERATIONS + 1)).to.equal('The allowed maximum operations in a JSON patch is 10000, got 10001');
  });
});
