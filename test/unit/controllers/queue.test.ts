import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { WorkQueue } from '../../../lib/controllers/queue.js';

describe('controllers/queue: the keyed work queue', () => {
  it('syncs a key queued several times once, and again when added during its sync', async () => {
    const q = new WorkQueue();
    const ac = new AbortController();
    const seen: string[] = [];
    q.add('a');
    q.add('a');
    q.add('b');
    const done = q.run(ac.signal, async (k) => {
      seen.push(k);
      if (seen.length === 1) q.add('a');
    }, () => {});
    await sleep(20);
    ac.abort();
    await done;
    expect(seen).to.deep.equal(['a', 'b', 'a']);
  });

  it('retries a failed key with backoff and reports the error', async () => {
    const q = new WorkQueue();
    const ac = new AbortController();
    const errors: string[] = [];
    let calls = 0;
    q.add('k');
    const done = q.run(ac.signal, async () => {
      if (++calls < 3) throw new Error(`fail ${calls}`);
    }, (err, key) => errors.push(`${key}: ${(err as Error).message}`));
    await sleep(100);
    ac.abort();
    await done;
    expect(calls).to.equal(3);
    expect(errors).to.deep.equal(['k: fail 1', 'k: fail 2']);
  });

  it('delays a key with addAfter, the earliest request winning', async () => {
    const q = new WorkQueue();
    const ac = new AbortController();
    const at: number[] = [];
    const start = Date.now();
    q.addAfter('k', 5_000);
    q.addAfter('k', 30);
    const done = q.run(ac.signal, async () => void at.push(Date.now() - start), () => {});
    await sleep(120);
    ac.abort();
    await done;
    expect(at).to.have.length(1);
    expect(at[0]).to.be.at.least(25);
  });
});
