import { expect } from 'chai';
import { pino } from 'pino';
import { setTimeout as sleep } from 'node:timers/promises';
import { beginEtcdCleanup } from '../../../lib/controlplane/etcd-cleanup.js';

const log = pino({ level: 'silent' });
const TIMINGS = { probeMs: 50, stepMs: 100 };
const never = () => new Promise<never>(() => undefined);

describe('the etcd clean-up of a graceful stop (lib/controlplane/etcd-cleanup.ts)', () => {
  it('runs every step to its end when etcd answers the probe', async () => {
    const ran: string[] = [];
    const cleanup = await beginEtcdCleanup(async () => 42, log, TIMINGS);
    await cleanup.run('a', async () => {
      await sleep(20);
      ran.push('a');
    });
    await cleanup.run('b', async () => void ran.push('b'));
    expect(ran).to.deep.equal(['a', 'b']);
  });

  it('skips every step when the probe fails or does not answer in time', async () => {
    for (const probe of [() => Promise.reject(new Error('unavailable')), never]) {
      const started = Date.now();
      const cleanup = await beginEtcdCleanup(probe, log, TIMINGS);
      let ran = false;
      await cleanup.run('a', async () => void (ran = true));
      expect(ran).to.equal(false);
      expect(Date.now() - started).to.be.below(TIMINGS.probeMs + 200);
    }
  });

  it('abandons a step at its deadline and skips the later ones; a failed step does not', async () => {
    const cleanup = await beginEtcdCleanup(async () => 42, log, TIMINGS);
    let later = 0;
    await cleanup.run('fails', () => Promise.reject(new Error('Conflict')));
    await cleanup.run('after a failure', async () => void later++);
    const started = Date.now();
    await cleanup.run('hangs', never);
    expect(Date.now() - started).to.be.within(TIMINGS.stepMs - 5, TIMINGS.stepMs + 200);
    await cleanup.run('after an overrun', async () => void later++);
    expect(later).to.equal(1);
  });
});
