import { expect } from 'chai';
import type { Context } from 'koa';
import { StatusError } from '../../../../lib/apimachinery/errors.js';
import { withMaxInFlightLimit } from '../../../../lib/endpoints/filters/max-inflight.js';
import { internalContext } from '../../../../lib/request/context.js';

const koaFor = (verb: string, groups: string[] = []) =>
  ({ state: { requestContext: internalContext({ name: 'u', groups }, { verb }) } }) as unknown as Context;

describe('max-in-flight filter', () => {
  it('limits read-only and mutating requests separately, 429 with Retry-After 1 beyond', async () => {
    const filter = withMaxInFlightLimit(1, 1, () => false);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const held = [filter(koaFor('get'), () => gate), filter(koaFor('create'), () => gate)];
    const err = await filter(koaFor('list'), async () => undefined).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(StatusError);
    const status = (err as StatusError).status;
    expect(status).to.include({ code: 429, reason: 'TooManyRequests', message: 'Too many requests, please try again later.' });
    expect(status.details?.retryAfterSeconds).to.equal(1);
    expect((err as StatusError).headers['Retry-After']).to.equal('1');
    expect(await filter(koaFor('update'), async () => undefined).catch((e: unknown) => (e as StatusError).status.code)).to.equal(429);
    await filter(koaFor('get', ['system:masters']), async () => undefined);
    release();
    await Promise.all(held);
    await filter(koaFor('get'), async () => undefined);
  });

  it('counts each rejection as a termination with code 429, and nothing else', async () => {
    const codes: number[] = [];
    const recorder = { terminated: (_koa: Context, code: number) => codes.push(code), aborted: () => expect.fail('aborted'), postTimeout: () => expect.fail('postTimeout') };
    const filter = withMaxInFlightLimit(1, 1, () => false, recorder);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const held = filter(koaFor('get'), () => gate);
    expect(await filter(koaFor('list'), async () => undefined).catch((e: unknown) => (e as StatusError).status.code)).to.equal(429);
    await filter(koaFor('get', ['system:masters']), async () => undefined);
    await filter(koaFor('create'), async () => undefined);
    release();
    await held;
    expect(codes).to.deep.equal([429]);
  });

  it('does not count long-running requests, and 0 disables a limit', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const filter = withMaxInFlightLimit(1, 0, (koa) => (koa.state as { longRunning?: boolean }).longRunning === true);
    const watch = koaFor('watch');
    (watch.state as { longRunning?: boolean }).longRunning = true;
    const held = filter(watch, () => gate);
    await filter(koaFor('get'), async () => undefined);
    const creates = [filter(koaFor('create'), () => gate), filter(koaFor('create'), () => gate)];
    release();
    await Promise.all([...creates, held]);
  });
});
