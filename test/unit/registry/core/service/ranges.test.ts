/**
 * The pure parts of service networking (issue #12 item 2): the allocation bitmap and its
 * snapshot bytes, service CIDRs and their address layout, `--service-cluster-ip-range` parsing
 * with upstream's messages, and node port ranges (upstream `utilnet.ParsePortRange`).
 */
import { expect } from 'chai';
import { AllocationBitmap } from '../../../../../lib/registry/core/service/bitmap.js';
import { formatIP, parseServiceCIDR, parseServiceClusterIPRanges } from '../../../../../lib/registry/core/service/ipam.js';
import { parsePortRange } from '../../../../../lib/registry/core/service/port-range.js';

describe('registry/core/service ranges (issue #12 item 2)', () => {
  describe('AllocationBitmap', () => {
    it('allocates, refuses a taken item, releases, counts', () => {
      const b = new AllocationBitmap(10, 0);
      expect(b.allocate(3)).to.equal(true);
      expect(b.allocate(3)).to.equal(false);
      expect(b.has(3)).to.equal(true);
      expect([b.count, b.free]).to.deep.equal([1, 9]);
      b.release(3);
      b.release(3);
      expect([b.has(3), b.count]).to.deep.equal([false, 0]);
      expect(() => b.allocate(10)).to.throw(RangeError);
    });

    it('dynamic allocation takes the upper band first, then the lower band, then reports full', () => {
      const b = new AllocationBitmap(8, 3, () => 0);
      const got = Array.from({ length: 8 }, () => b.allocateNext());
      expect(got).to.deep.equal([3, 4, 5, 6, 7, 0, 1, 2]);
      expect(b.allocateNext()).to.equal(undefined);
    });

    it('snapshots as a big-endian integer without leading zero bytes (Go big.Int.Bytes) and restores', () => {
      const b = new AllocationBitmap(20, 0);
      expect(b.snapshot()).to.deep.equal(Buffer.alloc(0));
      b.allocate(0);
      b.allocate(9);
      expect([...b.snapshot()]).to.deep.equal([0x02, 0x01]);
      b.allocate(17);
      expect([...b.snapshot()]).to.deep.equal([0x02, 0x02, 0x01]);
      const c = new AllocationBitmap(20, 0);
      c.restore(b.snapshot());
      expect(c.offsets()).to.deep.equal([0, 9, 17]);
      expect(c.count).to.equal(3);
    });

    it('restoring drops bits beyond the range', () => {
      const b = new AllocationBitmap(4, 0);
      b.restore(Buffer.from([0xff]));
      expect(b.offsets()).to.deep.equal([0, 1, 2, 3]);
    });
  });

  describe('service CIDRs', () => {
    it('an IPv4 /24: network and broadcast never handed out, 254 items, a static band of 16', () => {
      const r = parseServiceCIDR('10.0.0.0/24')!;
      expect([r.family, r.cidr, r.size, r.offset]).to.deep.equal(['IPv4', '10.0.0.0/24', 254, 16]);
      expect([r.ipAt(0), r.ipAt(253), r.firstIP()]).to.deep.equal(['10.0.0.1', '10.0.0.254', '10.0.0.1']);
      expect([r.offsetOf('10.0.0.1'), r.offsetOf('10.0.0.254')]).to.deep.equal([0, 253]);
      expect([r.offsetOf('10.0.0.0'), r.offsetOf('10.0.0.255'), r.offsetOf('10.0.1.1'), r.offsetOf('fd00::1'), r.offsetOf('x')]).to.deep.equal([
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
      ]);
    });

    it('the host bits of the written address are masked; the static band follows min(max(16, size/16), 256)', () => {
      expect(parseServiceCIDR('10.96.3.7/12')!.cidr).to.equal('10.96.0.0/12');
      expect(parseServiceCIDR('10.96.0.0/12')!.offset).to.equal(256);
      expect(parseServiceCIDR('10.0.0.0/28')!.offset).to.equal(0);
      expect(parseServiceCIDR('10.0.0.0/27')!.offset).to.equal(16);
    });

    it('IPv6: canonical text, the range cut to 65536 items, no broadcast', () => {
      const r = parseServiceCIDR('FD00:0:0:0::/108')!;
      expect([r.family, r.cidr, r.size]).to.deep.equal(['IPv6', 'fd00::/108', 65535]);
      expect(r.ipAt(0)).to.equal('fd00::1');
      expect(r.offsetOf('fd00::a')).to.equal(9);
      expect(parseServiceCIDR('fd00::/120')!.size).to.equal(255);
    });

    it('formats IPv6 as Go: the longest run of zero groups compressed, the first of equal runs', () => {
      const v = (s: string) => BigInt(`0x${s.replace(/:/g, '')}`);
      expect(formatIP(v('2001:0db8:0000:0000:0001:0000:0000:0001'), 'IPv6')).to.equal('2001:db8::1:0:0:1');
      expect(formatIP(v('0000:0000:0000:0000:0000:0000:0000:0001'), 'IPv6')).to.equal('::1');
      expect(formatIP(v('2001:0db8:0001:0001:0001:0001:0001:0001'), 'IPv6')).to.equal('2001:db8:1:1:1:1:1:1');
      expect(formatIP(v('2001:0000:0001:0001:0001:0001:0001:0001'), 'IPv6')).to.equal('2001:0:1:1:1:1:1:1');
    });
  });

  describe('--service-cluster-ip-range', () => {
    const ok = (flag: string) => {
      const r = parseServiceClusterIPRanges(flag);
      if ('errors' in r) throw new Error(r.errors.join('; '));
      return [r.primary.cidr, r.secondary?.cidr];
    };
    it('defaults to 10.0.0.0/24; takes one CIDR or two of different families', () => {
      expect(ok('')).to.deep.equal(['10.0.0.0/24', undefined]);
      expect(ok('10.96.0.0/16')).to.deep.equal(['10.96.0.0/16', undefined]);
      expect(ok('10.96.0.0/16,fd00::/108')).to.deep.equal(['10.96.0.0/16', 'fd00::/108']);
      expect(ok('fd00::/108,10.96.0.0/16')).to.deep.equal(['fd00::/108', '10.96.0.0/16']);
    });

    const rejected: Array<[string, string[]]> = [
      ['x', ['service-cluster-ip-range[0] is not a valid cidr']],
      [',', ['service-cluster-ip-range[0] is not a valid cidr']],
      ['10.0.0.0/24,x', ['service-cluster-ip-range[1] is not an ip net']],
      ['10.0.0.0/30', ['error determining service IP ranges for primary service cidr: the service cluster IP range must be at least 8 IP addresses']],
      ['10.0.0.0/24,10.1.0.0/24', ['--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family']],
      ['10.0.0.0/24,fd00::/108,10.2.0.0/24', ['--service-cluster-ip-range must not contain more than two entries']],
      ['10.0.0.0/8', ['specified --service-cluster-ip-range is too large; for 32-bit addresses, the mask must be >= 12']],
      ['10.0.0.0/24,fd00::/64', ['specified --service-cluster-ip-range[1] is too large; for 128-bit addresses, the mask must be >= 108']],
    ];
    for (const [flag, errors] of rejected) {
      it(`refuses ${JSON.stringify(flag)}`, () => {
        expect(parseServiceClusterIPRanges(flag)).to.deep.equal({ errors });
      });
    }
  });

  describe('--service-node-port-range', () => {
    const forms: Array<[string, string, number]> = [
      ['30000-32767', '30000-32767', 2768],
      [' 30000-32767 ', '30000-32767', 2768],
      ['30000+100', '30000-30100', 101],
      ['8080', '8080-8080', 1],
      ['', '', 0],
    ];
    for (const [text, spec, size] of forms) {
      it(`parses ${JSON.stringify(text)}`, () => {
        const r = parsePortRange(text);
        expect([r.toString(), r.size]).to.deep.equal([spec, size]);
      });
    }

    it('has the static band min(max(16, size/32), 128) and contains its ends', () => {
      const r = parsePortRange('30000-32767');
      expect(r.offset).to.equal(86);
      expect([r.contains(30000), r.contains(32767), r.contains(29999), r.contains(32768)]).to.deep.equal([true, true, false, false]);
      expect(parsePortRange('1-10').offset).to.equal(0);
    });

    const bad: Array<[string, string]> = [
      ['a-b', 'strconv.Atoi: parsing "a": invalid syntax'],
      ['30000-', 'strconv.Atoi: parsing "": invalid syntax'],
      ['1-2+3', 'unable to parse port range: 1-2+3'],
      ['30000-70000', 'the port range cannot be greater than 65535: 30000-70000'],
      ['32767-30000', 'end port cannot be less than start port: 32767-30000'],
    ];
    for (const [text, message] of bad) {
      it(`refuses ${JSON.stringify(text)}: ${message}`, () => {
        expect(() => parsePortRange(text)).to.throw(message);
      });
    }
  });
});
