import { expect } from 'chai';
import { WRITTEN_OBJECTS_MAX, WrittenObjects } from '../../../../lib/storage/etcd3/written-objects.js';

const obj = (name: string) => ({ metadata: { name } });
const bytes = (s: string) => Buffer.from(`${s}\n`);

describe('storage/etcd3: the objects of a storage\'s own writes (WrittenObjects)', () => {
  it('gives a put\'s object only for the very bytes written at its key, once', () => {
    const w = new WrittenObjects();
    const a = obj('a');
    w.put('/k/a', bytes('{"a":1}'), a);
    expect(w.takePut('/k/a', bytes('{"a":2}'))).to.equal(undefined);
    expect(w.takePut('/k/b', bytes('{"a":1}'))).to.equal(undefined);
    expect(w.takeDelete('/k/a', '7')).to.equal(undefined);
    expect(w.takePut('/k/a', bytes('{"a":1}'))).to.equal(a);
    expect(w.takePut('/k/a', bytes('{"a":1}'))).to.equal(undefined);
    expect(w.size).to.equal(0);
  });

  it('gives a delete\'s object only for the revision of the state it removed, once', () => {
    const w = new WrittenObjects();
    const a = obj('a');
    w.delete('/k/a', '7', a);
    expect(w.takeDelete('/k/a', '8')).to.equal(undefined);
    expect(w.takePut('/k/a', bytes('{}'))).to.equal(undefined);
    expect(w.takeDelete('/k/a', '7')).to.equal(a);
    expect(w.takeDelete('/k/a', '7')).to.equal(undefined);
  });

  it('keeps only the latest write of a key', () => {
    const w = new WrittenObjects();
    w.put('/k/a', bytes('1'), obj('first'));
    const second = obj('second');
    w.put('/k/a', bytes('2'), second);
    expect(w.size).to.equal(1);
    expect(w.takePut('/k/a', bytes('1'))).to.equal(undefined);
    expect(w.takePut('/k/a', bytes('2'))).to.equal(second);
  });

  it(`holds at most ${WRITTEN_OBJECTS_MAX} writes, dropping the oldest first`, () => {
    const w = new WrittenObjects();
    for (let i = 0; i <= WRITTEN_OBJECTS_MAX; i++) w.put(`/k/${i}`, bytes(String(i)), obj(String(i)));
    expect(w.size).to.equal(WRITTEN_OBJECTS_MAX);
    expect(w.takePut('/k/0', bytes('0'))).to.equal(undefined);
    expect(w.takePut('/k/1', bytes('1'))).to.deep.equal(obj('1'));
    // A key written again moves to the newest end: the next drop takes /k/3, not it.
    w.put('/k/2', bytes('2 again'), obj('2 again'));
    w.put('/k/new', bytes('new'), obj('new'));
    w.put('/k/newer', bytes('newer'), obj('newer'));
    expect(w.takePut('/k/3', bytes('3'))).to.equal(undefined);
    expect(w.takePut('/k/2', bytes('2 again'))).to.deep.equal(obj('2 again'));
  });
});
