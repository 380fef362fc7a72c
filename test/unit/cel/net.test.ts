import { expect } from 'chai';
import { compile, CompileErrors, createEnvironment, createEnvironmentSet, formatVersion, FEATURE_VERSIONS } from '../../../lib/cel/index.js';
import { fails, table } from './helpers.js';

const stored = createEnvironment({ stored: true });

describe('IP and CIDR libraries (spec 000 § Expression language (CEL) in fields; upstream 1.30)', () => {
  it('are introduced at 1.30: stored expressions may use them, new ones (1.29) may not', () => {
    expect(formatVersion(FEATURE_VERSIONS.networkLibraries)).to.equal('1.30');
    const set = createEnvironmentSet();
    for (const e of ["isIP('1.2.3.4')", "cidr('10.0.0.0/8').containsIP('10.1.2.3')", "ip.isCanonical('::1')"]) {
      expect(compile(e, set.newExpressions), e).to.be.instanceOf(CompileErrors);
      expect(compile(e, set.storedExpressions), e).to.not.be.instanceOf(CompileErrors);
    }
    expect((compile("isIP('1.2.3.4')", set.newExpressions) as CompileErrors).message).to.equal("ERROR: <input>:1:5: undeclared reference to 'isIP' (in container '')\n | isIP('1.2.3.4')\n | ....^");
  });

  describe('ip()', () => {
    table(
      [
        ["ip('192.168.0.1').family()", 4n],
        ["ip('2001:db8::68').family()", 6n],
        ["string(ip('2001:DB8:0:0:0:0:0:68'))", '2001:db8::68'],
        ["string(ip('::'))", '::'],
        ["string(ip('1:0:0:2:0:0:0:3'))", '1:0:0:2::3'],
        ["string(ip('::1.2.3.4'))", '::102:304'],
        ["ip('192.168.0.1') == ip('192.168.0.1')", true],
        ["ip('2001:db8::1') == ip('2001:DB8::1')", true],
        ["ip('192.168.0.1') == ip('192.168.0.2')", false],
        ["ip('0.0.0.0').isUnspecified()", true],
        ["ip('::').isUnspecified()", true],
        ["ip('127.0.0.2').isLoopback()", true],
        ["ip('::1').isLoopback()", true],
        ["ip('224.0.0.1').isLinkLocalMulticast()", true],
        ["ip('ff02::1').isLinkLocalMulticast()", true],
        ["ip('169.254.1.1').isLinkLocalUnicast()", true],
        ["ip('fe80::1').isLinkLocalUnicast()", true],
        ["ip('10.0.0.1').isGlobalUnicast()", true],
        ["ip('255.255.255.255').isGlobalUnicast()", false],
        ["ip('ff00::1').isGlobalUnicast()", false],
        ["isIP('1.2.3.4')", true],
        ["isIP('1.2.3')", false],
        ["isIP('01.2.3.4')", false],
        ["isIP('fe80::1%eth0')", false],
        ["isIP('::ffff:1.2.3.4')", false],
        ["isIP('1::2::3')", false],
        ["ip.isCanonical('2001:db8::68')", true],
        ["ip.isCanonical('2001:DB8::68')", false],
        ["ip('1.2.3.256')", fails(/^IP Address "1\.2\.3\.256" parse error during conversion from string: ParseAddr\("1\.2\.3\.256"\): IPv4 field has value >255$/)],
        ["ip('fe80::1%eth0')", fails(/^IP address "fe80::1%eth0" with zone value is not allowed$/)],
        ["ip('::ffff:1.2.3.4')", fails(/^IPv4-mapped IPv6 address "::ffff:1\.2\.3\.4" is not allowed$/)],
      ],
      () => stored,
    );
  });

  describe('cidr()', () => {
    table(
      [
        ["cidr('192.168.0.0/24').containsIP(ip('192.168.0.1'))", true],
        ["cidr('192.168.0.0/24').containsIP('192.168.1.1')", false],
        ["cidr('2001:db8::/32').containsIP('2001:db8::1')", true],
        ["cidr('10.0.0.0/8').containsIP('::1')", false],
        ["cidr('192.168.0.0/16').containsCIDR(cidr('192.168.10.0/24'))", true],
        ["cidr('192.168.0.0/24').containsCIDR('192.168.0.0/16')", false],
        ["string(cidr('192.168.0.1/24').ip())", '192.168.0.1'],
        ["string(cidr('192.168.0.1/24').masked())", '192.168.0.0/24'],
        ["cidr('192.168.0.1/24').prefixLength()", 24n],
        ["string(cidr('2001:DB8::/32'))", '2001:db8::/32'],
        ["cidr('10.0.0.0/8') == cidr('10.0.0.0/8')", true],
        ["cidr('10.0.0.1/8') == cidr('10.0.0.0/8')", false],
        ["isCIDR('10.0.0.0/8')", true],
        ["isCIDR('10.0.0.0/33')", false],
        ["isCIDR('10.0.0.0')", false],
        ["isCIDR('10.0.0.0/08')", false],
        ["cidr('10.0.0.0')", fails(/^network address parse error during conversion from string: netip\.ParsePrefix\("10\.0\.0\.0"\): no '\/'$/)],
        ["cidr('::ffff:1.2.3.4/120')", fails(/^IPv4-mapped IPv6 address "::ffff:1\.2\.3\.4\/120" is not allowed$/)],
      ],
      () => stored,
    );
  });
});
