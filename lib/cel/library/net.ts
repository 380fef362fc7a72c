/**
 * The IP and CIDR libraries (upstream v1.30 `library.IP`, `library.CIDR`: introduced at
 * compatibility version 1.30, so only stored expressions may use them while new ones compile at
 * 1.29 — spec 000 § Expression language (CEL) in fields, "A server accepts writes of expressions
 * using a feature only at or after the version that introduced it").
 *
 * IP: `ip(string)` (error for an invalid address, a zone, or an IPv4-mapped IPv6 address),
 * `isIP(string)`, `ip.isCanonical(string)`, `string(ip)`, and on an IP `family()` (4 or 6),
 * `isUnspecified()`, `isLoopback()`, `isLinkLocalMulticast()`, `isLinkLocalUnicast()`,
 * `isGlobalUnicast()`. CIDR: `cidr(string)`, `isCIDR(string)`, `string(cidr)`, and on a CIDR
 * `containsIP(ip or string)`, `containsCIDR(cidr or string)`, `ip()`, `masked()`,
 * `prefixLength()`. Errors are upstream's: `IP Address "x" parse error during conversion from
 * string: ParseAddr("x"): …`, `network address parse error during conversion from string: …`.
 */

import { VENDOR } from '../../apis/vendor.js';
import type { Equatable } from '../equality.js';
import { LibraryError, type FunctionDecl } from './common.js';
import {
  type Addr,
  type Prefix,
  NetParseError,
  addrClass,
  formatAddr,
  formatPrefix,
  is4In6,
  masked,
  parseAddr,
  parsePrefix,
  prefixContains,
  prefixContainsPrefix,
} from './net-parse.js';

/** Type names in expressions. */
export const IP_TYPE = `${VENDOR}.net.IP`;
export const CIDR_TYPE = `${VENDOR}.net.CIDR`;
/** The type of the `ip` namespace constant (`ip.isCanonical`). */
export const IP_NAMESPACE_TYPE = 'IPNamespace';

/** An IP address value. */
export class CelIP implements Equatable {
  constructor(readonly addr: Addr) {}

  isEqualTo(other: unknown): boolean {
    return other instanceof CelIP && formatAddr(other.addr) === formatAddr(this.addr);
  }
}

/** A CIDR value (the address as written, with its prefix length). */
export class CelCIDR implements Equatable {
  constructor(readonly prefix: Prefix) {}

  isEqualTo(other: unknown): boolean {
    return other instanceof CelCIDR && formatPrefix(other.prefix) === formatPrefix(this.prefix);
  }
}

/** The namespace value of `ip.isCanonical`. */
export class IPNamespace {}

/** Upstream `parseIPAddr`. @throws LibraryError */
function toAddr(s: string): Addr {
  let addr: Addr;
  try {
    addr = parseAddr(s);
  } catch (err) {
    if (err instanceof NetParseError) throw new LibraryError(`IP Address ${JSON.stringify(s)} parse error during conversion from string: ${err.message}`);
    throw err;
  }
  if (addr.zone !== '') throw new LibraryError(`IP address ${JSON.stringify(s)} with zone value is not allowed`);
  if (is4In6(addr)) throw new LibraryError(`IPv4-mapped IPv6 address ${JSON.stringify(s)} is not allowed`);
  return addr;
}

/** Upstream `parseCIDR`. @throws LibraryError */
function toPrefix(s: string): Prefix {
  let prefix: Prefix;
  try {
    prefix = parsePrefix(s);
  } catch (err) {
    if (err instanceof NetParseError) throw new LibraryError(`network address parse error during conversion from string: ${err.message}`);
    throw err;
  }
  if (is4In6(prefix.addr)) throw new LibraryError(`IPv4-mapped IPv6 address ${JSON.stringify(s)} is not allowed`);
  return prefix;
}

const succeeds = (f: () => unknown): boolean => {
  try {
    f();
    return true;
  } catch (err) {
    if (err instanceof LibraryError) return false;
    throw err;
  }
};

const ipPredicate = (name: string, test: (a: Addr) => boolean): FunctionDecl => ({ name, receiver: IP_TYPE, params: [], result: 'bool', handler: (ip: CelIP) => test(ip.addr) });

/** The IP and CIDR libraries' functions. */
export const NET_FUNCTIONS: readonly FunctionDecl[] = [
  { name: 'ip', params: ['string'], result: IP_TYPE, handler: (s: string) => new CelIP(toAddr(s)) },
  { name: 'isIP', params: ['string'], result: 'bool', handler: (s: string) => succeeds(() => toAddr(s)) },
  { name: 'isCanonical', receiver: IP_NAMESPACE_TYPE, params: ['string'], result: 'bool', handler: (_ns: IPNamespace, s: string) => formatAddr(toAddr(s)) === s },
  { name: 'string', params: [IP_TYPE], result: 'string', handler: (ip: CelIP) => formatAddr(ip.addr) },
  { name: 'family', receiver: IP_TYPE, params: [], result: 'int', handler: (ip: CelIP) => (ip.addr.bytes.length === 4 ? 4n : 6n) },
  ipPredicate('isUnspecified', addrClass.unspecified),
  ipPredicate('isLoopback', addrClass.loopback),
  ipPredicate('isLinkLocalMulticast', addrClass.linkLocalMulticast),
  ipPredicate('isLinkLocalUnicast', addrClass.linkLocalUnicast),
  ipPredicate('isGlobalUnicast', addrClass.globalUnicast),
  { name: 'cidr', params: ['string'], result: CIDR_TYPE, handler: (s: string) => new CelCIDR(toPrefix(s)) },
  { name: 'isCIDR', params: ['string'], result: 'bool', handler: (s: string) => succeeds(() => toPrefix(s)) },
  { name: 'string', params: [CIDR_TYPE], result: 'string', handler: (c: CelCIDR) => formatPrefix(c.prefix) },
  { name: 'containsIP', receiver: CIDR_TYPE, params: [IP_TYPE], result: 'bool', handler: (c: CelCIDR, ip: CelIP) => prefixContains(c.prefix, ip.addr) },
  { name: 'containsIP', receiver: CIDR_TYPE, params: ['string'], result: 'bool', handler: (c: CelCIDR, s: string) => prefixContains(c.prefix, toAddr(s)) },
  { name: 'containsCIDR', receiver: CIDR_TYPE, params: [CIDR_TYPE], result: 'bool', handler: (c: CelCIDR, o: CelCIDR) => prefixContainsPrefix(c.prefix, o.prefix) },
  { name: 'containsCIDR', receiver: CIDR_TYPE, params: ['string'], result: 'bool', handler: (c: CelCIDR, s: string) => prefixContainsPrefix(c.prefix, toPrefix(s)) },
  { name: 'ip', receiver: CIDR_TYPE, params: [], result: IP_TYPE, handler: (c: CelCIDR) => new CelIP(c.prefix.addr) },
  { name: 'masked', receiver: CIDR_TYPE, params: [], result: CIDR_TYPE, handler: (c: CelCIDR) => new CelCIDR(masked(c.prefix)) },
  { name: 'prefixLength', receiver: CIDR_TYPE, params: [], result: 'int', handler: (c: CelCIDR) => BigInt(c.prefix.bits) },
];
