import { expect } from 'chai';
import { setImmediate as tick } from 'node:timers/promises';
import { FlushScheduler, type Flushable, MAX_PAUSE_MS, MAX_WAIT_MS } from '../../../../lib/endpoints/handlers/watch-scheduler.js';

/** Resolves once the scheduler has nothing left to run. */
async function settle(s: FlushScheduler): Promise<void> {
  for (let i = 0; i < 10_000 && s.pending > 0; i++) await tick();
  await tick();
}

/** A flushable that logs its flushes, advances a fake clock by `cost` ms each, and asks for `more` further turns. */
function job(name: string, log: string[], clock: { t: number }, cost: number, more = 0): Flushable & { sched?: FlushScheduler } {
  let left = more;
  const f: Flushable & { sched?: FlushScheduler } = {
    queued: false,
    flush() {
      log.push(name);
      clock.t += cost;
      if (left-- > 0) f.sched!.schedule(f);
    },
  };
  return f;
}

/**
 * Queues `n` jobs `w0…` of `ms` each on `s`, runs them to the end, and returns how many had run
 * each time the event loop got a turn in between.
 */
async function runJobs(s: FlushScheduler, n: number, ms: number, clock: { t: number }, log: string[]): Promise<number[]> {
  for (let i = 0; i < n; i++) {
    const j = job(`w${i}`, log, clock, ms);
    j.sched = s;
    s.schedule(j);
  }
  const marks: number[] = [];
  const onLoop = () => {
    marks.push(log.length);
    if (log.length < n) setImmediate(onLoop);
  };
  setImmediate(onLoop);
  await settle(s);
  return marks;
}

describe('endpoints/handlers/watch-scheduler: watch writes in time-bounded turns (issue #17 item 3)', () => {
  it('runs the queued flushes in order, in turns of at most the turn time, yielding to the loop between turns', async () => {
    const clock = { t: 0 };
    const s = new FlushScheduler(1, () => clock.t);
    const log: string[] = [];
    // Work that arrives from the loop (a request) while the fan-out is under way runs between turns.
    const marks = await runJobs(s, 10, 0.4, clock, log);
    expect(log).to.deep.equal(Array.from({ length: 10 }, (_, i) => `w${i}`));
    // 0.4 ms each, 1 ms turns: 3 flushes per turn (the clock is read after each one), and the
    // other work of the loop runs after each turn.
    expect(marks).to.deep.equal([3, 6, 9, 10]);
  });

  it('serves at least a quarter of the waiting flushes per turn, however long they take', async () => {
    const clock = { t: 0 };
    const s = new FlushScheduler(1, () => clock.t);
    const log: string[] = [];
    const marks = await runJobs(s, 8, 5, clock, log);
    // 8 waiting: 2 (a quarter) although the first alone overruns the turn; then 6 → 2, 4 → 1, 3 → 1, 2 → 1, 1 → 1.
    expect(marks).to.deep.equal([2, 4, 5, 6, 7, 8]);
  });

  it('serves every flush that has waited MAX_WAIT_MS in the next turn, however long that takes', async () => {
    const clock = { t: 0 };
    const s = new FlushScheduler(1, () => clock.t);
    const log: string[] = [];
    for (let i = 0; i < 8; i++) {
      const j = job(`w${i}`, log, clock, 5);
      j.sched = s;
      s.schedule(j);
    }
    clock.t += MAX_WAIT_MS;
    const marks: number[] = [];
    setImmediate(() => marks.push(log.length));
    await settle(s);
    expect(marks).to.deep.equal([8]);
  });

  it('queues a flushable once while it waits, and puts one that asks for more behind the others', async () => {
    const clock = { t: 0 };
    const s = new FlushScheduler(100, () => clock.t);
    const log: string[] = [];
    const a = job('a', log, clock, 0, 2);
    const b = job('b', log, clock, 0);
    const c = job('c', log, clock, 0);
    for (const j of [a, b, c]) j.sched = s;
    s.schedule(a);
    s.schedule(a);
    s.schedule(b);
    s.schedule(c);
    expect(s.pending).to.equal(3);
    await settle(s);
    expect(log).to.deep.equal(['a', 'b', 'c', 'a', 'a']);
  });

  it('a flush that throws does not stop the others from being served', async () => {
    const s = new FlushScheduler(100);
    const log: string[] = [];
    const bad: Flushable = {
      queued: false,
      flush() {
        throw new Error('encode failed');
      },
    };
    const good: Flushable = { queued: false, flush: () => log.push('good') };
    const errors: unknown[] = [];
    const onError = (err: unknown) => errors.push(err);
    const listeners = process.listeners('uncaughtException');
    process.removeAllListeners('uncaughtException');
    process.on('uncaughtException', onError);
    try {
      s.schedule(bad);
      s.schedule(good);
      await settle(s);
    } finally {
      process.off('uncaughtException', onError);
      for (const l of listeners) process.on('uncaughtException', l);
    }
    expect(errors).to.have.length(1);
    expect(log).to.deep.equal(['good']);
  });
});

describe('endpoints/handlers/watch-scheduler: rounds paced by their writing time (issue #17 item 3)', () => {
  /** A scheduler on a fake clock whose pauses between rounds are recorded and run by the test. */
  function paced(clock: { t: number }) {
    const pauses: { ms: number; fn: () => void }[] = [];
    const s = new FlushScheduler(1, () => clock.t, (fn, ms) => pauses.push({ fn, ms }));
    return { s, pauses };
  }

  it('a response that has more to write after its turn waits for the next round, after a pause as long as the round was busy', async () => {
    const clock = { t: 0 };
    const { s, pauses } = paced(clock);
    const log: string[] = [];
    const a = job('a', log, clock, 4, 1);
    const b = job('b', log, clock, 4);
    a.sched = b.sched = s;
    s.schedule(a);
    s.schedule(b);
    for (let i = 0; i < 10; i++) await tick();
    // One round of a and b (8 ms of writing), then the pause before a's second turn.
    expect(log).to.deep.equal(['a', 'b']);
    expect(pauses.map((p) => p.ms)).to.deep.equal([8]);
    expect(s.pending).to.equal(1);
    clock.t += 8;
    pauses[0]!.fn();
    expect(log).to.deep.equal(['a', 'b', 'a']);
    expect(s.pending).to.equal(0);
  });

  it('the pause is at most MAX_PAUSE_MS, and a response queued after it is over starts a round at once', async () => {
    const clock = { t: 0 };
    const { s, pauses } = paced(clock);
    const log: string[] = [];
    const a = job('a', log, clock, 3 * MAX_PAUSE_MS, 1);
    a.sched = s;
    s.schedule(a);
    for (let i = 0; i < 10; i++) await tick();
    expect(pauses.map((p) => p.ms)).to.deep.equal([MAX_PAUSE_MS]);
    clock.t += MAX_PAUSE_MS;
    pauses[0]!.fn();
    expect(log).to.deep.equal(['a', 'a']);
    // Idle for longer than the last pause: the next response is served on the next turn of the loop.
    clock.t += 10 * MAX_PAUSE_MS;
    const c = job('c', log, clock, 0);
    s.schedule(c);
    await settle(s);
    expect(log).to.deep.equal(['a', 'a', 'c']);
    expect(pauses).to.have.length(1);
  });
});
