import { expect } from 'chai';
import { fieldErrorString } from '../../../../lib/apimachinery/field-errors.js';
import {
  isDualStackCIDRs,
  isDualStackIPs,
  isIPv6String,
  parseCIDR,
  parseIP,
  validateNonSpecialIP,
} from '../../../../lib/apimachinery/validation/ip.js';

describe('apimachinery/validation/ip (upstream ParseIPSloppy / ParseCIDRSloppy)', () => {
  const valid = ['10.0.0.1', '010.000.000.001', '0.0.0.0', '::', '::1', 'fe80::1', '2001:db8::ffff', '::ffff:10.0.0.1', '1:2:3:4:5:6:7:8', '1:2:3:4:5:6:1.2.3.4'];
  const invalid = ['', '10.0.0', '10.0.0.256', '10.0.0.1.', 'a.b.c.d', '1::2::3', '1:2:3:4:5:6:7:8:9', '1:2:3:4:5:6:7::8', 'fe80::1%eth0', '12345::', ':1::', '1.2.3.4:80'];
  for (const s of valid) it(`accepts ${JSON.stringify(s)}`, () => expect(parseIP(s)).to.not.equal(null));
  for (const s of invalid) it(`rejects ${JSON.stringify(s)}`, () => expect(parseIP(s)).to.equal(null));

  it('classifies families (an IPv4-mapped address is IPv4)', () => {
    expect([isIPv6String('10.0.0.1'), isIPv6String('::ffff:10.0.0.1'), isIPv6String('fd00::1'), isIPv6String('x')]).to.deep.equal([false, false, true, false]);
    expect(isDualStackIPs(['10.0.0.1', 'fd00::1'])).to.equal(true);
    expect(isDualStackIPs(['10.0.0.1', '10.0.0.2'])).to.equal(false);
  });

  it('parses CIDRs with the prefix bounded by the written family', () => {
    expect(parseCIDR('10.0.0.0/8')).to.include({ prefix: 8, ipv6: false });
    expect(parseCIDR('fd00::/64')).to.include({ prefix: 64, ipv6: true });
    expect(parseCIDR('::ffff:10.0.0.0/104')).to.include({ prefix: 104, ipv6: false });
    for (const bad of ['10.0.0.0', '10.0.0.0/33', 'fd00::/129', '10.0.0.0/-1', '10.0.0.0/8/8', '/8']) expect(parseCIDR(bad), bad).to.equal(null);
    expect(isDualStackCIDRs(['10.0.0.0/8', 'fd00::/64'])).to.equal(true);
  });

  it('rejects special addresses with the upstream messages', () => {
    const msgs = (ip: string) => validateNonSpecialIP(ip, 'ip').map(fieldErrorString);
    expect(msgs('0.0.0.0')).to.deep.equal(['ip: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)']);
    expect(msgs('fe80::1')).to.deep.equal(['ip: Invalid value: "fe80::1": may not be in the link-local range (169.254.0.0/16, fe80::/10)']);
    expect(msgs('224.0.0.5')).to.deep.equal(['ip: Invalid value: "224.0.0.5": may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)']);
    expect(msgs('ff02::1')).to.deep.equal(['ip: Invalid value: "ff02::1": may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)']);
    expect(msgs('192.0.2.1')).to.deep.equal([]);
  });
});
