/**
 * The service networking flags (issue #12 item 2): `--service-cluster-ip-range`,
 * `--service-node-port-range`, `--advertise-address`, their accepted forms and upstream's
 * refusals, and the address the API server Service's endpoints get by default.
 */
import { expect } from 'chai';
import { defaultAdvertiseAddress } from '../../../lib/controlplane/service-networking.js';
import { FlagError, parseServerFlags } from '../../../lib/server/options/flags.js';

const networking = (argv: string[]) => parseServerFlags(argv).serviceNetworking;
const refusal = (argv: string[]): string => {
  try {
    parseServerFlags(argv);
  } catch (err) {
    if (err instanceof FlagError) return err.message;
    throw err;
  }
  throw new Error('accepted');
};

describe('server/options service networking flags (issue #12 item 2)', () => {
  it('defaults: the default range, 30000-32767, no advertise address', () => {
    expect(networking([])).to.deep.equal({ serviceClusterIPRange: '', serviceNodePortRange: '30000-32767' });
  });

  it('accepts one range, a dual-stack pair, a+n port ranges and an advertise address', () => {
    expect(networking(['--service-cluster-ip-range=10.96.0.0/16,fd00::/108', '--service-node-port-range', '30000+99', '--advertise-address=192.0.2.10'])).to.deep.equal({
      serviceClusterIPRange: '10.96.0.0/16,fd00::/108',
      serviceNodePortRange: '30000+99',
      advertiseAddress: '192.0.2.10',
    });
  });

  const rejected: Array<[string[], string]> = [
    [['--service-cluster-ip-range=10.0.0.0/8'], 'specified --service-cluster-ip-range is too large; for 32-bit addresses, the mask must be >= 12'],
    [['--service-cluster-ip-range=nope'], 'service-cluster-ip-range[0] is not a valid cidr'],
    [['--service-cluster-ip-range=10.0.0.0/24,10.1.0.0/24'], '--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family'],
    [['--service-node-port-range=30000-abc'], 'invalid argument "30000-abc" for "--service-node-port-range" flag: strconv.Atoi: parsing "abc": invalid syntax'],
    [['--service-node-port-range=40000-30000'], 'invalid argument "40000-30000" for "--service-node-port-range" flag: end port cannot be less than start port: 40000-30000'],
    [['--advertise-address=host'], 'invalid argument "host" for "--advertise-address" flag: failed to parse IP: "host"'],
  ];
  for (const [argv, message] of rejected) {
    it(`refuses ${argv.join(' ')}`, () => {
      expect(refusal(argv)).to.equal(message);
    });
  }

  describe('the default advertise address', () => {
    const interfaces = {
      lo: [{ address: '127.0.0.1', netmask: '255.0.0.0', family: 'IPv4', mac: '', internal: true, cidr: '127.0.0.1/8' }],
      eth0: [
        { address: 'fd00::2', netmask: 'ffff::', family: 'IPv6', mac: '', internal: false, cidr: 'fd00::2/64', scopeid: 0 },
        { address: '192.0.2.2', netmask: '255.255.255.0', family: 'IPv4', mac: '', internal: false, cidr: '192.0.2.2/24' },
      ],
    } as const;
    it('is a specific bind address', () => {
      expect(defaultAdvertiseAddress('198.51.100.7', interfaces as never)).to.equal('198.51.100.7');
    });
    it("is the host's first non-loopback IPv4 address when binding to all or loopback addresses", () => {
      expect(defaultAdvertiseAddress('0.0.0.0', interfaces as never)).to.equal('192.0.2.2');
      expect(defaultAdvertiseAddress('127.0.0.1', interfaces as never)).to.equal('192.0.2.2');
    });
    it('is absent when the host has none', () => {
      expect(defaultAdvertiseAddress('::', { lo: interfaces.lo } as never)).to.equal(undefined);
    });
  });
});
