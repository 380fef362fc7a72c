import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import { LogHealthCheck } from '../../../lib/server/healthz/log-check.js';
import { outcome } from '../../framework/outcome.js';

describe('log health check (upstream LogHealthz)', () => {
  let clock = 0;
  const now = () => clock;
  const checks: LogHealthCheck[] = [];
  afterEach(() => checks.splice(0).forEach((c) => c.stop()));

  it('fails with "logging blocked" once no flush has finished for two minutes, and passes again after one does', async () => {
    let answering = false;
    let flushes = 0;
    const check = new LogHealthCheck({ flush: (cb) => (flushes++, answering ? cb?.() : undefined) }, 5, now);
    checks.push(check);
    expect(await outcome(check.check())).to.equal('ok');
    clock += 120_000;
    expect(await outcome(check.check())).to.equal('ok');
    clock += 1;
    await sleep(20);
    expect(flushes).to.be.above(0);
    expect(await outcome(check.check())).to.equal('logging blocked');
    answering = true;
    await sleep(20);
    expect(await outcome(check.check())).to.equal('ok');
  });

  it('does not flush before it is first asked, nor after stop', async () => {
    let flushes = 0;
    const check = new LogHealthCheck({ flush: (cb) => (flushes++, cb?.()) }, 5, now);
    await sleep(20);
    expect(flushes).to.equal(0);
    await check.check();
    check.stop();
    const after = flushes;
    await sleep(20);
    expect(flushes).to.equal(after);
  });

  it('does not count a flush that failed', async () => {
    const check = new LogHealthCheck({ flush: (cb) => cb?.(new Error('EPIPE')) }, 5, now);
    checks.push(check);
    await check.check();
    clock += 120_001;
    await sleep(20);
    expect(await outcome(check.check())).to.equal('logging blocked');
  });
});
