import { expect } from 'chai';
import fastJsonPatch from 'fast-json-patch';
import { applyJSONPatch, JSONPatchError, jsonPatchShapeError, jsonSize, MAX_JSON_PATCH_COPY_BYTES, MAX_JSON_PATCH_OPERATIONS, tooManyOperations } from '../../../../lib/apimachinery/patch/json-patch.js';

/** The message of the JSONPatchError that applying `op` to `doc` throws. */
function refusal(doc: unknown, op: unknown): string {
  try {
    applyJSONPatch(doc, [op]);
  } catch (err) {
    expect(err).to.be.instanceOf(JSONPatchError);
    return (err as Error).message;
  }
  throw new Error(`${JSON.stringify(op)} applied`);
}

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

  it('throws JSONPatchError with upstream\'s evanphx/json-patch v4 text for an operation that does not apply', () => {
    expect(refusal({ a: 1 }, { op: 'remove', path: '/missing' })).to.equal("error in remove for path: '/missing': Unable to remove nonexistent key: missing: missing value");
    expect(refusal({ a: 1 }, { op: 'test', path: '/a', value: 2 })).to.equal('testing value /a failed: test failed');
  });

  it('words each refusal as upstream\'s evanphx/json-patch v4.12 does, from the document before the operation', () => {
    const cases: [string, unknown, unknown, string][] = [
      ['remove a key an object lacks', { a: 1 }, { op: 'remove', path: '/b' }, "error in remove for path: '/b': Unable to remove nonexistent key: b: missing value"],
      ['remove an escaped key an object lacks', { m: {} }, { op: 'remove', path: '/m/a~1b~0' }, "error in remove for path: '/m/a~1b~0': Unable to remove nonexistent key: a/b~: missing value"],
      ['remove from a missing parent', { a: 1 }, { op: 'remove', path: '/m/x' }, 'remove operation does not apply: doc is missing path: "/m/x": missing value'],
      ['remove through a scalar', { a: 1 }, { op: 'remove', path: '/a/x' }, 'remove operation does not apply: doc is missing path: "/a/x": missing value'],
      ['remove an array index out of range', { l: [1] }, { op: 'remove', path: '/l/1' }, "error in remove for path: '/l/1': Unable to access invalid index: 1: invalid index referenced"],
      ['remove a negative index before the start', { l: [1, 2, 3] }, { op: 'remove', path: '/l/-4' }, "error in remove for path: '/l/-4': Unable to access invalid index: -4: invalid index referenced"],
      ['remove an array key not an integer', { l: [1] }, { op: 'remove', path: '/l/x' }, 'error in remove for path: \'/l/x\': strconv.Atoi: parsing "x": invalid syntax'],
      ['add into a missing parent', { a: 1 }, { op: 'add', path: '/m/x', value: 1 }, 'add operation does not apply: doc is missing path: "/m/x": missing value'],
      ['add through a null', { m: null }, { op: 'add', path: '/m/x', value: 1 }, 'add operation does not apply: doc is missing path: "/m/x": missing value'],
      ['add at a path without a slash', { a: 1 }, { op: 'add', path: 'b', value: 1 }, 'add operation does not apply: doc is missing path: "b": missing value'],
      ['add without a path', { a: 1 }, { op: 'add', value: 1 }, 'add operation failed to decode path: missing value'],
      ['add at an index beyond the length', { l: [1] }, { op: 'add', path: '/l/5', value: 1 }, "error in add for path: '/l/5': Unable to access invalid index: 5: invalid index referenced"],
      ['add at a negative index before the start', { l: [1, 2, 3] }, { op: 'add', path: '/l/-5', value: 1 }, "error in add for path: '/l/-5': Unable to access invalid index: -5: invalid index referenced"],
      ['add at an array key not an integer', { l: [1] }, { op: 'add', path: '/l/x', value: 1 }, 'error in add for path: \'/l/x\': value was not a proper array index: \'x\': strconv.Atoi: parsing "x": invalid syntax'],
      ['replace into a missing parent', { a: 1 }, { op: 'replace', path: '/m/b', value: 2 }, 'replace operation does not apply: doc is missing path: /m/b: missing value'],
      ['replace an array index out of range', { l: [1] }, { op: 'replace', path: '/l/1', value: 2 }, 'replace operation does not apply: doc is missing key: /l/1: missing value'],
      ['replace at a path not a string', { a: 1 }, { op: 'replace', path: 5, value: 2 }, 'replace operation failed to decode path: json: cannot unmarshal number into Go value of type string'],
      ['test a value that differs', { a: 1 }, { op: 'test', path: '/a', value: 2 }, 'testing value /a failed: test failed'],
      ['test an object that differs', { m: { a: [1, { b: 'x' }] } }, { op: 'test', path: '/m', value: { a: [1, { b: 'y' }] } }, 'testing value /m failed: test failed'],
      ['test a key an object lacks for a value', { a: 1 }, { op: 'test', path: '/b', value: 0 }, 'testing value /b failed: test failed'],
      ['test under a missing parent', { a: 1 }, { op: 'test', path: '/m/b', value: null }, 'test operation does not apply: is missing path: /m/b: missing value'],
      ['test an array index out of range', { l: [1] }, { op: 'test', path: '/l/5', value: 1 }, "error in test for path: '/l/5': Unable to access invalid index: 5: invalid index referenced"],
      ['test the end of an array', { l: [1] }, { op: 'test', path: '/l/-', value: 1 }, 'error in test for path: \'/l/-\': strconv.Atoi: parsing "-": invalid syntax'],
      ['move without a from', { a: 1 }, { op: 'move', path: '/b' }, 'move operation failed to decode from: operation, missing from field: missing value'],
      ['move from a missing parent', { a: 1 }, { op: 'move', from: '/m/x', path: '/b' }, 'move operation does not apply: doc is missing from path: /m/x: missing value'],
      ['move from a key an object lacks', { a: 1 }, { op: 'move', from: '/x', path: '/b' }, "error in move for path: 'x': Unable to remove nonexistent key: x: missing value"],
      ['move from an array index out of range', { l: [1] }, { op: 'move', from: '/l/5', path: '/b' }, "error in move for path: '5': Unable to access invalid index: 5: invalid index referenced"],
      ['move to a missing parent', { a: 1 }, { op: 'move', from: '/a', path: '/m/x' }, 'move operation does not apply: doc is missing destination path: /m/x: missing value'],
      ['move into itself', { a: {} }, { op: 'move', from: '/a', path: '/a/b' }, 'move operation does not apply: doc is missing destination path: /a/b: missing value'],
      ['move to an item its removal shifts out', { l: [{}, {}] }, { op: 'move', from: '/l/0', path: '/l/1/x' }, 'move operation does not apply: doc is missing destination path: /l/1/x: missing value'],
      ['copy without a from', { a: 1 }, { op: 'copy', path: '/b' }, 'copy operation failed to decode from: operation, missing from field: missing value'],
      ['copy from a missing parent', { a: 1 }, { op: 'copy', from: '/m/x', path: '/b' }, 'copy operation does not apply: doc is missing from path: /m/x: missing value'],
      ['copy from an array index out of range', { l: [1] }, { op: 'copy', from: '/l/5', path: '/b' }, "error in copy for from: '/l/5': Unable to access invalid index: 5: invalid index referenced"],
      ['copy to a missing parent', { a: 1 }, { op: 'copy', from: '/a', path: '/m/x' }, 'copy operation does not apply: doc is missing destination path: /m/x: missing value'],
      ['an unknown op', { a: 1 }, { op: 'nope', path: '/a' }, 'Unexpected kind: nope'],
      ['no op', { a: 1 }, { path: '/a' }, 'Unexpected kind: unknown'],
      ['an op not a string', { a: 1 }, { op: 1, path: '/a' }, 'Unexpected kind: unknown'],
      ['a null operation', { a: 1 }, null, 'Unexpected kind: unknown'],
    ];
    for (const [name, doc, op, message] of cases) {
      const before = structuredClone(doc);
      expect(refusal(doc, op), name).to.equal(message);
      // fast-json-patch may fail a move after taking the value out of `from`.
      if ((op as { op?: unknown } | null)?.op !== 'move') expect(doc, name).to.deep.equal(before);
    }
  });

  it('applies what upstream\'s library applies and fast-json-patch refuses: a copy from a missing key, a test of a null item for null', () => {
    expect(applyJSONPatch({ a: 1 }, [{ op: 'copy', from: '/x', path: '/b' }])).to.deep.equal({ a: 1, b: null });
    expect(applyJSONPatch({ a: {}, l: [1] }, [{ op: 'copy', from: '/a/x', path: '/l/0' }])).to.deep.equal({ a: {}, l: [null, 1] });
    expect(applyJSONPatch({ a: null }, [{ op: 'test', path: '/a', value: null }])).to.deep.equal({ a: null });
    expect(applyJSONPatch({ l: [null] }, [{ op: 'test', path: '/l/0', value: null }])).to.deep.equal({ l: [null] });
    expect(refusal({ l: [null] }, { op: 'test', path: '/l/1', value: null })).to.equal("error in test for path: '/l/1': Unable to access invalid index: 1: invalid index referenced");
    // Upstream's library dereferences nil here (its request panics, 500); refused as fast-json-patch refuses it.
    expect(refusal({ a: 1 }, { op: 'test', path: '/b' })).to.equal('Operation `value` property is not present (applicable in `add`, `replace` and `test` operations)');
    expect(refusal({ a: 1 }, { op: 'test', path: '/a' })).to.equal('testing value /a failed: test failed');
    expect(refusal({ a: 1 }, { op: 'move', from: '/x', path: '/b' })).to.equal("error in move for path: 'x': Unable to remove nonexistent key: x: missing value");
  });

  it('reads an array index as strconv.Atoi, a negative one from the end, in every operation and at every step of a path', () => {
    const l = () => ({ l: [1, 2, 3] });
    expect(applyJSONPatch(l(), [{ op: 'replace', path: '/l/-1', value: 9 }])).to.deep.equal({ l: [1, 2, 9] });
    expect(applyJSONPatch(l(), [{ op: 'replace', path: '/l/01', value: 9 }])).to.deep.equal({ l: [1, 9, 3] });
    expect(applyJSONPatch(l(), [{ op: 'remove', path: '/l/+0' }])).to.deep.equal({ l: [2, 3] });
    expect(applyJSONPatch(l(), [{ op: 'add', path: '/l/01', value: 9 }])).to.deep.equal({ l: [1, 9, 2, 3] });
    expect(applyJSONPatch(l(), [{ op: 'test', path: '/l/-1', value: 3 }])).to.deep.equal(l());
    expect(refusal(l(), { op: 'test', path: '/l/-1', value: 2 })).to.equal('testing value /l/-1 failed: test failed');
    expect(applyJSONPatch(l(), [{ op: 'copy', from: '/l/-1', path: '/m' }])).to.deep.equal({ l: [1, 2, 3], m: 3 });
    expect(applyJSONPatch(l(), [{ op: 'copy', from: '/l/0', path: '/l/-1' }])).to.deep.equal({ l: [1, 2, 3, 1] });
    expect(applyJSONPatch(l(), [{ op: 'move', from: '/l/-1', path: '/m' }])).to.deep.equal({ l: [1, 2], m: 3 });
    // The move takes the item out first: -1 then counts in a list of two, made three again.
    expect(applyJSONPatch(l(), [{ op: 'move', from: '/l/0', path: '/l/-1' }])).to.deep.equal({ l: [2, 3, 1] });
    expect(applyJSONPatch({ l: [{ a: 1 }, { a: 2 }] }, [{ op: 'replace', path: '/l/-1/a', value: 5 }])).to.deep.equal({ l: [{ a: 1 }, { a: 5 }] });
    expect(applyJSONPatch({ o: { '-1': 'k' } }, [{ op: 'replace', path: '/o/-1', value: 'v' }])).to.deep.equal({ o: { '-1': 'v' } });
    expect(refusal(l(), { op: 'replace', path: '/l/-4', value: 9 })).to.equal('replace operation does not apply: doc is missing key: /l/-4: missing value');
    expect(refusal(l(), { op: 'copy', from: '/l/-4', path: '/m' })).to.equal("error in copy for from: '/l/-4': Unable to access invalid index: -4: invalid index referenced");
    expect(refusal(l(), { op: 'replace', path: '/l/-', value: 9 })).to.equal('replace operation does not apply: doc is missing key: /l/-: missing value');
  });

  it('refuses what fast-json-patch accepts and upstream does not: a copy or move past an array\'s end, an unknown operation', () => {
    expect(refusal({ l: [1, 2] }, { op: 'copy', from: '/l/0', path: '/l/5' })).to.equal('error while adding value during copy: Unable to access invalid index: 5: invalid index referenced');
    expect(refusal({ l: [1, 2] }, { op: 'move', from: '/l/0', path: '/l/5' })).to.equal("error in move for path: '/l/5': Unable to access invalid index: 5: invalid index referenced");
    expect(refusal({ a: 1 }, { op: '_get', path: '/a' })).to.equal('Unexpected kind: _get');
    expect(applyJSONPatch({ l: [1, 2] }, [{ op: 'copy', from: '/l/0', path: '/l/2' }])).to.deep.equal({ l: [1, 2, 1] });
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
