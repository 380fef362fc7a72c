/**
 * Service IP ranges (`--service-cluster-ip-range`) and their addresses, as upstream's
 * ipallocator `Range` lays them out: the CIDR's network address is never handed out, nor (IPv4)
 * its broadcast address; item `i` of the range is the address `network + 1 + i`; an IPv6 range
 * is cut to its first 65536 items; the lower band of `min(max(16, size/16), 256)` items is kept
 * for requested addresses (ServiceIPStaticSubrange). Also the parsing of the flag with
 * upstream's messages (kube-apiserver `getServiceIPAndRanges`, `ServiceIPRange`,
 * `validateClusterIPFlags`).
 */
import { isIPv4Bytes, parseCIDR, parseIP } from '../../../apimachinery/validation/ip.js';

/** An IP family name as in `spec.ipFamilies`. */
export type IPFamily = 'IPv4' | 'IPv6';

/** The range used when `--service-cluster-ip-range` is not given (upstream `DefaultServiceIPCIDR`). */
export const DEFAULT_SERVICE_CIDR = '10.0.0.0/24';

/** Bits of an address of each family. */
const FAMILY_BITS: Record<IPFamily, number> = { IPv4: 32, IPv6: 128 };
/** Largest host part of a service CIDR (upstream `maxCIDRBits`): the bitmap is kept in etcd. */
const MAX_CIDR_BITS = 20;

/** The address as an unsigned integer of its family's width. */
function toBig(bytes: Uint8Array, family: IPFamily): bigint {
  let v = 0n;
  for (const b of family === 'IPv4' ? bytes.subarray(12) : bytes) v = (v << 8n) | BigInt(b);
  return v;
}

/** Go's `net.IP.String()`: dotted IPv4; IPv6 in lower-case hex with the longest run of zero groups as `::`. */
export function formatIP(value: bigint, family: IPFamily): string {
  if (family === 'IPv4') return [24n, 16n, 8n, 0n].map((s) => String((value >> s) & 0xffn)).join('.');
  const groups = Array.from({ length: 8 }, (_, i) => Number((value >> BigInt(112 - 16 * i)) & 0xffffn));
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j === i ? i + 1 : j;
  }
  const hex = (gs: number[]) => gs.map((g) => g.toString(16)).join(':');
  if (bestStart < 0) return hex(groups);
  return `${hex(groups.slice(0, bestStart))}::${hex(groups.slice(bestStart + bestLen))}`;
}

/** The family of a valid address (undefined when `ip` is not one). */
export function familyOfIP(ip: string): IPFamily | undefined {
  const bytes = parseIP(ip);
  if (!bytes) return undefined;
  return isIPv4Bytes(bytes) ? 'IPv4' : 'IPv6';
}

/** The other family. */
export function otherFamily(family: IPFamily): IPFamily {
  return family === 'IPv4' ? 'IPv6' : 'IPv4';
}

/** One service IP range: its CIDR and the addresses the allocator hands out. */
export class ServiceIPRange {
  /** The CIDR as Go prints it (`10.0.0.0/24`): the RangeAllocation's `range`. */
  readonly cidr: string;
  /** Number of addresses that can be allocated. */
  readonly size: number;
  /** Size of the lower band kept for requested addresses. */
  readonly offset: number;
  private readonly network: bigint;
  private readonly hostBits: number;

  constructor(
    readonly family: IPFamily,
    network: bigint,
    readonly prefix: number,
  ) {
    this.hostBits = FAMILY_BITS[family] - prefix;
    this.network = (network >> BigInt(this.hostBits)) << BigInt(this.hostBits);
    this.cidr = `${formatIP(this.network, family)}/${prefix}`;
    const total = this.totalAddresses();
    let max = family === 'IPv6' ? Math.min(total, 65536) : total - 1;
    max -= 1;
    this.size = Math.max(0, max);
    this.offset = total <= 16 ? 0 : Math.min(Math.max(16, Math.floor(total / 16)), 256);
  }

