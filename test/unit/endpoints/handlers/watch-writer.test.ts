import { expect } from 'chai';
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { setImmediate as tick } from 'node:timers/promises';
import { configMap } from '../../../../lib/apis/core/v1/config-map.js';
import { watchFrameEncoder } from '../../../../lib/endpoints/handlers/watch-encoder.js';
import { FlushScheduler } from '../../../../lib/endpoints/handlers/watch-scheduler.js';
import { SLICE_BYTES, WatchStreamWriter } from '../../../../lib/endpoints/handlers/watch-writer.js';
import { CacheWatcher, type CacheWatcherOptions } from '../../../../lib/storage/cacher/cache-watcher.js';
import type { CacheEvent } from '../../../../lib/storage/cacher/watch-cache.js';
import { EVERYTHING, type StoredObject } from '../../../../lib/storage/interface.js';

const P = '/r/core/configmaps/';
const encode = watchFrameEncoder({ protobuf: false, kind: configMap });

/** The change of revision `rv` (a ConfigMap with `size` bytes of data). */
function change(rv: number, size = 10): CacheEvent {
  const object: StoredObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'a', name: 'x', resourceVersion: String(rv) }, data: { k: 'v'.repeat(size) } };
  return { type: 'MODIFIED', key: `${P}a/x`, object, prevObject: object, rv, seq: rv, at: 0 };
}

/**
 * A response that records the writes to its socket (itself: the writer writes HTTP/1.1 chunks
 * straight to the socket and waits for its 'drain'); `full` makes `write` report a full socket buffer.
 */
class FakeResponse extends EventEmitter {
  writes: Buffer[] = [];
  destroyed = false;
  ended = false;
  full = false;

  get socket(): this {
    return this;
  }

  write(buf: Buffer): boolean {
    this.writes.push(buf);
    return !this.full;
  }

  end(): void {
    this.ended = true;
  }

  /** The resourceVersions (or BOOKMARK) of the events written, in order (each write one HTTP/1.1 chunk). */
  events(): string[] {
    return Buffer.concat(this.writes.map(chunkData))
      .toString()
      .split('\n')
      .filter((l) => l)
      .map((l) => {
        const e = JSON.parse(l) as { type: string; object: { metadata: { resourceVersion: string } } };
        return e.type === 'BOOKMARK' ? `BOOKMARK ${e.object.metadata.resourceVersion}` : e.object.metadata.resourceVersion;
      });
  }
}

/** The data of one HTTP/1.1 chunk (its size line checked against it). */
function chunkData(chunk: Buffer): Buffer {
  const eol = chunk.indexOf('\r\n');
  const size = parseInt(chunk.subarray(0, eol).toString('latin1'), 16);
  expect(chunk.length, 'chunk length').to.equal(eol + 2 + size + 2);
  expect(chunk.subarray(chunk.length - 2).toString('latin1')).to.equal('\r\n');
  return chunk.subarray(eol + 2, eol + 2 + size);
}

function watcher(extra: Partial<CacheWatcherOptions> = {}): CacheWatcher {
  return new CacheWatcher({ scope: P, predicate: EVERYTHING, allowBookmarks: false, onStop: () => undefined, currentRV: () => 0, capacity: 100, ...extra });
}

function stream(w: CacheWatcher, scheduler: FlushScheduler) {
  const res = new FakeResponse();
  const writer = new WatchStreamWriter(res as unknown as ServerResponse, w, encode, { scheduler });
  writer.start();
  return { res, writer };
}

/** Resolves once the scheduler stays idle for a few turns of the loop (promise callbacks may schedule more). */
async function settle(s: FlushScheduler): Promise<void> {
  for (let idle = 0; idle < 3; ) {
    await tick();
    idle = s.pending > 0 ? 0 : idle + 1;
  }
}

const rvs = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String(from + i));

