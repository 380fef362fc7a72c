import { expect } from 'chai';
import { AsyncQueue } from '../../../lib/storage/async-queue.js';

/** Drains `q` until it ends. */
async function drain<T>(q: AsyncQueue<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of q) out.push(x);
  return out;
}

describe('storage/async-queue: a pushed stream as an AsyncIterable', () => {
  it('yields buffered items in push order', async () => {
    const q = new AsyncQueue<number>();
    q.push(1);
    q.push(2);
    q.push(3);
    q.close();
    expect(await drain(q)).to.deep.equal([1, 2, 3]);
  });

  it('hands an item pushed later to a waiting consumer', async () => {
    const q = new AsyncQueue<string>();
    const it = q[Symbol.asyncIterator]();
    const pending = it.next();
    q.push('a');
    expect(await pending).to.deep.equal({ value: 'a', done: false });
  });

  it('close() ends iteration only after the buffered items are consumed', async () => {
    const q = new AsyncQueue<number>();
    q.push(1);
    q.close();
    const it = q[Symbol.asyncIterator]();
    expect(await it.next()).to.deep.equal({ value: 1, done: false });
    expect((await it.next()).done).to.equal(true);
  });

  it('close() ends a consumer that is waiting', async () => {
    const q = new AsyncQueue<number>();
    const pending = q[Symbol.asyncIterator]().next();
    q.close();
    expect((await pending).done).to.equal(true);
  });

  it('push after close is ignored', async () => {
    const q = new AsyncQueue<number>();
    q.push(1);
    q.close();
    q.push(2);
    expect(q.length).to.equal(1);
    expect(await drain(q)).to.deep.equal([1]);
  });

  it('close is idempotent and isClosed reports it', () => {
    const q = new AsyncQueue<number>();
    expect(q.isClosed).to.equal(false);
    q.close();
    q.close();
    expect(q.isClosed).to.equal(true);
  });

  it('length counts buffered, unconsumed items', async () => {
    const q = new AsyncQueue<number>();
    q.push(1);
    q.push(2);
    expect(q.length).to.equal(2);
    await q[Symbol.asyncIterator]().next();
    expect(q.length).to.equal(1);
  });

  it('an item handed to a waiting consumer is not buffered', async () => {
    const q = new AsyncQueue<number>();
    const pending = q[Symbol.asyncIterator]().next();
    q.push(1);
    await pending;
    expect(q.length).to.equal(0);
  });

  it('breaking out of for-await closes the queue and drops what is buffered', async () => {
    const q = new AsyncQueue<number>();
    q.push(1);
    q.push(2);
    q.push(3);
    for await (const x of q) {
      expect(x).to.equal(1);
      break;
    }
    expect(q.isClosed).to.equal(true);
    expect(q.length).to.equal(0);
    expect((await q[Symbol.asyncIterator]().next()).done).to.equal(true);
  });

  it('keeps order across many items (internal compaction)', async () => {
    const q = new AsyncQueue<number>();
    const n = 5000;
    const it = q[Symbol.asyncIterator]();
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      q.push(i);
      if (i % 3 === 0) out.push((await it.next()).value as number);
    }
    q.close();
    for (let r = await it.next(); !r.done; r = await it.next()) out.push(r.value);
    expect(out).to.deep.equal(Array.from({ length: n }, (_, i) => i));
  });

  it('take() returns buffered items in order, undefined when empty, null once closed and drained', () => {
    const q = new AsyncQueue<number>();
    expect(q.take()).to.equal(undefined);
    q.push(1);
    q.push(2);
    expect(q.take()).to.equal(1);
    q.close();
    expect(q.take()).to.equal(2);
    expect(q.take()).to.equal(null);
  });

  it('onReadable is told on every push and on close, synchronously', () => {
    const q = new AsyncQueue<number>();
    const told: number[] = [];
    q.onReadable(() => told.push(q.length));
    q.push(1);
    q.push(2);
    q.close();
    q.push(3);
    expect(told).to.deep.equal([1, 2, 2]);
  });

  it('take() keeps order across many items (internal compaction)', () => {
    const q = new AsyncQueue<number>();
    const out: number[] = [];
    for (let i = 0; i < 5000; i++) {
      q.push(i);
      if (i % 3 === 0) out.push(q.take() as number);
    }
    for (let x = q.take(); x !== undefined; x = q.take()) out.push(x as number);
    expect(out).to.deep.equal(Array.from({ length: 5000 }, (_, i) => i));
  });
});
