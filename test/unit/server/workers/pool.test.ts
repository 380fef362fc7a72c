import { expect } from 'chai';
import { DEFAULT_RESTART_BACKOFF, restartDelay } from '../../../../lib/server/workers/pool.js';
import { isServingMessage, isShutdownMessage } from '../../../../lib/server/workers/protocol.js';

describe('server/workers', () => {
  it('restartDelay doubles per consecutive failure from 1 s and stops at 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20].map((n) => restartDelay(DEFAULT_RESTART_BACKOFF, n))).to.deep.equal([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('tells its messages from anything else on the channel', () => {
    expect(isServingMessage({ type: 'serving', port: 6443 })).to.equal(true);
    expect(isServingMessage({ type: 'serving' })).to.equal(false);
    expect(isServingMessage({ cmd: 'NODE_CLUSTER' })).to.equal(false);
    expect(isServingMessage(null)).to.equal(false);
    expect(isShutdownMessage({ type: 'shutdown' })).to.equal(true);
    expect(isShutdownMessage({ type: 'serving', port: 1 })).to.equal(false);
    expect(isShutdownMessage('shutdown')).to.equal(false);
  });
});
