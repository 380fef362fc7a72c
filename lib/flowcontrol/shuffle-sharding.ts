/**
 * Shuffle sharding (upstream v1.30 `util/flowcontrol/fairqueuing/shufflesharding`): a flow's hash
 * value deals it a hand of `handSize` distinct queues out of a deck of `deckSize`, so that two
 * flows rarely share every queue. The hash is read as a mixed-radix number whose digits (radix
 * deckSize, deckSize-1, …) pick the cards, each later card skipping the ones already dealt.
 */

/** The 32-bit FNV prime. */
const FNV_PRIME = 0x01000193;

/** Upstream's largest hand size. */
export const MAX_HAND_SIZE = 15;

/** Deals hands of `handSize` distinct cards in [0, deckSize). */
export class Dealer {
  private readonly sorted: number[] = [];

  /** @throws Error when deckSize < 1, handSize < 1, handSize > deckSize or handSize > 15 (a configuration that validation refuses). */
  constructor(
    readonly deckSize: number,
    readonly handSize: number,
  ) {
    if (deckSize < 1 || handSize < 1 || handSize > deckSize || handSize > MAX_HAND_SIZE) {
      throw new Error(`bad shuffle sharding configuration: deckSize ${deckSize}, handSize ${handSize}`);
    }
  }

  /**
   * The hand of `hash` (a non-negative integer below 2^53), in deal order; `into` is reused
   * when given (its length is set to handSize).
   */
  deal(hash: number, into: number[] = []): number[] {
    into.length = this.handSize;
    let h = hash;
    for (let i = 0; i < this.handSize; i++) {
      const radix = this.deckSize - i;
      const next = Math.floor(h / radix);
      into[i] = h - next * radix;
      h = next;
    }
    // Card i is the remainder-th card among those not yet dealt: step over the dealt ones in ascending order.
    const sorted = this.sorted;
    sorted.length = 0;
    for (let i = 0; i < this.handSize; i++) {
      let card = into[i]!;
      let k = 0;
      while (k < sorted.length && card >= sorted[k]!) {
        card++;
        k++;
      }
      into[i] = card;
      sorted.splice(k, 0, card);
    }
    return into;
  }
}

/**
 * A 52-bit hash of a flow (its FlowSchema name, a NUL, its distinguisher): two FNV-1a 32-bit
 * hashes with different offsets, joined. Upstream takes 64 bits of SHA-256; any well-mixed hash
 * serves shuffle sharding, and this one costs no allocation on the request path.
 */
export function hashFlow(flowSchema: string, distinguisher: string): number {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < flowSchema.length; i++) {
    const c = flowSchema.charCodeAt(i);
    a = Math.imul(a ^ c, FNV_PRIME) >>> 0;
    b = Math.imul(b ^ c, FNV_PRIME) >>> 0;
  }
  a = Math.imul(a, FNV_PRIME) >>> 0;
  b = Math.imul(b, FNV_PRIME) >>> 0;
  for (let i = 0; i < distinguisher.length; i++) {
    const c = distinguisher.charCodeAt(i);
    a = Math.imul(a ^ c, FNV_PRIME) >>> 0;
    b = Math.imul(b ^ c, FNV_PRIME) >>> 0;
  }
  return (a & 0xfffff) * 0x100000000 + b;
}
