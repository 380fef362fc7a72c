import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { sortedDeep } from '../../../lib/apimachinery/schema/canonical.js';
import { writtenJSONBody } from '../../../lib/apimachinery/serializers/json-cache.js';
import { ObjectCodec, stampedBody } from '../../../lib/storage/etcd3/codec.js';
import type { StoredObject } from '../../../lib/storage/interface.js';
import { StorageError } from '../../../lib/storage/errors.js';

/** A canonical form for the test: keys sorted (stands for a kind's canonicalize). */
const sortedKeys = (o: Record<string, unknown>) => Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));

describe('storage/etcd3 codec: values in canonical form (issue #23 item 3)', () => {
  const codec = new ObjectCodec(sortedKeys);

  it('stores the canonical form with a trailing newline and without resourceVersion', () => {
    const { value } = codec.encode({ z: 1, metadata: { name: 'a', resourceVersion: '7' }, a: 2 });
    expect(value.toString()).to.equal('{"a":2,"metadata":{"name":"a"},"z":1}\n');
  });

  it('stamps resourceVersion where ObjectMeta declares it, after name … uid', () => {
    const obj = codec.decode('k', Buffer.from('{"metadata":{"name":"a","namespace":"n","uid":"u","creationTimestamp":"t","labels":{}}}\n'), '9');
    expect(Object.keys(obj.metadata!)).to.deep.equal(['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp', 'labels']);
    expect(obj.metadata!.resourceVersion).to.equal('9');
  });

  it('puts a value written before the canonical form (no trailing newline) in canonical form when read', () => {
    expect(Object.keys(codec.decode('k', Buffer.from('{"z":1,"a":2}'), '3'))).to.deep.equal(['a', 'z', 'metadata']);
    expect(Object.keys(codec.decode('k', Buffer.from('{"z":1,"a":2}\n'), '3'))).to.deep.equal(['z', 'a', 'metadata']);
  });

  it('answers the object just written without parsing its bytes again, a fresh metadata stamped', () => {
    const encoded = codec.encode({ metadata: { name: 'a' } });
    const written = codec.written(encoded, '12');
    expect(written.metadata).to.deep.equal({ name: 'a', resourceVersion: '12' });
    expect(encoded.canonical.metadata).to.deep.equal({ name: 'a' });
  });

  describe('the JSON body of a written object, made from its stored bytes (issue #17 item 1)', () => {
    const FIXTURES = new URL('../../fixtures/kinds/', import.meta.url);
    const fixtures = readdirSync(FIXTURES).map((f) => [f, JSON.parse(readFileSync(new URL(f, FIXTURES), 'utf8')) as StoredObject] as const);
    const identity = new ObjectCodec();
    const deep = new ObjectCodec((o) => sortedDeep(o) as StoredObject);
    /** The body as a serialization of the stamped object gives it. */
    const serialized = (c: ObjectCodec, obj: StoredObject, rv: string) => `${JSON.stringify(c.stamped(c.encode(obj).canonical, rv))}\n`;

    it('is byte for byte the serialization of the stamped object, for an object of every kind in either order', () => {
      expect(fixtures.length).to.be.above(50);
      for (const [name, obj] of fixtures) {
        for (const [order, c] of [['declared', identity], ['sorted', deep]] as const) {
          for (const rv of ['1', '123456789', '']) {
            const e = c.encode(obj);
            expect(stampedBody(e.canonical, e.value, rv)?.toString('utf8'), `${name}, ${order}, rv ${rv}`).to.equal(serialized(c, obj, rv));
          }
        }
      }
    });

    it('puts resourceVersion right for any metadata: none before it, nothing after it, non-ASCII text before it', () => {
      const cases: StoredObject[] = [
        { kind: 'K', metadata: {} },
        { kind: 'K', metadata: { labels: { a: 'b' } } },
        { kind: 'K', metadata: { name: 'a', uid: 'u' } },
        { kind: 'Kä€😀', apiVersion: 'v\u2028"\\', metadata: { name: 'é', generateName: '"x', annotations: { ü: 'ß' } }, data: { 'ñ': '😀' } },
        { data: { big: 'x'.repeat(10_000) }, metadata: { namespace: 'n', creationTimestamp: null }, spec: {} },
        { metadata: { resourceVersion: '5', name: 'a', finalizers: ['f'] } },
      ];
      for (const obj of cases) {
        for (const c of [identity, deep]) {
          const e = c.encode(obj);
          expect(stampedBody(e.canonical, e.value, '77')?.toString('utf8'), JSON.stringify(obj)).to.equal(serialized(c, obj, '77'));
        }
      }
    });

    it('is made for an object read from its stored bytes, in memory of its own, for a value in the canonical form only (issue #24)', () => {
      for (const [name, obj] of fixtures) {
        for (const c of [identity, deep]) {
          const { value } = c.encode(obj);
          const read = c.decode('k', value, '42');
          const body = c.storedBody(read, value, '42')!();
          expect(body?.toString('utf8'), name).to.equal(`${JSON.stringify(read)}\n`);
          expect(body!.byteOffset === 0 && body!.buffer.byteLength === body!.length, `${name}: own memory`).to.equal(true);
        }
      }
      const legacy = Buffer.from('{"metadata":{"name":"a"},"kind":"K"}');
      expect(identity.storedBody(identity.decode('k', legacy, '3'), legacy, '3'), 'a value decode puts in canonical form').to.equal(undefined);
      const spaced = Buffer.from('{"kind": "K", "metadata": {"name": "a"}}\n');
      expect(identity.storedBody(identity.decode('k', spaced, '3'), spaced, '3')!(), 'bytes another writer laid out').to.equal(undefined);
    });

    it('is not made for an object without metadata; the body of a written object is then its serialization', () => {
      const e = identity.encode({ kind: 'K', spec: { a: 1 } });
      expect(stampedBody(e.canonical, e.value, '3')).to.equal(undefined);
      const written = identity.written(e, '3');
      expect(writtenJSONBody(written)?.toString('utf8')).to.equal(`${JSON.stringify(written)}\n`);
    });

    it('is what a response of the written object writes; any other object has none', () => {
      const e = identity.encode(fixtures[0]![1]);
      const written = identity.written(e, '9');
      const body = writtenJSONBody(written)!;
      expect(body.toString('utf8')).to.equal(`${JSON.stringify(written)}\n`);
      expect(writtenJSONBody(identity.stamped(e.canonical, '9'))).to.equal(undefined);
      expect(writtenJSONBody({ ...written })).to.equal(undefined);
    });
  });

  it('reports a corrupt value with Go encoding/json wording, never the JavaScript parser message', () => {
    try {
      codec.decode('/k', Buffer.from('{"a":'), '1');
      expect.fail('decoded a corrupt value');
    } catch (err) {
      expect(err).to.be.instanceOf(StorageError);
      expect((err as Error).message).to.include('stored value is not valid JSON: unexpected end of JSON input');
    }
  });
});
