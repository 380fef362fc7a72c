/**
 * The node port range (`--service-node-port-range`), as upstream's `utilnet.PortRange`: written
 * `a-b` (inclusive), `a+n` (a to a+n) or a single port, with the parse errors of Go's
 * `strconv.Atoi` and `PortRange.Set`; the lower band of `min(max(16, size/32), 128)` ports is
 * kept for requested ports (ServiceNodePortStaticSubrange).
 */

/** The default node port range (upstream `DefaultServiceNodePortRange`). */
export const DEFAULT_NODE_PORT_RANGE = '30000-32767';

/** An inclusive range of ports `[base, base + size)`. */
export class PortRange {
  /** Size of the lower band kept for requested ports. */
  readonly offset: number;

  constructor(
    readonly base: number,
    readonly size: number,
  ) {
    this.offset = size <= 16 ? 0 : Math.min(Math.max(16, Math.floor(size / 32)), 128);
  }

  /** `30000-32767` (the RangeAllocation's `range`); empty for an empty range. */
  toString(): string {
    return this.size === 0 ? '' : `${this.base}-${this.base + this.size - 1}`;
  }

  /** Whether `port` is in the range. */
  contains(port: number): boolean {
    return port >= this.base && port < this.base + this.size;
  }
}

/** Go's `strconv.Atoi`. @throws Error with its message. */
function atoi(text: string): number {
  if (!/^[+-]?[0-9]+$/.test(text)) throw new Error(`strconv.Atoi: parsing ${JSON.stringify(text)}: invalid syntax`);
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new Error(`strconv.Atoi: parsing ${JSON.stringify(text)}: value out of range`);
  return value;
}

/**
 * Parses a port range as upstream `PortRange.Set` (surrounding blanks ignored; `''` is the empty
 * range). @throws Error with upstream's reason (`strconv.Atoi: …`, `unable to parse port range: …`,
 * `the port range cannot be greater than 65535: …`, `end port cannot be less than start port: …`).
 */
export function parsePortRange(text: string): PortRange {
  const value = text.trim();
  if (value === '') return new PortRange(0, 0);
  const hyphen = value.indexOf('-');
  const plus = value.indexOf('+');
  let low: number;
  let high: number;
  if (hyphen >= 0 && plus >= 0) throw new Error(`unable to parse port range: ${value}`);
  if (hyphen >= 0) {
    low = atoi(value.slice(0, hyphen));
    high = atoi(value.slice(hyphen + 1));
  } else if (plus >= 0) {
    low = atoi(value.slice(0, plus));
    high = low + atoi(value.slice(plus + 1));
  } else {
    low = atoi(value);
    high = low;
  }
  if (low > 65535 || high > 65535) throw new Error(`the port range cannot be greater than 65535: ${value}`);
  if (high < low) throw new Error(`end port cannot be less than start port: ${value}`);
  return new PortRange(low, 1 + high - low);
}
