import { expect } from 'chai';
import { Dealer, hashFlow } from '../../../lib/flowcontrol/shuffle-sharding.js';

describe('flowcontrol shuffle sharding', () => {
  it('deals distinct cards within the deck for every hash', () => {
    for (const [deck, hand] of [[4, 4], [8, 3], [64, 8], [128, 6], [1, 1]] as const) {
      const d = new Dealer(deck, hand);
      const bad: string[] = [];
      for (let h = 0; h < 5000; h++) {
        const cards = d.deal(h * 7919 + h * h);
        if (cards.length !== hand || new Set(cards).size !== hand || cards.some((c) => c < 0 || c >= deck)) bad.push(`hash ${h}: ${cards.join(',')}`);
      }
      expect(bad, `deck ${deck} hand ${hand}`).to.deep.equal([]);
    }
  });

  it('reads the hash as mixed-radix digits', () => {
    const d = new Dealer(4, 2);
    expect(d.deal(0)).to.deep.equal([0, 1]);
    expect(d.deal(1)).to.deep.equal([1, 0]);
    expect(d.deal(3)).to.deep.equal([3, 0]);
    // 4 + 1 = digit 0 then digit 1: card 0, then the second card not yet dealt.
    expect(d.deal(4)).to.deep.equal([0, 2]);
  });

  it('deals every hand of a small deck with equal frequency', () => {
    const d = new Dealer(4, 2);
    const counts = new Map<string, number>();
    for (let h = 0; h < 12 * 100; h++) {
      const k = d.deal(h).join(',');
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    expect(counts.size).to.equal(12);
    for (const n of counts.values()) expect(n).to.equal(100);
  });

  it('refuses impossible configurations', () => {
    expect(() => new Dealer(4, 5)).to.throw('bad shuffle sharding configuration: deckSize 4, handSize 5');
    expect(() => new Dealer(64, 16)).to.throw(/handSize 16/);
  });

  it('hashes flows stably into 52 bits', () => {
    expect(hashFlow('global-default', 'alice')).to.equal(hashFlow('global-default', 'alice'));
    expect(hashFlow('global-default', 'alice')).to.not.equal(hashFlow('global-default', 'bob'));
    expect(hashFlow('ab', 'c')).to.not.equal(hashFlow('a', 'bc'));
    expect(hashFlow('x', 'y')).to.be.below(2 ** 52);
  });
});