  /** Upstream `RangeSize`: addresses in the CIDR (0 for a /0 or /1 IPv4 and /0 or /1 IPv6 range; capped for huge IPv6 ranges). */
  totalAddresses(): number {
    const bits = FAMILY_BITS[this.family];
    if (bits - this.prefix >= bits - 1) return 0;
    if (this.hostBits >= 53) return Number.MAX_SAFE_INTEGER;
    return 2 ** this.hostBits;
  }

  /** The address of item `i` (`network + 1 + i`). */
  ipAt(i: number): string {
    return formatIP(this.network + 1n + BigInt(i), this.family);
  }

  /** The address the `kubernetes` Service takes: the first of the range (upstream `GetIndexedIP(cidr, 1)`). */
  firstIP(): string {
    return this.ipAt(0);
  }

  /** The item of `ip` in this range; undefined when it is not a valid address of the range. */
  offsetOf(ip: string): number | undefined {
    const bytes = parseIP(ip);
    if (!bytes || (isIPv4Bytes(bytes) ? 'IPv4' : 'IPv6') !== this.family) return undefined;
    const value = toBig(bytes, this.family);
    if (value >> BigInt(this.hostBits) !== this.network >> BigInt(this.hostBits)) return undefined;
    const i = value - this.network - 1n;
    return i >= 0n && i < BigInt(this.size) ? Number(i) : undefined;
  }
}

/** Parses `addr/len` into a range; undefined when it is no CIDR (or an IPv4-mapped IPv6 one). */
export function parseServiceCIDR(text: string): ServiceIPRange | undefined {
  const c = parseCIDR(text);
  if (!c) return undefined;
  const writtenV6 = text.slice(0, text.indexOf('/')).includes(':');
  if (writtenV6 !== c.ipv6) return undefined;
  const family: IPFamily = c.ipv6 ? 'IPv6' : 'IPv4';
  return new ServiceIPRange(family, toBig(c.ip, family), c.prefix);
}

/** The service IP ranges of the cluster: the primary, and a secondary of the other family (dual-stack). */
export interface ServiceCIDRs {
  primary: ServiceIPRange;
  secondary?: ServiceIPRange;
}

/**
 * Parses `--service-cluster-ip-range` (`''` = {@link DEFAULT_SERVICE_CIDR}) and checks it as
 * upstream's Complete and Validate do; returns the ranges, or the reasons it is refused.
 */
export function parseServiceClusterIPRanges(flag: string): ServiceCIDRs | { errors: string[] } {
  const texts = flag === '' ? [DEFAULT_SERVICE_CIDR] : flag.split(',');
  const primary = parseServiceCIDR(texts[0]!);
  if (!primary) return { errors: ['service-cluster-ip-range[0] is not a valid cidr'] };
  if (Math.min(primary.totalAddresses(), 65536) < 8) {
    return { errors: ['error determining service IP ranges for primary service cidr: the service cluster IP range must be at least 8 IP addresses'] };
  }
  let secondary: ServiceIPRange | undefined;
  if (texts.length > 1) {
    secondary = parseServiceCIDR(texts[1]!);
    if (!secondary) return { errors: ['service-cluster-ip-range[1] is not an ip net'] };
  }
  const errors: string[] = [];
  if (texts.length > 2) errors.push('--service-cluster-ip-range must not contain more than two entries');
  const tooLarge = (r: ServiceIPRange, flagName: string) => {
    const bits = FAMILY_BITS[r.family];
    if (bits - r.prefix > MAX_CIDR_BITS) errors.push(`specified ${flagName} is too large; for ${bits}-bit addresses, the mask must be >= ${bits - MAX_CIDR_BITS}`);
  };
  tooLarge(primary, '--service-cluster-ip-range');
  if (secondary) {
    if (secondary.family === primary.family) errors.push('--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family');
    tooLarge(secondary, '--service-cluster-ip-range[1]');
  }
  return errors.length > 0 ? { errors } : { primary, secondary };
}
