/**
 * Strict IP and prefix parsing with Go's `net/netip` rules and messages (Go 1.22, which upstream
 * v1.30 builds with): `ParseAddr`, `ParsePrefix` and the canonical text form (`Addr.String`,
 * RFC 5952). Upstream validates IPAddress names and ServiceCIDR ranges with them.
 */

/** A parsed address: its 4 or 16 bytes and IPv6 zone ('' for none). */
export interface NetipAddr {
  bytes: number[];
  zone: string;
}

/** Go's `parseAddrError` text. */
function addrError(input: string, msg: string, at = ''): Error {
  const q = JSON.stringify;
  return new Error(`ParseAddr(${q(input)}): ${msg}${at !== '' ? ` (at ${q(at)})` : ''}`);
}

/** The four octets of `input.slice(off, end)` (Go `parseIPv4Fields`); throws Go's error. */
function parseIPv4Fields(input: string, off: number, end: number): number[] {
  const s = input.slice(off, end);
  const fields: number[] = [];
  let val = 0;
  let digits = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c >= '0' && c <= '9') {
      if (digits === 1 && val === 0) throw addrError(input, 'IPv4 field has octet with leading zero');
      val = val * 10 + (c.charCodeAt(0) - 48);
      digits++;
      if (val > 255) throw addrError(input, 'IPv4 field has value >255');
    } else if (c === '.') {
      if (i === 0 || i === s.length - 1 || s[i - 1] === '.') throw addrError(input, 'IPv4 field must have at least one digit', s.slice(i));
      if (fields.length === 3) throw addrError(input, 'IPv4 address too long');
      fields.push(val);
      val = 0;
      digits = 0;
    } else {
      throw addrError(input, 'unexpected character', s.slice(i));
    }
  }
  if (fields.length < 3) throw addrError(input, 'IPv4 address too short');
  fields.push(val);
  return fields;
}

const hexValue = (c: string): number => {
  if (c >= '0' && c <= '9') return c.charCodeAt(0) - 48;
  if (c >= 'a' && c <= 'f') return c.charCodeAt(0) - 87;
  if (c >= 'A' && c <= 'F') return c.charCodeAt(0) - 55;
  return -1;
};

/** Go `parseIPv6`: 16 bytes with an optional zone; throws Go's error. */
function parseIPv6(input: string): NetipAddr {
  let s = input;
  let zone = '';
  const pct = s.indexOf('%');
  if (pct >= 0) {
    zone = s.slice(pct + 1);
    s = s.slice(0, pct);
    if (zone === '') throw addrError(input, 'zone must be a non-empty string');
  }
  const ip = new Array<number>(16).fill(0);
  let ellipsis = -1;
  if (s.startsWith('::')) {
    ellipsis = 0;
    s = s.slice(2);
    if (s === '') return { bytes: ip, zone };
  }
  let i = 0;
  while (i < 16) {
    let off = 0;
    let acc = 0;
    for (; off < s.length; off++) {
      const h = hexValue(s[off]!);
      if (h < 0) break;
      acc = acc * 16 + h;
      if (off > 3) throw addrError(input, 'each group must have 4 or less digits', s);
      if (acc > 0xffff) throw addrError(input, 'IPv6 field has value >=2^16', s);
    }
    if (off === 0) throw addrError(input, 'each colon-separated field must have at least one digit', s);
    if (off < s.length && s[off] === '.') {
      if (ellipsis < 0 && i !== 12) throw addrError(input, 'embedded IPv4 address must replace the final 2 fields of the address', s);
      if (i + 4 > 16) throw addrError(input, 'too many hex fields to fit an embedded IPv4 at the end of the address', s);
      const end = input.length - (zone.length > 0 ? zone.length + 1 : 0);
      parseIPv4Fields(input, end - s.length, end).forEach((b, j) => (ip[i + j] = b));
      s = '';
      i += 4;
      break;
    }
    ip[i] = acc >> 8;
    ip[i + 1] = acc & 0xff;
    i += 2;
    s = s.slice(off);
    if (s === '') break;
    if (s[0] !== ':') throw addrError(input, 'unexpected character, want colon', s);
    if (s.length === 1) throw addrError(input, 'colon must be followed by more characters', s);
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) throw addrError(input, 'multiple :: in address', s);
      ellipsis = i;
      s = s.slice(1);
      if (s === '') break;
    }
  }
  if (s !== '') throw addrError(input, 'trailing garbage after address', s);
  if (i < 16) {
    if (ellipsis < 0) throw addrError(input, 'address string too short');
    const n = 16 - i;
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j]!;
    ip.fill(0, ellipsis, ellipsis + n);
  } else if (ellipsis >= 0) {
    throw addrError(input, 'the :: must expand to at least one field of zeros', s);
  }
  return { bytes: ip, zone };
}

