import { expect } from 'chai';
import { SERVER_NAME } from '../../../lib/apis/vendor.js';
import {
  FlagError,
  HelpRequested,
  formatHelp,
  parseServerFlags,
} from '../../../lib/server/options/flags.js';
import { defaultAuthenticationOptions } from '../../../lib/server/options/authentication-options.js';
import type { ServerOptions } from '../../../lib/server/options/server-options.js';

const DEFAULTS: ServerOptions = {
  etcdServers: [],
  etcdPrefix: '/registry',
  etcdCompactionIntervalMs: 300_000,
  etcdBinary: 'etcd',
  bindAddress: '0.0.0.0',
  securePort: 6443,
  certDir: 'data/pki',
  dataDir: './data',
  shutdownDelayMs: 0,
  livezGracePeriodMs: 0,
  authentication: defaultAuthenticationOptions(),
  upstreamAliases: true,
  featureGates: { APIResponseCompression: true, WatchList: false },
  verbosity: 0,
};

/** Every flag the server accepts, as `--help` must list them. */
const ALL_FLAGS = [
  'upstream-aliases',
  'etcd-servers',
  'etcd-prefix',
  'etcd-compaction-interval',
  'etcd-binary',
  'bind-address',
  'secure-port',
  'cert-dir',
  'tls-cert-file',
  'tls-private-key-file',
  'client-ca-file',
  'token-auth-file',
  'data-dir',
  'shutdown-delay-duration',
  'livez-grace-period',
  'anonymous-auth',
  'feature-gates',
  'v',
  'help',
];

