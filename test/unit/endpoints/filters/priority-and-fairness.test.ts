/**
 * The API Priority and Fairness filter's termination count: a request rejected before it was
 * dispatched counts with code 429; a 429 its handler answers (an eviction blocked by a
 * disruption budget) does not.
 */
import { expect } from 'chai';
import type { Context } from 'koa';
import { newTooManyRequests, StatusError } from '../../../../lib/apimachinery/errors.js';
import { withPriorityAndFairness } from '../../../../lib/endpoints/filters/priority-and-fairness.js';
import type { APFController } from '../../../../lib/flowcontrol/controller.js';
import { internalContext } from '../../../../lib/request/context.js';

const koaFor = () => ({ querystring: '', set: () => undefined, state: { requestContext: internalContext({ name: 'u', groups: [] }, { verb: 'list' }) } }) as unknown as Context;
const classification = { flowSchemaUID: 'fs', priorityLevelUID: 'pl' };
/** A controller that rejects every request (`reject`) or dispatches it at once. */
const controller = (reject: boolean) =>
  ({
    handle: async (_req: unknown, note: (c: typeof classification) => void, execute: () => Promise<void>) => {
      note(classification);
      if (reject) throw newTooManyRequests('Too many requests, please try again later.', 1);
      await execute();
    },
  }) as unknown as APFController;

describe('API Priority and Fairness filter: terminations', () => {
  const recording = () => {
    const codes: number[] = [];
    return { codes, terminated: (_koa: Context, code: number) => codes.push(code), aborted: () => expect.fail('aborted'), postTimeout: () => expect.fail('postTimeout') };
  };

  it('a request rejected by its priority level counts as terminated with 429', async () => {
    const recorder = recording();
    const err = await withPriorityAndFairness(controller(true), () => false, recorder)(koaFor(), async () => undefined).catch((e: unknown) => e);
    expect((err as StatusError).status.code).to.equal(429);
    expect(recorder.codes).to.deep.equal([429]);
  });

  it('a 429 from the dispatched handler, and a served request, do not count', async () => {
    const recorder = recording();
    const filter = withPriorityAndFairness(controller(false), () => false, recorder);
    const err = await filter(koaFor(), () => Promise.reject(newTooManyRequests('Cannot evict pod as it would violate the pod\'s disruption budget.', 0))).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(StatusError);
    expect((err as StatusError).status.code).to.equal(429);
    await filter(koaFor(), async () => undefined);
    expect(recorder.codes).to.deep.equal([]);
  });
});
