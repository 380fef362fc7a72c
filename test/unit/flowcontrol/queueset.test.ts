import { expect } from 'chai';
import { QueueSet, type RejectReason, Ticket } from '../../../lib/flowcontrol/queueset.js';
import { Dealer } from '../../../lib/flowcontrol/shuffle-sharding.js';

/** A clock the test advances. */
function clock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

const QUEUING = { queues: 64, handSize: 1, queueLengthLimit: 100 };
/** Two flows dealt different queues with hand size 1. */
const A = 0;
const B = 1;

function ticket(x: Ticket | RejectReason | Promise<Ticket | RejectReason>): Ticket {
  if (!(x instanceof Ticket)) throw new Error(`not dispatched at once: ${String(x)}`);
  return x;
}

describe('flowcontrol queueset', () => {
  it('deals the two test flows different queues', () => {
    const d = new Dealer(64, 1);
    expect(d.deal(A)[0]).to.not.equal(d.deal(B)[0]);
  });

  it('keeps a flooding flow from starving another: dispatch alternates, each flow in its order', async () => {
    const c = clock();
    const qs = new QueueSet(QUEUING, 1, c.now);
    const order: string[] = [];
    const running: Ticket[] = [];
    const track = (name: string, p: Ticket | RejectReason | Promise<Ticket | RejectReason>) =>
      void Promise.resolve(p).then((t) => {
        if (t instanceof Ticket) {
          order.push(name);
          running.push(t);
        }
      });
    track('A0', qs.start(A, 1, 60_000));
    for (let i = 1; i <= 20; i++) track(`A${i}`, qs.start(A, 1, 60_000));
    for (let i = 1; i <= 3; i++) track(`B${i}`, qs.start(B, 1, 60_000));
    await Promise.resolve();
    await Promise.resolve();
    expect(order).to.deep.equal(['A0']);
    expect(qs.waitingCount).to.equal(23);
    for (let i = 0; i < 8; i++) {
      c.advance(10);
      running.shift()!.finish();
      await new Promise((r) => setImmediate(r));
    }
    expect(order).to.deep.equal(['A0', 'B1', 'A1', 'B2', 'A2', 'B3', 'A3', 'A4', 'A5']);
  });

  it('accounts seats: a wide request waits for room and is not overtaken', async () => {
    const qs = new QueueSet(QUEUING, 4);
    const t3 = ticket(qs.start(A, 3, 60_000));
    expect(qs.seatsInUse).to.equal(3);
    const wide = qs.start(A, 2, 60_000);
    expect(wide).to.be.instanceOf(Promise);
    const narrow = qs.start(A, 1, 60_000);
    expect(narrow).to.be.instanceOf(Promise);
    expect(qs.seatsInUse).to.equal(3);
    t3.finish();
    const [w, n] = (await Promise.all([wide, narrow])) as Ticket[];
    expect(qs.seatsInUse).to.equal(3);
    expect(qs.executing).to.equal(2);
    w!.finish();
    n!.finish();
    n!.finish();
    expect(qs.seatsInUse).to.equal(0);
    expect(qs.executing).to.equal(0);
  });

  it('runs a request wider than the limit alone', () => {
    const qs = new QueueSet(QUEUING, 2);
    const t = ticket(qs.start(A, 5, 60_000));
    expect(qs.seatsInUse).to.equal(5);
    expect(qs.start(B, 1, 60_000)).to.be.instanceOf(Promise);
    t.finish();
    expect(qs.seatsInUse).to.equal(1);
  });

  it('rejects at once on a Reject level and on a full queue', () => {
    const reject = new QueueSet(undefined, 1);
    ticket(reject.start(A, 1, 60_000));
    expect(reject.start(B, 1, 60_000)).to.equal('concurrency-limit');
    const small = new QueueSet({ queues: 8, handSize: 1, queueLengthLimit: 2 }, 1);
    ticket(small.start(A, 1, 60_000));
    expect(small.start(A, 1, 60_000)).to.be.instanceOf(Promise);
    expect(small.start(A, 1, 60_000)).to.be.instanceOf(Promise);
    expect(small.start(A, 1, 60_000)).to.equal('queue-full');
  });

  it('rejects a queued request after its wait limit or when cancelled', async () => {
    const qs = new QueueSet(QUEUING, 1);
    const t = ticket(qs.start(A, 1, 60_000));
    expect(await qs.start(A, 1, 5)).to.equal('time-out');
    const ac = new AbortController();
    const p = qs.start(B, 1, 60_000, ac);
    ac.abort();
    expect(await p).to.equal('cancelled');
    expect(qs.waitingCount).to.equal(0);
    t.finish();
    expect(qs.seatsInUse).to.equal(0);
  });

  it('reads the cancelling signal only of a request that has to wait', async () => {
    const qs = new QueueSet(QUEUING, 1);
    let reads = 0;
    const ac = new AbortController();
    const cancel = {
      get signal() {
        reads++;
        return ac.signal;
      },
    };
    const t = ticket(qs.start(A, 1, 60_000, cancel));
    expect(reads).to.equal(0);
    const waiting = qs.start(A, 1, 60_000, cancel);
    expect(reads).to.equal(1);
    ac.abort();
    expect(await waiting).to.equal('cancelled');
    t.finish();
  });

  it('feeds seats in use plus seats waiting to the seat demand integrator', () => {
    const c = clock();
    const qs = new QueueSet(QUEUING, 2, c.now);
    const a = ticket(qs.start(A, 1, 60_000));
    const b = ticket(qs.start(A, 1, 60_000));
    void qs.start(B, 3, 60_000);
    expect(qs.demand.value).to.equal(5);
    a.finish();
    b.finish();
    // The 3-seat request runs once nothing else executes: demand 3 for the rest of the period.
    expect(qs.seatsInUse).to.equal(3);
    c.advance(1000);
    expect(qs.demand.reset()).to.deep.equal({ duration: 1, average: 3, deviation: 0, min: 0, max: 5 });
  });

  it('holds the final seats for the additional latency after the request finished', async () => {
    const c = clock();
    const timers: { ms: number; fn: () => void }[] = [];
    const qs = new QueueSet(QUEUING, 4, c.now, { after: (ms, fn) => timers.push({ ms, fn }) });
    const t = ticket(qs.start(A, { initialSeats: 1, finalSeats: 3, additionalLatencyMs: 5 }, 60_000));
    expect(t.seats).to.equal(3);
    expect(qs.seatsInUse).to.equal(3);
    const next = qs.start(B, 2, 60_000);
    expect(next).to.be.instanceOf(Promise);
    let released = false;
    t.finish(() => (released = true));
    expect(qs.executing).to.equal(0);
    expect(qs.seatsInUse).to.equal(3);
    expect(qs.waitingCount).to.equal(1);
    expect(released).to.equal(false);
    expect(timers.map((x) => x.ms)).to.deep.equal([5]);
    timers[0]!.fn();
    expect(released).to.equal(true);
    const n = (await next) as Ticket;
    expect(n).to.be.instanceOf(Ticket);
    expect(qs.seatsInUse).to.equal(2);
    n.finish();
    expect(qs.seatsInUse).to.equal(0);
  });

  it('reshapes final seats above the limit at dispatch, keeping the final work', () => {
    const qs = new QueueSet(QUEUING, 2, () => 0, { after: () => undefined });
    const t = ticket(qs.start(A, { initialSeats: 1, finalSeats: 5, additionalLatencyMs: 5 }, 60_000));
    expect(t.work).to.deep.equal({ initialSeats: 1, finalSeats: 2, additionalLatencyMs: 12.5 });
    expect(qs.seatsInUse).to.equal(2);
  });

  it('never limits the exempt level but counts its seats as demand', () => {
    const qs = new QueueSet(undefined, 0, () => 0, { exempt: true });
    const tickets = Array.from({ length: 5 }, () => ticket(qs.start(A, 2, 60_000)));
    expect(qs.seatsInUse).to.equal(10);
    expect(qs.demand.value).to.equal(10);
    for (const t of tickets) t.finish();
    expect(qs.demand.value).to.equal(0);
  });

  it('lets waiting requests in when the limit grows, keeping order on re-dealing', async () => {
    const qs = new QueueSet(QUEUING, 1);
    ticket(qs.start(A, 1, 60_000));
    const waiting = [qs.start(A, 1, 60_000), qs.start(B, 1, 60_000)];
    qs.configure({ queues: 16, handSize: 2, queueLengthLimit: 10 }, 3);
    const done = await Promise.all(waiting);
    expect(done.every((t) => t instanceof Ticket)).to.equal(true);
    expect(qs.seatsInUse).to.equal(3);
  });

  it('dispatches nothing on a shed level: new requests queue until it is no longer shed, a full queue rejects', async () => {
    const qs = new QueueSet({ queues: 8, handSize: 1, queueLengthLimit: 2 }, 2);
    const first = ticket(qs.start(A, 1, 60_000));
    qs.configure({ queues: 8, handSize: 1, queueLengthLimit: 2 }, 2, true);
    let settled = 0;
    const queued = [qs.start(A, 1, 60_000), qs.start(A, 1, 60_000)];
    for (const q of queued) {
      expect(q).to.be.instanceOf(Promise);
      void (q as Promise<unknown>).then(() => settled++);
    }
    expect(qs.start(A, 1, 60_000)).to.equal('queue-full');
    first.finish();
    await new Promise((r) => setImmediate(r));
    expect(settled, 'a freed seat dispatches nothing while shed').to.equal(0);
    expect(qs.seatsInUse).to.equal(0);
    expect(qs.waitingCount).to.equal(2);
    qs.configure({ queues: 8, handSize: 1, queueLengthLimit: 2 }, 2);
    const done = await Promise.all(queued);
    expect(done.every((t) => t instanceof Ticket)).to.equal(true);
    expect(qs.seatsInUse).to.equal(2);
  });

  it('times a request queued on a shed level out after its wait limit; a shed Reject level rejects at once', async () => {
    const qs = new QueueSet(QUEUING, 1);
    qs.configure(QUEUING, 1, true);
    expect(await qs.start(A, 1, 5)).to.equal('time-out');
    expect(qs.waitingCount).to.equal(0);
    const reject = new QueueSet(undefined, 1);
    reject.configure(undefined, 1, true);
    expect(reject.start(A, 1, 60_000)).to.equal('concurrency-limit');
    reject.configure(undefined, 1);
    expect(reject.start(A, 1, 60_000)).to.be.instanceOf(Ticket);
  });
});