describe('endpoints/handlers/watch-writer: watch responses written in turns (issue #17 item 3)', () => {
  it('keeps every watcher’s events in order across many yields, with events arriving between turns', async () => {
    const s = new FlushScheduler(0); // one response per turn: a yield after every write
    const pairs = Array.from({ length: 40 }, () => {
      const w = watcher();
      return { w, ...stream(w, s) };
    });
    for (let rv = 1; rv <= 60; rv++) {
      for (const { w } of pairs) w.offer(change(rv));
      if (rv % 7 === 0) await tick();
    }
    await settle(s);
    for (const { res } of pairs) expect(res.events()).to.deep.equal(rvs(1, 60));
  });

  it('writes the events that queued up for a client in one write', async () => {
    const s = new FlushScheduler(100);
    const w = watcher();
    const { res } = stream(w, s);
    for (let rv = 1; rv <= 5; rv++) w.offer(change(rv));
    await settle(s);
    expect(res.writes).to.have.length(1);
    expect(res.events()).to.deep.equal(rvs(1, 5));
    w.offer(change(6));
    await settle(s);
    expect(res.writes).to.have.length(2);
  });

  it('writes one event fanned out to many clients as the same chunk, copied for none of them', async () => {
    const s = new FlushScheduler(100);
    const pairs = Array.from({ length: 3 }, () => {
      const w = watcher();
      return { w, ...stream(w, s) };
    });
    const ev = change(1);
    for (const { w } of pairs) w.offer(ev);
    await settle(s);
    const [first, ...rest] = pairs.map(({ res }) => res.writes);
    expect(first).to.have.length(1);
    for (const writes of rest) expect(writes).to.have.length(1).and.to.have.property('0').that.equals(first![0]);
    const frame = encode({ type: 'MODIFIED', object: ev.object, key: ev.key });
    expect(chunkData(first![0]!).equals(frame)).to.equal(true);
    expect(first![0]!.buffer, 'the frame is a view of its chunk').to.equal(frame.buffer);
    for (const { res } of pairs) expect(res.events()).to.deep.equal(['1']);
  });

  it('writes a backlog in slices of about SLICE_BYTES, one per turn, in order', async () => {
    const s = new FlushScheduler(100);
    const w = watcher({ capacity: 1000 });
    const { res } = stream(w, s);
    const frame = encode({ type: 'MODIFIED', object: change(1, 1000).object }).length;
    const n = Math.ceil((4 * SLICE_BYTES) / frame);
    for (let rv = 1; rv <= n; rv++) w.offer(change(rv, 1000));
    await settle(s);
    expect(res.writes.length).to.be.greaterThanOrEqual(4);
    for (const b of res.writes) expect(b.length).to.be.lessThan(SLICE_BYTES + frame + 100);
    expect(res.events()).to.deep.equal(rvs(1, n));
  });

  it('takes nothing while the socket is full: the watcher’s buffer fills and is blocked until drain', async () => {
    const s = new FlushScheduler(100);
    const w = watcher({ capacity: 3 });
    const { res } = stream(w, s);
    res.full = true;
    w.offer(change(1));
    await settle(s);
    expect(res.writes).to.have.length(1);
    expect([2, 3, 4].map((rv) => w.offer(change(rv)))).to.deep.equal([true, true, true]);
    expect(w.offer(change(5))).to.equal(false);
    await settle(s);
    expect(res.writes).to.have.length(1);
    expect(w.isBlocked).to.equal(true);
    res.full = false;
    res.emit('drain');
    await settle(s);
    expect(w.isBlocked).to.equal(false);
    expect(res.events()).to.deep.equal(rvs(1, 5));
  });

  it('a client whose turn has not come yet does not fill its watcher’s buffer (only a full socket does)', async () => {
    const s = new FlushScheduler(100);
    const w = watcher({ capacity: 3 });
    const { res } = stream(w, s);
    for (let rv = 1; rv <= 20; rv++) expect(w.offer(change(rv))).to.equal(true);
    expect(res.writes).to.have.length(0);
    expect(w.isBlocked).to.equal(false);
    await settle(s);
    expect(w.isStopped).to.equal(false);
    expect(res.events()).to.deep.equal(rvs(1, 20));
  });

  it('takes everything while the socket accepts writes: a client whose turns come late is never blocked (issue #17 item 3)', async () => {
    const s = new FlushScheduler(100);
    const w = watcher({ capacity: 10 });
    const { res } = stream(w, s);
    const frame = encode({ type: 'MODIFIED', object: change(1, 1000).object }).length;
    const n = Math.ceil((8 * SLICE_BYTES) / frame);
    for (let rv = 1; rv <= n; rv++) expect(w.offer(change(rv, 1000))).to.equal(true);
    expect(w.buffered).to.equal(0);
    expect(w.isBlocked).to.equal(false);
    await settle(s);
    expect(w.isStopped).to.equal(false);
    expect(res.events()).to.deep.equal(rvs(1, n));
  });

  it('ends the response of a watcher closed for not keeping up, without its dropped events', async () => {
    const s = new FlushScheduler(100);
    const w = watcher({ capacity: 2 });
    const { res, writer } = stream(w, s);
    res.full = true;
    w.offer(change(1));
    await settle(s);
    for (let rv = 2; rv <= 6; rv++) w.offer(change(rv));
    expect(w.isStopped).to.equal(true);
    await settle(s);
    expect(res.ended).to.equal(true);
    expect(writer.isEnded).to.equal(true);
    expect(res.events()).to.deep.equal(['1']);
  });

  it('lets a client that does not read go when its watcher is closed, without the backlog taken for it', async () => {
    const s = new FlushScheduler(100);
    const w = watcher({ capacity: 2 });
    const { res, writer } = stream(w, s);
    res.full = true;
    const frame = encode({ type: 'MODIFIED', object: change(1, 1000).object }).length;
    const backlog = Math.ceil((3 * SLICE_BYTES) / frame);
    for (let rv = 1; rv <= backlog; rv++) w.offer(change(rv, 1000));
    await settle(s);
    expect(res.writes).to.have.length(1);
    const written = res.events().length;
    expect(written).to.be.lessThan(backlog);
    for (let rv = backlog + 1; rv <= backlog + 5; rv++) w.offer(change(rv));
    expect(w.isStopped).to.equal(true);
    await settle(s);
    expect(writer.isEnded).to.equal(true);
    expect(res.ended).to.equal(true);
    expect(res.events()).to.have.length(written);
  });

  it('on a graceful stop writes what is buffered and the last BOOKMARK, then ends', async () => {
    const s = new FlushScheduler(100);
    const w = watcher({ allowBookmarks: true, currentRV: () => 9 });
    const { res } = stream(w, s);
    w.offer(change(7));
    w.stop(true);
    await settle(s);
    expect(res.events()).to.deep.equal(['7', 'BOOKMARK 9']);
    expect(res.ended).to.equal(true);
  });

  it('stops the watcher when the client goes away', async () => {
    const s = new FlushScheduler(100);
    let stopped = 0;
    const w = watcher({ onStop: () => stopped++ });
    const { res, writer } = stream(w, s);
    res.destroyed = true;
    res.emit('close');
    expect(stopped).to.equal(1);
    expect(writer.isEnded).to.equal(true);
    w.offer(change(1));
    await settle(s);
    expect(res.writes).to.have.length(0);
  });
});
