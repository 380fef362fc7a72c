/**
 * The allocation bitmap of one range (upstream `allocator.AllocationBitmap` with the random scan
 * strategy "with offset" of the ServiceIPStaticSubrange and ServiceNodePortStaticSubrange
 * features, GA in v1.30): bit `i` set = item `i` of the range is taken. Dynamic allocations take
 * a random free item of the upper band `[offset, size)` first, then of the lower band
 * `[0, offset)`, which is left to static (requested) allocations while the upper band has room.
 *
 * The snapshot is the bitmap as a big-endian unsigned integer in its shortest byte form (Go's
 * `big.Int.Bytes()`), the `data` of a RangeAllocation object.
 */

/** Picks an integer in `[0, n)` (injected by tests for deterministic scans). */
export type RandomInt = (n: number) => number;

const defaultRandom: RandomInt = (n) => Math.floor(Math.random() * n);

/** A fixed-size set of allocated offsets `[0, size)`. */
export class AllocationBitmap {
  private bits: Uint8Array;
  private used = 0;

  /**
   * @param size number of items of the range
   * @param offset size of the lower band kept for static allocations (0: none)
   */
  constructor(
    readonly size: number,
    readonly offset: number,
    private readonly random: RandomInt = defaultRandom,
  ) {
    this.bits = new Uint8Array(Math.ceil(size / 8));
  }

  /** How many items are taken. */
  get count(): number {
    return this.used;
  }

  /** How many items are free. */
  get free(): number {
    return this.size - this.used;
  }

  /** Whether `i` is taken (false outside the range). */
  has(i: number): boolean {
    if (!Number.isInteger(i) || i < 0 || i >= this.size) return false;
    return (this.bits[i >> 3]! & (1 << (i & 7))) !== 0;
  }

  /** Takes `i`; false when it is taken already. @throws RangeError outside the range. */
  allocate(i: number): boolean {
    if (!Number.isInteger(i) || i < 0 || i >= this.size) throw new RangeError(`offset ${i} is outside [0, ${this.size})`);
    if (this.has(i)) return false;
    this.bits[i >> 3]! |= 1 << (i & 7);
    this.used++;
    return true;
  }

  /** Takes a free item (upper band first, random start); undefined when the range is full. */
  allocateNext(): number | undefined {
    if (this.used >= this.size) return undefined;
    const upper = this.size - this.offset;
    const scan = (from: number, length: number): number | undefined => {
      const start = this.random(length);
      for (let k = 0; k < length; k++) {
        const at = from + ((start + k) % length);
        if (!this.has(at)) return at;
      }
      return undefined;
    };
    const at = (upper > 0 ? scan(this.offset, upper) : undefined) ?? (this.offset > 0 ? scan(0, this.offset) : undefined);
    if (at !== undefined) this.allocate(at);
    return at;
  }

  /** Frees `i`; freeing a free item or one outside the range does nothing. */
  release(i: number): void {
    if (!this.has(i)) return;
    this.bits[i >> 3]! &= ~(1 << (i & 7));
    this.used--;
  }

  /** Calls `fn` with every taken offset, in increasing order. */
  forEach(fn: (i: number) => void): void {
    for (let i = 0; i < this.size; i++) if (this.has(i)) fn(i);
  }

  /** The taken offsets, in increasing order. */
  offsets(): number[] {
    const out: number[] = [];
    this.forEach((i) => out.push(i));
    return out;
  }

  /** The snapshot bytes: big-endian, no leading zero byte, empty when nothing is taken. */
  snapshot(): Buffer {
    let top = this.bits.length - 1;
    while (top >= 0 && this.bits[top] === 0) top--;
    const out = Buffer.alloc(top + 1);
    for (let i = 0; i <= top; i++) out[top - i] = this.bits[i]!;
    return out;
  }

  /** Replaces the state with a snapshot; bits beyond the range are dropped. */
  restore(data: Uint8Array): void {
    this.bits = new Uint8Array(Math.ceil(this.size / 8));
    this.used = 0;
    const n = data.length;
    for (let k = 0; k < n && k < this.bits.length; k++) this.bits[k] = data[n - 1 - k]!;
    if (this.size % 8 !== 0 && this.bits.length > 0) this.bits[this.bits.length - 1]! &= (1 << (this.size % 8)) - 1;
    for (const b of this.bits) this.used += popcount(b);
  }
}

function popcount(b: number): number {
  let n = 0;
  for (let v = b; v !== 0; v &= v - 1) n++;
  return n;
}
