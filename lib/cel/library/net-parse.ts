/**
 * IP addresses and prefixes with Go `net/netip` semantics, for the IP and CIDR libraries
 * (net.ts): `ParseAddr` (dotted-decimal IPv4 without leading zeros, IPv6 with `::`, an embedded
 * IPv4 tail and a zone), `ParsePrefix` (`<addr>/<bits>`, no zone), canonical text (RFC 5952 for
 * IPv6), the address classes and prefix containment. Pure code.
 */

/** A parsed address: 4 or 16 bytes, and the IPv6 zone ('' when none). */
export interface Addr {
  readonly bytes: Uint8Array;
  readonly zone: string;
}

/** A parsed prefix: its address as written (not masked) and its length in bits. */
export interface Prefix {
  readonly addr: Addr;
  readonly bits: number;
}

/** A parse failure; `message` is netip's (`ParseAddr("x"): unable to parse IP`). */
export class NetParseError extends Error {
  override readonly name = 'NetParseError';
}

const is4 = (a: Addr): boolean => a.bytes.length === 4;

function parseIPv4(s: string, whole: string): Uint8Array {
  const fields = s.split('.');
  const fail = (why: string) => new NetParseError(`ParseAddr(${JSON.stringify(whole)}): ${why}`);
  if (fields.length < 4) throw fail('IPv4 address too short');
  if (fields.length > 4) throw fail('IPv4 address too long');
  const out = new Uint8Array(4);
  fields.forEach((f, i) => {
    if (f === '') throw fail('IPv4 field must have at least one digit');
    if (!/^\d+$/.test(f)) throw fail(`unexpected character (at ${JSON.stringify(f.replace(/^\d+/, ''))})`);
    if (f.length > 1 && f.startsWith('0')) throw fail('IPv4 field has octet with leading zero');
    const v = Number(f);
    if (v > 255) throw fail('IPv4 field has value >255');
    out[i] = v;
  });
  return out;
}

function parseIPv6(s: string, whole: string): Uint8Array {
  const fail = (why: string) => new NetParseError(`ParseAddr(${JSON.stringify(whole)}): ${why}`);
  const halves = s.split('::');
  if (halves.length > 2) throw fail('multiple :: in address');
  const groups = (part: string): string[] => (part === '' ? [] : part.split(':'));
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  const all = [...head, ...tail];
  const convert = (g: string, last: boolean): number[] => {
    if (last && g.includes('.')) {
      const v4 = parseIPv4(g, whole);
      return [(v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!];
    }
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) throw fail(g === '' ? 'each colon-separated field must have at least one digit' : `IPv6 field has value >=2^16 or unexpected character (at ${JSON.stringify(g)})`);
    return [parseInt(g, 16)];
  };
  const headWords = head.flatMap((g, i) => convert(g, halves.length === 1 && i === all.length - 1));
  const tailWords = tail.flatMap((g, i) => convert(g, i === tail.length - 1));
  const count = headWords.length + tailWords.length;
  if (halves.length === 1 && count !== 8) throw fail('address string too short');
  if (halves.length === 2 && count > 7) throw fail('the address has too many fields');
  const out = new Uint8Array(16);
  const put = (ws: number[], at: number) => ws.forEach((w, i) => ((out[(at + i) * 2] = w >> 8), (out[(at + i) * 2 + 1] = w & 0xff)));
  put(headWords, 0);
  put(tailWords, 8 - tailWords.length);
  return out;
}

/** Go `netip.ParseAddr`. @throws NetParseError */
export function parseAddr(s: string): Addr {
  if (s === '') throw new NetParseError('ParseAddr(""): unable to parse IP');
  if (s.includes(':')) {
    const pct = s.indexOf('%');
    const zone = pct < 0 ? '' : s.slice(pct + 1);
    if (pct >= 0 && zone === '') throw new NetParseError(`ParseAddr(${JSON.stringify(s)}): zone must be a non-empty string`);
    return { bytes: parseIPv6(pct < 0 ? s : s.slice(0, pct), s), zone };
  }
  if (s.includes('.')) return { bytes: parseIPv4(s, s), zone: '' };
  throw new NetParseError(`ParseAddr(${JSON.stringify(s)}): unable to parse IP`);
}

