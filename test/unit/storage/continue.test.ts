import { expect } from 'chai';
import { META_GROUP } from '../../../lib/apis/vendor.js';
import { decodeContinue, encodeContinue } from '../../../lib/storage/continue.js';
import { StorageError } from '../../../lib/storage/errors.js';

const PREFIX = '/registry/core/configmaps/';
const raw = (token: object) => Buffer.from(JSON.stringify(token)).toString('base64url');
const valid = { v: `${META_GROUP}/v1`, rv: 7, start: 'ns/b\x00' };

/** The InvalidContinue message `decodeContinue(token)` throws. */
function invalidContinue(token: string): string {
  try {
    decodeContinue(token, PREFIX);
  } catch (err) {
    expect(err).to.be.instanceOf(StorageError);
    expect((err as StorageError).code).to.equal('InvalidContinue');
    return (err as StorageError).message;
  }
  expect.fail(`token ${token} was accepted`);
}

describe('storage/continue: tokens (spec 000 § Chunked list parameters)', () => {
  it('round trip: the start key and revision come back', () => {
    const token = encodeContinue(`${PREFIX}ns/b\x00`, PREFIX, 42);
    expect(decodeContinue(token, PREFIX)).to.deep.equal({ startKey: `${PREFIX}ns/b\x00`, rv: 42 });
  });

  it('the token is unpadded base64url of {v, rv, start} with start relative to the prefix', () => {
    const token = encodeContinue(`${PREFIX}ns/b\x00`, PREFIX, 42);
    expect(token).to.match(/^[A-Za-z0-9_-]+$/);
    expect(JSON.parse(Buffer.from(token, 'base64url').toString('utf8'))).to.deep.equal({ v: `${META_GROUP}/v1`, rv: 42, start: 'ns/b\x00' });
  });

  it('a -1 token (continue inconsistently at the newest revision) round-trips', () => {
    expect(decodeContinue(encodeContinue(`${PREFIX}x`, PREFIX, -1), PREFIX)).to.deep.equal({ startKey: `${PREFIX}x`, rv: -1 });
  });

  it('decoding under another prefix resolves the start key under that prefix', () => {
    const token = encodeContinue(`${PREFIX}ns/b`, PREFIX, 3);
    expect(decodeContinue(token, '/other/').startKey).to.equal('/other/ns/b');
  });

  it('standard-alphabet base64 (+ and /) is accepted', () => {
    const std = Buffer.from(JSON.stringify({ ...valid, start: '>>>?' })).toString('base64').replace(/=+$/, '');
    expect(std).to.match(/[+/]/);
    expect(decodeContinue(std, PREFIX).startKey).to.equal(`${PREFIX}>>>?`);
  });

  it('encoding a key outside the prefix throws', () => {
    expect(() => encodeContinue('/elsewhere/x', PREFIX, 1)).to.throw('outside');
  });

  const malformed: Array<[string, string, string]> = [
    ['not base64 at all', '%%%', 'continue key is not valid: illegal base64 data or JSON'],
    ['base64 of non-JSON', Buffer.from('hello').toString('base64url'), 'continue key is not valid: illegal base64 data or JSON'],
    ['a character outside the base64 alphabet inside a valid token', `${raw(valid).slice(0, 5)}*${raw(valid).slice(5)}`, 'continue key is not valid: illegal base64 data or JSON'],
    ['trailing garbage after a valid token', `${raw(valid)}!!`, 'continue key is not valid: illegal base64 data or JSON'],
    ['a truncated token', raw(valid).slice(0, 10), 'continue key is not valid: illegal base64 data or JSON'],
    ['an empty token', '', 'continue key is not valid: illegal base64 data or JSON'],
    ['JSON that is not an object', raw([1] as unknown as object), 'continue key is not valid: server does not recognize this encoded version'],
    ['JSON null', Buffer.from('null').toString('base64url'), 'continue key is not valid: server does not recognize this encoded version'],
    ['an unknown version', raw({ ...valid, v: 'meta.example.io/v2' }), 'continue key is not valid: server does not recognize this encoded version'],
    ['no version', raw({ rv: 7, start: 'a' }), 'continue key is not valid: server does not recognize this encoded version'],
    ['a zero revision', raw({ ...valid, rv: 0 }), `continue key is not valid: incorrect encoded start resourceVersion (version ${META_GROUP}/v1)`],
    ['a revision below -1', raw({ ...valid, rv: -2 }), `continue key is not valid: incorrect encoded start resourceVersion (version ${META_GROUP}/v1)`],
    ['a fractional revision', raw({ ...valid, rv: 1.5 }), `continue key is not valid: incorrect encoded start resourceVersion (version ${META_GROUP}/v1)`],
    ['a string revision', raw({ ...valid, rv: '7' }), `continue key is not valid: incorrect encoded start resourceVersion (version ${META_GROUP}/v1)`],
    ['no revision', raw({ v: valid.v, start: 'a' }), `continue key is not valid: incorrect encoded start resourceVersion (version ${META_GROUP}/v1)`],
    ['an empty start key', raw({ ...valid, start: '' }), 'continue key is not valid: encoded start key empty'],
    ['no start key', raw({ v: valid.v, rv: 7 }), 'continue key is not valid: encoded start key empty'],
    ['a non-string start key', raw({ ...valid, start: 5 }), 'continue key is not valid: encoded start key empty'],
    ['a start key with ..', raw({ ...valid, start: '../secrets/x' }), 'continue key is not valid: the start key may not contain path traversal'],
    ['a start key with a . segment', raw({ ...valid, start: 'a/./b' }), 'continue key is not valid: the start key may not contain path traversal'],
    ['an absolute start key', raw({ ...valid, start: '/registry/secrets/x' }), 'continue key is not valid: the start key may not contain path traversal'],
  ];
  for (const [what, token, message] of malformed) {
    it(`${what} is InvalidContinue: ${message}`, () => {
      expect(invalidContinue(token)).to.equal(message);
    });
  }
});
