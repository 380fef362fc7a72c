import { expect } from 'chai';
import { DroppedRequests } from '../../../lib/flowcontrol/retry-after.js';

describe('flowcontrol Retry-After', () => {
  it('starts at 1, doubles under sustained rejections, and decays', () => {
    let now = 1_000_000;
    const d = new DroppedRequests(() => now);
    expect(d.retryAfter('pl')).to.equal(1);
    for (let i = 0; i < 5; i++) d.record('pl');
    expect(d.retryAfter('pl')).to.equal(1);
    now += 1000;
    d.record('pl');
    expect(d.retryAfter('pl')).to.equal(2);
    expect(d.retryAfter('other')).to.equal(1);
    now += 5000;
    d.record('pl');
    expect(d.retryAfter('pl')).to.equal(1);
  });
});