/** Go `netip.ParsePrefix`. @throws NetParseError */
export function parsePrefix(s: string): Prefix {
  const slash = s.lastIndexOf('/');
  if (slash < 0) throw new NetParseError(`netip.ParsePrefix(${JSON.stringify(s)}): no '/'`);
  let addr: Addr;
  try {
    addr = parseAddr(s.slice(0, slash));
  } catch (err) {
    throw new NetParseError(`netip.ParsePrefix(${JSON.stringify(s)}): ${(err as Error).message}`);
  }
  if (addr.zone !== '') throw new NetParseError(`netip.ParsePrefix(${JSON.stringify(s)}): IPv6 zones cannot be present in a prefix`);
  const bitsText = s.slice(slash + 1);
  if (!/^(0|[1-9]\d{0,2})$/.test(bitsText)) throw new NetParseError(`netip.ParsePrefix(${JSON.stringify(s)}): bad bits after slash: ${JSON.stringify(bitsText)}`);
  const bits = Number(bitsText);
  if (bits > addr.bytes.length * 8) throw new NetParseError(`netip.ParsePrefix(${JSON.stringify(s)}): prefix length out of range`);
  return { addr, bits };
}

/** Whether `a` is an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`). */
export function is4In6(a: Addr): boolean {
  const b = a.bytes;
  return b.length === 16 && b.subarray(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;
}

/** Go `Addr.String()`: dotted decimal, or RFC 5952 IPv6 (longest run of two or more zero groups as `::`) with `%zone`. */
export function formatAddr(a: Addr): string {
  const b = a.bytes;
  if (is4(a)) return Array.from(b).join('.');
  const words = Array.from({ length: 8 }, (_, i) => (b[2 * i]! << 8) | b[2 * i + 1]!);
  let best = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) [best, bestLen] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = (ws: number[]) => ws.map((w) => w.toString(16)).join(':');
  const text = best < 0 ? hex(words) : `${hex(words.slice(0, best))}::${hex(words.slice(best + bestLen))}`;
  return a.zone === '' ? text : `${text}%${a.zone}`;
}

/** `<addr>/<bits>`. */
export function formatPrefix(p: Prefix): string {
  return `${formatAddr(p.addr)}/${p.bits}`;
}

/** The prefix with the bits after its length cleared (Go `Prefix.Masked`). */
export function masked(p: Prefix): Prefix {
  const bytes = Uint8Array.from(p.addr.bytes);
  for (let i = 0; i < bytes.length; i++) {
    const keep = Math.max(0, Math.min(8, p.bits - i * 8));
    bytes[i]! &= (0xff << (8 - keep)) & 0xff;
  }
  return { addr: { bytes, zone: '' }, bits: p.bits };
}

/** Whether the first `bits` bits of two addresses of one family are equal. */
function samePrefix(a: Uint8Array, b: Uint8Array, bits: number): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length && bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((a[i]! & mask) !== (b[i]! & mask)) return false;
  }
  return true;
}

/** Go `Prefix.Contains`: same family, no zone, within the prefix. */
export function prefixContains(p: Prefix, a: Addr): boolean {
  return a.zone === '' && samePrefix(p.addr.bytes, a.bytes, p.bits);
}

/** Whether `other` lies wholly inside `p` (upstream: overlapping and at least as long). */
export function prefixContainsPrefix(p: Prefix, other: Prefix): boolean {
  return other.bits >= p.bits && samePrefix(p.addr.bytes, other.addr.bytes, p.bits);
}

const isZero = (b: Uint8Array): boolean => b.every((x) => x === 0);

/** The address classes of Go `netip.Addr`. */
export const addrClass = {
  unspecified: (a: Addr): boolean => isZero(a.bytes),
  loopback: (a: Addr): boolean => (is4(a) ? a.bytes[0] === 127 : isZero(a.bytes.subarray(0, 15)) && a.bytes[15] === 1),
  multicast: (a: Addr): boolean => (is4(a) ? (a.bytes[0]! & 0xf0) === 0xe0 : a.bytes[0] === 0xff),
  linkLocalMulticast: (a: Addr): boolean => (is4(a) ? a.bytes[0] === 224 && a.bytes[1] === 0 && a.bytes[2] === 0 : a.bytes[0] === 0xff && (a.bytes[1]! & 0x0f) === 0x02),
  linkLocalUnicast: (a: Addr): boolean => (is4(a) ? a.bytes[0] === 169 && a.bytes[1] === 254 : a.bytes[0] === 0xfe && (a.bytes[1]! & 0xc0) === 0x80),
  globalUnicast(a: Addr): boolean {
    if (is4(a) && a.bytes.every((x) => x === 255)) return false;
    return !addrClass.unspecified(a) && !addrClass.loopback(a) && !addrClass.multicast(a) && !addrClass.linkLocalUnicast(a);
  },
};
