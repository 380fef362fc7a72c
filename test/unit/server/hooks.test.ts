import { expect } from 'chai';
import { PostStartHooks } from '../../../lib/server/hooks.js';

/** Whether `p` has settled after the pending callbacks ran. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((r) => setImmediate(r));
  return done;
}

describe('server/hooks: whenDone', () => {
  const noop = () => undefined;

  it('resolves at once when there are no hooks', async () => {
    const hooks = new PostStartHooks();
    hooks.runAll(new AbortController().signal, noop);
    expect(await settled(hooks.whenDone())).to.equal(true);
  });

  it('resolves once the last hook finishes, not before', async () => {
    const hooks = new PostStartHooks();
    let finish!: () => void;
    hooks.add('quick', async () => undefined);
    hooks.add('slow', () => new Promise<void>((r) => (finish = r)));
    hooks.runAll(new AbortController().signal, noop);
    expect(await settled(hooks.whenDone())).to.equal(false);
    finish();
    expect(await settled(hooks.whenDone())).to.equal(true);
  });

  it('stays pending while a hook has failed, as the readiness check keeps failing', async () => {
    const hooks = new PostStartHooks();
    const logged: string[] = [];
    hooks.add('ok', async () => undefined);
    hooks.add('broken', async () => {
      throw new Error('boom');
    });
    hooks.runAll(new AbortController().signal, (m) => logged.push(m));
    expect(await settled(hooks.whenDone())).to.equal(false);
    expect(logged).to.deep.equal(['post-start hook broken failed: boom']);
  });
});
