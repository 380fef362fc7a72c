import { expect } from 'chai';
import { ObjectCodec } from '../../../lib/storage/etcd3/codec.js';
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
