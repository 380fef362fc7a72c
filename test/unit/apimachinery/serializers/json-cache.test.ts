import { expect } from 'chai';
import { WRITTEN_BODIES_MAX, cachedJSON, cachedJSONBody, carryJSONBody, forgetJSONBody, memoizedJSONBody, rememberWrittenBody, writtenJSONBody } from '../../../../lib/apimachinery/serializers/json-cache.js';
import { encodeJSON } from '../../../../lib/apimachinery/serializers/json.js';

describe('apimachinery/serializers/json-cache', () => {
  const obj = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a', labels: { x: '<y>' } }, data: { k: 'v\u2028' } };

  it('writes the bytes encodeJSON writes, in memory of its own (not a slice of the shared pool)', () => {
    const body = cachedJSONBody(obj);
    expect(body.equals(encodeJSON(obj))).to.equal(true);
    expect(body.byteOffset).to.equal(0);
    expect(body.buffer.byteLength).to.equal(body.length);
    expect(cachedJSONBody(obj)).to.equal(body);
  });

  it('turns one object instance into JSON once: a second body is the first text, even after a (contract-breaking) change', () => {
    const o = { a: 1 };
    const first = cachedJSONBody(o).toString();
    o.a = 2;
    expect(cachedJSONBody(o).toString()).to.equal(first);
    expect(cachedJSON(o).toString()).to.equal('{"a":1}');
    expect(cachedJSONBody({ a: 2 }).toString()).to.equal('{"a":2}\n');
  });

  it("carries a body to an object's next version only when the old one had one, calling the maker only then (issue #24)", () => {
    const listed = { a: 1 };
    const unlisted = { a: 1 };
    cachedJSONBody(listed);
    const made: object[] = [];
    const next = { a: 2 };
    const other = { a: 2 };
    carryJSONBody(unlisted, other, () => (made.push(other), Buffer.from('{"a":2}\n')));
    expect(made).to.deep.equal([], 'never called for an object that had no body');
    expect(memoizedJSONBody(other)).to.equal(undefined);
    const body = Buffer.from('{"a":2}\n');
    carryJSONBody(listed, next, () => (made.push(next), body));
    expect(memoizedJSONBody(next)).to.equal(body);
    expect(cachedJSONBody(next)).to.equal(body, 'served without a serialization');
    carryJSONBody(listed, next, () => (made.push(next), Buffer.from('{"a":2}\n')));
    expect(made).to.have.length(1, 'a body already made is kept');
    const none = { a: 3 };
    carryJSONBody(listed, none, () => undefined);
    expect(memoizedJSONBody(none)).to.equal(undefined, 'a maker that cannot make one leaves it to the first request');
  });

  it('drops the body of an object it is told to forget; a later request for it makes it again', () => {
    const o = { a: 1 };
    const first = cachedJSONBody(o);
    forgetJSONBody(o);
    const again = cachedJSONBody(o);
    expect(again).to.not.equal(first);
    expect(again.equals(first)).to.equal(true);
    forgetJSONBody({ never: 'cached' });
  });

  it("hands a written object's body to one response: the maker is taken once", () => {
    const o = { a: 1 };
    let made = 0;
    rememberWrittenBody(o, () => (made++, Buffer.from('{"a":1}\n')));
    expect(writtenJSONBody(o)?.toString()).to.equal('{"a":1}\n');
    expect(writtenJSONBody(o)).to.equal(undefined);
    expect(made).to.equal(1);
  });

  it('keeps the makers of the latest writes only, so that an object no response asked for does not keep its stored bytes', () => {
    const objs = Array.from({ length: WRITTEN_BODIES_MAX + 10 }, (_, i) => ({ i }));
    for (const o of objs) rememberWrittenBody(o, () => Buffer.from(`${JSON.stringify(o)}\n`));
    for (const o of objs.slice(0, 10)) expect(writtenJSONBody(o), `write ${o.i}`).to.equal(undefined);
    expect(writtenJSONBody(objs[10]!)?.toString()).to.equal('{"i":10}\n');
    expect(writtenJSONBody(objs.at(-1)!)?.toString()).to.equal(`{"i":${WRITTEN_BODIES_MAX + 9}}\n`);
  });
});
