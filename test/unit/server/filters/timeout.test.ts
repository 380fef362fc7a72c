import { expect } from 'chai';
import type { Context } from 'koa';
import { setTimeout as sleep } from 'node:timers/promises';
import { StatusError } from '../../../../lib/apimachinery/errors.js';
import type { RequestTerminationRecorder } from '../../../../lib/endpoints/endpoint-metrics.js';
import { internalContext } from '../../../../lib/request/context.js';
import { REQUEST_TIMEOUT_MESSAGE, requestDeadlineMs, withTimeout } from '../../../../lib/server/filters/timeout.js';
import { watchTimeoutSeconds } from '../../../../lib/endpoints/handlers/watch.js';

/** A recorder keeping its calls as `terminated:<code>`, `aborted`, `post-timeout:<source>:<status>`. */
function recording(): RequestTerminationRecorder & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    terminated: (_koa, code) => calls.push(`terminated:${code}`),
    aborted: () => calls.push('aborted'),
    postTimeout: (source, status) => calls.push(`post-timeout:${source}:${status}`),
  };
}

/** A Koa context whose response has (`headersSent`) or has not started; `destroyed` tells whether it was cut. */
function koaFor(headersSent = false): Context & { destroyed: () => boolean } {
  let destroyed = false;
  const res = { headersSent, destroy: () => (destroyed = true) };
  return { querystring: '', state: { requestContext: internalContext({ name: 'u', groups: [] }, { verb: 'create' }) }, res, destroyed: () => destroyed } as unknown as Context & { destroyed: () => boolean };
}

/** Waits (bounded) until `calls` has `n` entries. */
async function callsReach(calls: string[], n: number): Promise<void> {
  for (let i = 0; i < 200 && calls.length < n; i++) await sleep(5);
}

/** A handler promise settled by the returned functions. */
function heldHandler(): { run: () => Promise<void>; resolve: () => void; reject: (e: Error) => void } {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const p = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  return { run: () => p, resolve, reject };
}

describe('server/filters/timeout: request deadline (issue #19 item 3)', () => {
  const cases: Array<[string | null, number, number]> = [
    [null, 60_000, 60_000],
    ['', 60_000, 60_000],
    ['10s', 60_000, 10_000],
    ['250ms', 60_000, 250],
    ['2m', 60_000, 60_000],
    ['0s', 60_000, 60_000],
    ['-5s', 60_000, 60_000],
    ['60s', 60_000, 60_000],
  ];
  for (const [param, max, want] of cases) {
    it(`timeout=${String(param)} under a maximum of ${max} ms gives ${want} ms`, () => {
      expect(requestDeadlineMs(param, max)).to.equal(want);
    });
  }

  it('a malformed timeout is 400 BadRequest with upstream message', () => {
    try {
      requestDeadlineMs('10', 60_000);
      expect.fail('no error');
    } catch (err) {
      expect(err).to.be.instanceOf(StatusError);
      const status = (err as StatusError).status;
      expect(status.code).to.equal(400);
      expect(status.reason).to.equal('BadRequest');
      expect(status.message).to.equal('invalid timeout specified in the request URL - time: missing unit in duration "10"');
    }
  });
});

describe('endpoints/handlers/watch: watch lifetime (issue #19 item 3)', () => {
  it('takes a positive timeoutSeconds as given', () => {
    expect(watchTimeoutSeconds(7, 1800)).to.equal(7);
  });
  it('picks a whole number of seconds in [min, 2 min) without timeoutSeconds', () => {
    for (let i = 0; i < 200; i++) {
      const t = watchTimeoutSeconds(0, 1800);
      expect(Number.isInteger(t)).to.equal(true);
      expect(t).to.be.at.least(1800).and.below(3600);
    }
  });
  it('never ends with --min-request-timeout=0 and no timeoutSeconds', () => {
    expect(watchTimeoutSeconds(0, 0)).to.equal(0);
  });
});

describe('server/filters/timeout: requests ended at the deadline (apiserver_request_terminations_total…)', () => {
  it('a request past its deadline is 504, terminated once; its handler fulfilling later is post-timeout ok', async () => {
    const recorder = recording();
    const handler = heldHandler();
    const koa = koaFor();
    const err = await withTimeout(20, () => false, recorder)(koa, handler.run).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(StatusError);
    expect((err as StatusError).status).to.include({ code: 504, reason: 'Timeout', message: `Timeout: ${REQUEST_TIMEOUT_MESSAGE}` });
    expect(koa.destroyed()).to.equal(false);
    expect(recorder.calls).to.deep.equal(['terminated:504']);
    handler.resolve();
    await callsReach(recorder.calls, 2);
    expect(recorder.calls).to.deep.equal(['terminated:504', 'post-timeout:rest-handler:ok']);
  });

  it('a response already started is cut and counted as aborted; its handler failing later is post-timeout error', async () => {
    const recorder = recording();
    const handler = heldHandler();
    const koa = koaFor(true);
    expect(await withTimeout(20, () => false, recorder)(koa, handler.run).catch((e: unknown) => (e as StatusError).status.code)).to.equal(504);
    expect(koa.destroyed()).to.equal(true);
    handler.reject(new Error('aborted'));
    await callsReach(recorder.calls, 3);
    expect(recorder.calls).to.deep.equal(['terminated:504', 'aborted', 'post-timeout:rest-handler:error']);
  });

  it('a handler still running after the wait is post-timeout pending; its later end is not recorded', async () => {
    const recorder = recording();
    const handler = heldHandler();
    expect(await withTimeout(20, () => false, recorder, 30)(koaFor(), handler.run).catch((e: unknown) => (e as StatusError).status.code)).to.equal(504);
    await callsReach(recorder.calls, 2);
    expect(recorder.calls).to.deep.equal(['terminated:504', 'post-timeout:rest-handler:pending']);
    handler.resolve();
    await sleep(20);
    expect(recorder.calls).to.deep.equal(['terminated:504', 'post-timeout:rest-handler:pending']);
  });

  it('a request done before its deadline, or long-running, records nothing', async () => {
    const recorder = recording();
    await withTimeout(5_000, () => false, recorder)(koaFor(), async () => undefined);
    await withTimeout(20, () => true, recorder)(koaFor(), () => sleep(40));
    expect(recorder.calls).to.deep.equal([]);
  });
});