describe('server/options/flags', () => {
  it('defaults', () => {
    expect(parseServerFlags([])).to.deep.equal(DEFAULTS);
  });

  const accepted: Array<[string, string[], Partial<ServerOptions>]> = [
    ['--etcd-servers list', ['--etcd-servers=http://a:2379,https://b:2379'], { etcdServers: ['http://a:2379', 'https://b:2379'] }],
    [
      'repeated --etcd-servers appends',
      ['--etcd-servers=http://a:1,http://b:2', '--etcd-servers', 'http://c:3'],
      { etcdServers: ['http://a:1', 'http://b:2', 'http://c:3'] },
    ],
    ['empty --etcd-servers is the managed etcd', ['--etcd-servers='], { etcdServers: [] }],
    ['--etcd-prefix', ['--etcd-prefix=/other'], { etcdPrefix: '/other' }],
    ['--etcd-compaction-interval', ['--etcd-compaction-interval=1m30s'], { etcdCompactionIntervalMs: 90_000 }],
    ['--etcd-compaction-interval=0 disables', ['--etcd-compaction-interval=0'], { etcdCompactionIntervalMs: 0 }],
    ['--etcd-binary', ['--etcd-binary', '/opt/etcd/bin/etcd'], { etcdBinary: '/opt/etcd/bin/etcd' }],
    ['--bind-address v4', ['--bind-address=127.0.0.1'], { bindAddress: '127.0.0.1' }],
    ['--bind-address v6', ['--bind-address', '::1'], { bindAddress: '::1' }],
    ['--secure-port', ['--secure-port=7443'], { securePort: 7443 }],
    ['--secure-port value form', ['--secure-port', '7443'], { securePort: 7443 }],
    ['--secure-port 0 picks a free port', ['--secure-port=0'], { securePort: 0 }],
    ['last scalar wins', ['--secure-port=1', '--secure-port=2'], { securePort: 2 }],
    ['--cert-dir', ['--cert-dir=/tmp/pki'], { certDir: '/tmp/pki' }],
    ['--cert-dir follows --data-dir', ['--data-dir=/var/x'], { dataDir: '/var/x', certDir: '/var/x/pki' }],
    [
      'TLS files together',
      ['--tls-cert-file=/a.crt', '--tls-private-key-file', '/a.key'],
      { tlsCertFile: '/a.crt', tlsPrivateKeyFile: '/a.key' },
    ],
    ['--client-ca-file', ['--client-ca-file=/ca.crt'], { clientCaFile: '/ca.crt' }],
    ['--token-auth-file', ['--token-auth-file', '/tokens.csv'], { authentication: { ...defaultAuthenticationOptions(), tokenAuthFile: '/tokens.csv' } }],
    ['--data-dir', ['--data-dir', '/tmp/x'], { dataDir: '/tmp/x', certDir: '/tmp/x/pki' }],
    ['--data-dir takes a dash value', ['--data-dir', '-odd'], { dataDir: '-odd', certDir: '-odd/pki' }],
    ['--shutdown-delay-duration', ['--shutdown-delay-duration=10s'], { shutdownDelayMs: 10_000 }],
    ['--livez-grace-period', ['--livez-grace-period', '1m'], { livezGracePeriodMs: 60_000 }],
    ['--anonymous-auth=false', ['--anonymous-auth=false'], { authentication: { ...defaultAuthenticationOptions(), anonymousAuth: false } }],
    ['--anonymous-auth bare is true', ['--anonymous-auth=0', '--anonymous-auth'], { authentication: { ...defaultAuthenticationOptions(), anonymousAuth: true } }],
    ['--anonymous-auth=F', ['--anonymous-auth=F'], { authentication: { ...defaultAuthenticationOptions(), anonymousAuth: false } }],
    ['--v', ['--v=4'], { verbosity: 4 }],
    ['--v value form', ['--v', '2'], { verbosity: 2 }],
    ['value with = and dashes', ['--etcd-prefix=--a=b'], { etcdPrefix: '--a=b' }],
    [
      '--feature-gates',
      ['--feature-gates=WatchList=true,APIResponseCompression=false'],
      { featureGates: { APIResponseCompression: false, WatchList: true } },
    ],
    [
      'repeated --feature-gates merge, blanks ignored',
      ['--feature-gates', ' WatchList = true ,', '--feature-gates=APIResponseCompression=0'],
      { featureGates: { APIResponseCompression: false, WatchList: true } },
    ],
  ];
  for (const [title, argv, expected] of accepted) {
    it(`accepts ${title}: ${argv.join(' ')}`, () => {
      expect(parseServerFlags(argv)).to.deep.equal({ ...DEFAULTS, ...expected });
    });
  }

  const rejected: Array<[string[], string]> = [
    [['--foo'], 'unknown flag: --foo'],
    [['--foo=bar'], 'unknown flag: --foo'],
    [['--no-anonymous-auth'], 'unknown flag: --no-anonymous-auth'],
    [['-x'], "unknown shorthand flag: 'x' in -x"],
    [['-v=2'], "unknown shorthand flag: 'v' in -v=2"],
    [['---x'], 'bad flag syntax: ---x'],
    [['--secure-port'], 'flag needs an argument: --secure-port'],
    [['serve'], `"${SERVER_NAME}" does not take any arguments, got ["serve"]`],
    [['--', '--v=1'], `"${SERVER_NAME}" does not take any arguments, got ["--v=1"]`],
    [['--secure-port=x'], 'invalid argument "x" for "--secure-port" flag: strconv.ParseInt: parsing "x": invalid syntax'],
    [['--secure-port='], 'invalid argument "" for "--secure-port" flag: strconv.ParseInt: parsing "": invalid syntax'],
    [['--secure-port=70000'], '--secure-port 70000 must be between 0 and 65535, inclusive. 0 picks a free port'],
    [['--secure-port=-1'], '--secure-port -1 must be between 0 and 65535, inclusive. 0 picks a free port'],
    [['--v=x'], 'invalid argument "x" for "--v" flag: strconv.ParseInt: parsing "x": invalid syntax'],
    [['--v=4294967296'], 'invalid argument "4294967296" for "--v" flag: strconv.ParseInt: parsing "4294967296": value out of range'],
    [
      ['--anonymous-auth=maybe'],
      'invalid argument "maybe" for "--anonymous-auth" flag: strconv.ParseBool: parsing "maybe": invalid syntax',
    ],
    [
      ['--shutdown-delay-duration=10'],
      'invalid argument "10" for "--shutdown-delay-duration" flag: time: missing unit in duration "10"',
    ],
    [['--livez-grace-period=x'], 'invalid argument "x" for "--livez-grace-period" flag: time: invalid duration "x"'],
    [['--shutdown-delay-duration=-1s'], '--shutdown-delay-duration can not be negative value'],
    [['--livez-grace-period=-1s'], '--livez-grace-period can not be a negative value'],
    [['--etcd-compaction-interval=-5m'], '--etcd-compaction-interval can not be a negative value'],
    [['--bind-address=localhost'], 'invalid argument "localhost" for "--bind-address" flag: failed to parse IP: "localhost"'],
    [['--tls-cert-file=/a.crt'], '--tls-cert-file and --tls-private-key-file must be specified together'],
    [['--tls-private-key-file=/a.key'], '--tls-cert-file and --tls-private-key-file must be specified together'],
    [['--etcd-servers=localhost:2379'], '--etcd-servers: "localhost:2379" is not an http:// or https:// URL'],
    [
      ['--feature-gates=Foo=true'],
      'invalid argument "Foo=true" for "--feature-gates" flag: unrecognized feature gate: Foo',
    ],
    [['--feature-gates=WatchList'], 'invalid argument "WatchList" for "--feature-gates" flag: missing bool value for WatchList'],
    [
      ['--feature-gates=WatchList=yes'],
      'invalid argument "WatchList=yes" for "--feature-gates" flag: invalid value of WatchList=yes, err: strconv.ParseBool: parsing "yes": invalid syntax',
    ],
    [
      ['--secure-port=70000', '--tls-cert-file=/a'],
      '[--secure-port 70000 must be between 0 and 65535, inclusive. 0 picks a free port, --tls-cert-file and --tls-private-key-file must be specified together]',
    ],
  ];
  for (const [argv, message] of rejected) {
    it(`rejects ${argv.join(' ')}: ${message}`, () => {
      expect(() => parseServerFlags(argv)).to.throw(FlagError).with.property('message', message);
    });
  }

  it('reports every error on one line', () => {
    for (const [argv] of rejected) {
      try {
        parseServerFlags(argv);
      } catch (err) {
        expect((err as Error).message).not.to.include('\n');
      }
    }
  });

  for (const argv of [['--help'], ['-h'], ['--help=true'], ['--v=1', '--help']]) {
    it(`asks for help: ${argv.join(' ')}`, () => {
      expect(() => parseServerFlags(argv)).to.throw(HelpRequested);
    });
  }

  it('--help=false does not ask for help', () => {
    expect(parseServerFlags(['--help=false'])).to.deep.equal(DEFAULTS);
  });

  describe('formatHelp', () => {
    const help = formatHelp();
    const flagLines = help.split('\n').filter((l) => /^\s+(-h, )?--/.test(l));

    it('lists every flag once, each on one line with a description and its default', () => {
      const names = flagLines.map((l) => /--([a-z-]+)/.exec(l)![1]);
      expect(names).to.have.members(ALL_FLAGS);
      for (const line of flagLines) expect(line).to.match(/ {3}\S.* \(default .+\)$/);
    });

    const defaults: Array<[string, string]> = [
      ['etcd-prefix', '(default "/registry")'],
      ['etcd-compaction-interval', '(default 5m0s)'],
      ['bind-address', '(default 0.0.0.0)'],
      ['secure-port', '(default 6443)'],
      ['cert-dir', '(default "<data-dir>/pki")'],
      ['data-dir', '(default "./data")'],
      ['shutdown-delay-duration', '(default 0s)'],
      ['livez-grace-period', '(default 0s)'],
      ['anonymous-auth', '(default true)'],
      ['v', '(default 0)'],
      ['etcd-binary', '(default "etcd")'],
    ];
    for (const [name, text] of defaults) {
      it(`shows --${name} ${text}`, () => {
        const line = flagLines.find((l) => new RegExp(`^\\s+--${name} `).test(l));
        expect(line).to.include(text);
      });
    }

    it('describes the feature gates with their defaults', () => {
      expect(help).to.include('APIResponseCompression=true|false (BETA - default=true)');
      expect(help).to.include('WatchList=true|false (ALPHA - default=false)');
    });

    it('aligns descriptions in one column', () => {
      const columns = new Set(flagLines.map((l) => /^\s+(-h, )?--\S+( \S+)? {3,}/.exec(l)![0].length));
      expect(columns.size).to.equal(1);
    });
  });
});