/** Go `netip.ParseAddr`; throws an Error whose message is Go's `err.Error()`. */
export function parseAddr(s: string): NetipAddr {
  for (const c of s) {
    if (c === '.') return { bytes: parseIPv4Fields(s, 0, s.length), zone: '' };
    if (c === ':') return parseIPv6(s);
    if (c === '%') throw addrError(s, 'missing IPv6 address');
  }
  throw addrError(s, 'unable to parse IP');
}

const isV4In6 = (b: number[]): boolean => b.length === 16 && b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;

/** Go `Addr.String`: dotted IPv4; RFC 5952 IPv6 (longest run of two or more zero groups as `::`), `::ffff:a.b.c.d` for IPv4-mapped; `%zone`. */
export function formatAddr(addr: NetipAddr): string {
  const b = addr.bytes;
  if (b.length === 4) return b.join('.');
  const zone = addr.zone !== '' ? `%${addr.zone}` : '';
  if (isV4In6(b)) return `::ffff:${b.slice(12).join('.')}${zone}`;
  const groups = Array.from({ length: 8 }, (_, g) => (b[2 * g]! << 8) | b[2 * g + 1]!);
  let bestStart = -1;
  let bestLen = 0;
  for (let g = 0; g < 8; ) {
    let end = g;
    while (end < 8 && groups[end] === 0) end++;
    if (end - g > bestLen && end - g >= 2) [bestStart, bestLen] = [g, end - g];
    g = end === g ? g + 1 : end;
  }
  let out = '';
  for (let g = 0; g < 8; g++) {
    if (g === bestStart) {
      out += '::';
      g += bestLen - 1;
      continue;
    }
    if (out !== '' && !out.endsWith(':')) out += ':';
    out += groups[g]!.toString(16);
  }
  return out + zone;
}

/** A parsed prefix: its address as written and the prefix length. */
export interface NetipPrefix {
  addr: NetipAddr;
  bits: number;
}

/** Go `netip.ParsePrefix`; throws an Error whose message is Go's `err.Error()`. */
export function parsePrefix(s: string): NetipPrefix {
  const q = JSON.stringify(s);
  const slash = s.lastIndexOf('/');
  if (slash < 0) throw new Error(`netip.ParsePrefix(${q}): no '/'`);
  let addr: NetipAddr;
  try {
    addr = parseAddr(s.slice(0, slash));
  } catch (err) {
    throw new Error(`netip.ParsePrefix(${q}): ${(err as Error).message}`, { cause: err });
  }
  if (addr.bytes.length === 16 && addr.zone !== '') throw new Error(`netip.ParsePrefix(${q}): IPv6 zones cannot be present in a prefix`);
  const bitsText = s.slice(slash + 1);
  const badBits = new Error(`netip.ParsePrefix(${q}): bad bits after slash: ${JSON.stringify(bitsText)}`);
  if (bitsText.length > 1 && (bitsText[0]! < '1' || bitsText[0]! > '9')) throw badBits;
  if (!/^[+-]?[0-9]+$/.test(bitsText)) throw badBits;
  const bits = Number.parseInt(bitsText, 10);
  if (bits < 0 || bits > addr.bytes.length * 8) throw new Error(`netip.ParsePrefix(${q}): prefix length out of range`);
  return { addr, bits };
}

/** The prefix's address with its host bits cleared (Go `Prefix.Masked().Addr()`). */
export function maskedAddr(p: NetipPrefix): NetipAddr {
  const bytes = p.addr.bytes.map((byte, i) => {
    const keep = Math.max(0, Math.min(8, p.bits - i * 8));
    return byte & ((0xff << (8 - keep)) & 0xff);
  });
  return { bytes, zone: '' };
}
