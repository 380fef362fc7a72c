import { expect } from 'chai';
import { setImmediate as tick } from 'node:timers/promises';
import { AsyncQueue } from '../../../lib/storage/async-queue.js';
import type { WatchEvent } from '../../../lib/storage/interface.js';
import { iterableWatcher } from '../../../lib/storage/iterable-watcher.js';

const ev = (name: string): WatchEvent => ({ type: 'ADDED', object: { metadata: { name } } });

/** An async iterable over a queue that counts how many items it has handed out. */
function source() {
  const q = new AsyncQueue<WatchEvent>();
  let read = 0;
  const events: AsyncIterable<WatchEvent> = {
    async *[Symbol.asyncIterator]() {
      for await (const e of q) {
        read++;
        yield e;
      }
    },
  };
  return { q, events, read: () => read };
}

describe('storage/iterable-watcher: take() over an async iterable of events', () => {
  it('reads one event ahead of the consumer, in order, and ends with null', async () => {
    const { q, events, read } = source();
    const w = iterableWatcher(events, { stop: () => q.close() });
    let told = 0;
    w.onReadable(() => told++);
    for (const n of ['a', 'b', 'c']) q.push(ev(n));
    await tick();
    expect(read(), 'holds at most one event outside the source').to.equal(1);
    const got: string[] = [];
    for (let i = 0; i < 3; i++) {
      const e = w.take();
      expect(e).to.not.equal(null);
      if (e) got.push(String(e.object.metadata!.name));
      await tick();
    }
    expect(got).to.deep.equal(['a', 'b', 'c']);
    expect(w.take()).to.equal(undefined);
    q.close();
    await tick();
    expect(w.take()).to.equal(null);
    expect(told).to.be.greaterThanOrEqual(4);
  });

  it('a failing iterable ends the stream and stops the watch', async () => {
    let stopped = 0;
    const events: AsyncIterable<WatchEvent> = {
      [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error('conversion failed')) }),
    };
    const w = iterableWatcher(events, { stop: () => stopped++ });
    w.onReadable(() => undefined);
    await tick();
    expect(w.take()).to.equal(null);
    expect(stopped).to.equal(1);
  });

  it('passes stop (graceful or not), done and the async iterator through', async () => {
    const { q, events } = source();
    const calls: (boolean | undefined)[] = [];
    const done = Promise.resolve();
    const w = iterableWatcher(events, { stop: (g) => calls.push(g), done });
    w.stop(true);
    w.stop();
    expect(calls).to.deep.equal([true, undefined]);
    expect(w.done).to.equal(done);
    q.push(ev('x'));
    q.close();
    const names: string[] = [];
    for await (const e of w) names.push(String(e.object.metadata!.name));
    expect(names).to.deep.equal(['x']);
  });
});
