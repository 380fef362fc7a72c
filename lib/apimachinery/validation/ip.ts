/**
 * IP address and CIDR syntax with the upstream ("sloppy") parsing rules: IPv4 octets may carry
 * leading zeros, IPv6 follows RFC 4291 text form (with an optional trailing dotted IPv4), zones
 * are not allowed. Messages are the upstream ones (spec 001 § Errors, 422 causes).
 */
import { type FieldError, type FieldPath, invalid } from '../field-errors.js';

/** A parsed address: always 16 bytes, IPv4 addresses in their IPv4-mapped form (`::ffff:a.b.c.d`). */
export type IPBytes = Uint8Array;

const V4_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

function parseIPv4(s: string): number[] | null {
  const parts = s.split('.');
  if (parts.length !== 4) return null;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^[0-9]+$/.test(p)) return null;
    const n = Number.parseInt(p, 10);
    if (n > 255) return null;
    out.push(n);
  }
  return out;
}

function parseIPv6(s: string): number[] | null {
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const groups = (text: string): number[] | null => {
    if (text === '') return [];
    const bytes: number[] = [];
    const parts = text.split(':');
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      if (i === parts.length - 1 && p.includes('.')) {
        const v4 = parseIPv4(p);
        if (!v4) return null;
        bytes.push(...v4);
        continue;
      }
      if (!/^[0-9a-fA-F]{1,4}$/.test(p)) return null;
      const n = Number.parseInt(p, 16);
      bytes.push(n >> 8, n & 0xff);
    }
    return bytes;
  };
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !tail) return null;
  if (halves.length === 1) return head.length === 16 ? head : null;
  const fill = 16 - head.length - tail.length;
  if (fill < 2) return null;
  return [...head, ...new Array<number>(fill).fill(0), ...tail];
}

/** Parses an IP address as upstream `ParseIPSloppy` does; null when it is not one. */
export function parseIP(s: string): IPBytes | null {
  if (s.includes(':')) {
    const b = parseIPv6(s);
    return b ? Uint8Array.from(b) : null;
  }
  const v4 = parseIPv4(s);
  return v4 ? Uint8Array.from([...V4_PREFIX, ...v4]) : null;
}

/** True when the address is IPv4 (including the IPv4-mapped IPv6 form). */
export function isIPv4Bytes(ip: IPBytes): boolean {
  return V4_PREFIX.every((b, i) => ip[i] === b);
}

/** True for a syntactically valid address that is not IPv4 (upstream `IsIPv6String`). */
export function isIPv6String(s: string): boolean {
  const ip = parseIP(s);
  return ip !== null && !isIPv4Bytes(ip);
}

/** `0.0.0.0` or `::`. */
export function isUnspecified(ip: IPBytes): boolean {
  if (isIPv4Bytes(ip)) return ip[12] === 0 && ip[13] === 0 && ip[14] === 0 && ip[15] === 0;
  return ip.every((b) => b === 0);
}

/** `127.0.0.0/8` or `::1`. */
export function isLoopback(ip: IPBytes): boolean {
  if (isIPv4Bytes(ip)) return ip[12] === 127;
  return ip.slice(0, 15).every((b) => b === 0) && ip[15] === 1;
}

/** `169.254.0.0/16` or `fe80::/10`. */
export function isLinkLocalUnicast(ip: IPBytes): boolean {
  if (isIPv4Bytes(ip)) return ip[12] === 169 && ip[13] === 254;
  return ip[0] === 0xfe && (ip[1]! & 0xc0) === 0x80;
}

/** `224.0.0.0/24` or `ff02::/16` (any flags nibble). */
export function isLinkLocalMulticast(ip: IPBytes): boolean {
  if (isIPv4Bytes(ip)) return ip[12] === 224 && ip[13] === 0 && ip[14] === 0;
  return ip[0] === 0xff && (ip[1]! & 0x0f) === 0x02;
}

/** A parsed CIDR: its address and prefix length (counted in the family of the written address). */
export interface ParsedCIDR {
  ip: IPBytes;
  prefix: number;
  ipv6: boolean;
}

/** Parses `addr/len` as upstream `ParseCIDRSloppy` does; null when it is not a CIDR. */
export function parseCIDR(s: string): ParsedCIDR | null {
  const slash = s.indexOf('/');
  if (slash < 0) return null;
  const addr = s.slice(0, slash);
  const len = s.slice(slash + 1);
  const ip = parseIP(addr);
  if (!ip || !/^[0-9]+$/.test(len)) return null;
  const writtenV6 = addr.includes(':');
  const prefix = Number.parseInt(len, 10);
  if (prefix > (writtenV6 ? 128 : 32)) return null;
  return { ip, prefix, ipv6: !isIPv4Bytes(ip) };
}

/** `Invalid value: "x": must be a valid IP address, …` when `value` is not an IP address. */
export function validateIP(path: FieldPath | string, value: string): FieldError[] {
  return parseIP(value) ? [] : [invalid(path, value, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)')];
}

/** `Invalid value: "x": must be a valid CIDR value, …` when `value` is not a CIDR. */
export function validateCIDR(path: FieldPath | string, value: string): FieldError[] {
  return parseCIDR(value) ? [] : [invalid(path, value, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)')];
}

/**
 * Rejects addresses that make no sense as endpoint or external addresses: unspecified,
 * loopback, link-local unicast and link-local multicast (upstream `ValidateNonSpecialIP`).
 */
export function validateNonSpecialIP(value: string, path: FieldPath | string): FieldError[] {
  const ip = parseIP(value);
  if (!ip) return [invalid(path, value, 'must be a valid IP address')];
  const errs: FieldError[] = [];
  if (isUnspecified(ip)) errs.push(invalid(path, value, `may not be unspecified (${value})`));
  if (isLoopback(ip)) errs.push(invalid(path, value, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if (isLinkLocalUnicast(ip)) errs.push(invalid(path, value, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  if (isLinkLocalMulticast(ip)) errs.push(invalid(path, value, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  return errs;
}

/** True when the (valid) addresses include at least one IPv4 and one IPv6 address. */
export function isDualStackIPs(values: readonly string[]): boolean {
  const ips = values.map(parseIP);
  return ips.some((ip) => ip !== null && isIPv4Bytes(ip)) && ips.some((ip) => ip !== null && !isIPv4Bytes(ip));
}

/** True when the (valid) CIDRs include at least one IPv4 and one IPv6 range. */
export function isDualStackCIDRs(values: readonly string[]): boolean {
  const cidrs = values.map(parseCIDR);
  return cidrs.some((c) => c !== null && !c.ipv6) && cidrs.some((c) => c !== null && c.ipv6);
}
