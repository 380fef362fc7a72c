/**
 * Go `net/netip` parsing and canonical text (lib/apis/networking/v1alpha1/netip.ts), which
 * upstream's IPAddress names and ServiceCIDR ranges are validated with: Go 1.22's messages and
 * RFC 5952 output.
 */
import { expect } from 'chai';
import { formatAddr, maskedAddr, parseAddr, parsePrefix } from '../../../../../lib/apis/networking/v1alpha1/netip.js';

describe('netip (Go net/netip rules)', () => {
  describe('ParseAddr and Addr.String', () => {
    const canonical: Array<[string, string]> = [
      ['10.0.0.1', '10.0.0.1'],
      ['2001:DB8::1', '2001:db8::1'],
      ['2001:db8:0:0:0:0:0:1', '2001:db8::1'],
      ['2001:0db8::0001', '2001:db8::1'],
      ['::', '::'],
      ['::1', '::1'],
      ['1::', '1::'],
      ['2001:db8:0:1:0:0:0:1', '2001:db8:0:1::1'],
      ['2001:0:0:1:0:0:0:1', '2001:0:0:1::1'],
      ['2001:db8:1:1:1:1:0:1', '2001:db8:1:1:1:1:0:1'],
      ['::ffff:1.2.3.4', '::ffff:1.2.3.4'],
      ['::1.2.3.4', '::102:304'],
      ['fe80::1%eth0', 'fe80::1%eth0'],
    ];
    for (const [input, out] of canonical) {
      it(`${input} → ${out}`, () => expect(formatAddr(parseAddr(input))).to.equal(out));
    }

    const errors: Array<[string, string]> = [
      ['', 'ParseAddr(""): unable to parse IP'],
      ['abc', 'ParseAddr("abc"): unable to parse IP'],
      ['%eth0', 'ParseAddr("%eth0"): missing IPv6 address'],
      ['1.2.3', 'ParseAddr("1.2.3"): IPv4 address too short'],
      ['1.2.3.4.5', 'ParseAddr("1.2.3.4.5"): IPv4 address too long'],
      ['1.2.3.256', 'ParseAddr("1.2.3.256"): IPv4 field has value >255'],
      ['1.2.3.04', 'ParseAddr("1.2.3.04"): IPv4 field has octet with leading zero'],
      ['1..2.3', 'ParseAddr("1..2.3"): IPv4 field must have at least one digit (at ".2.3")'],
      ['1.2.3.4.', 'ParseAddr("1.2.3.4."): IPv4 field must have at least one digit (at ".")'],
      ['1.2.3.x', 'ParseAddr("1.2.3.x"): unexpected character (at "x")'],
      ['1:2', 'ParseAddr("1:2"): address string too short'],
      ['12345::', 'ParseAddr("12345::"): each group must have 4 or less digits (at "12345::")'],
      ['1:::2', 'ParseAddr("1:::2"): each colon-separated field must have at least one digit (at ":2")'],
      ['1::2::3', 'ParseAddr("1::2::3"): multiple :: in address (at ":3")'],
      ['1:2:3:4:5:6:7:8:9', 'ParseAddr("1:2:3:4:5:6:7:8:9"): trailing garbage after address (at "9")'],
      ['1:2:3:4::5:6:7:8', 'ParseAddr("1:2:3:4::5:6:7:8"): the :: must expand to at least one field of zeros'],
      ['1:', 'ParseAddr("1:"): colon must be followed by more characters (at ":")'],
      ['1:2.3.4.5', 'ParseAddr("1:2.3.4.5"): embedded IPv4 address must replace the final 2 fields of the address (at "2.3.4.5")'],
      ['fe80::1%', 'ParseAddr("fe80::1%"): zone must be a non-empty string'],
    ];
    for (const [input, message] of errors) {
      it(`rejects ${JSON.stringify(input)}`, () => expect(() => parseAddr(input)).to.throw(message));
    }
  });

  describe('ParsePrefix', () => {
    it('parses the address and length; Masked clears host bits', () => {
      const p = parsePrefix('10.0.0.1/24');
      expect(p.bits).to.equal(24);
      expect(formatAddr(maskedAddr(p))).to.equal('10.0.0.0');
      expect(formatAddr(maskedAddr(parsePrefix('2001:db8::ff/120')))).to.equal('2001:db8::');
    });

    const errors: Array<[string, string]> = [
      ['10.0.0.0', `netip.ParsePrefix("10.0.0.0"): no '/'`],
      ['10.0.0/8', 'netip.ParsePrefix("10.0.0/8"): ParseAddr("10.0.0"): IPv4 address too short'],
      ['10.0.0.0/33', 'netip.ParsePrefix("10.0.0.0/33"): prefix length out of range'],
      ['10.0.0.0/08', 'netip.ParsePrefix("10.0.0.0/08"): bad bits after slash: "08"'],
      ['10.0.0.0/x', 'netip.ParsePrefix("10.0.0.0/x"): bad bits after slash: "x"'],
      ['fe80::%eth0/64', 'netip.ParsePrefix("fe80::%eth0/64"): IPv6 zones cannot be present in a prefix'],
    ];
    for (const [input, message] of errors) {
      it(`rejects ${JSON.stringify(input)}`, () => expect(() => parsePrefix(input)).to.throw(message));
    }
  });
});
