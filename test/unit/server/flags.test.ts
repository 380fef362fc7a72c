import { expect } from 'chai';
import { DEFAULT_SERVICE_ACCOUNT_ISSUER, SERVER_NAME } from '../../../lib/apis/vendor.js';
import {
  FlagError,
  HelpRequested,
  formatHelp,
  parseServerFlags,
} from '../../../lib/server/options/flags.js';
import { defaultAuthenticationOptions } from '../../../lib/server/options/authentication-options.js';
import { defaultAdmissionFlags } from '../../../lib/server/options/admission-flags.js';
import { defaultAuditOptions } from '../../../lib/server/options/audit-flags.js';
import { defaultFlowControlFlags } from '../../../lib/server/options/flowcontrol-flags.js';
import { defaultAuthorizationOptions } from '../../../lib/server/options/authorization-options.js';
import { covers } from '../../conformance/covers.js';
import { defaultOIDCOptions } from '../../../lib/authentication/jwt/oidc-flags.js';
import type { ServerOptions } from '../../../lib/server/options/server-options.js';
import { defaultServiceNetworkingOptions } from '../../../lib/server/options/service-networking.js';
import { applyFeatureGates, defaultFeatureGateFlags } from '../../../lib/server/options/feature-gates.js';
import { defaultWatchCacheFlags } from '../../../lib/server/options/watch-cache-flags.js';
import { defaultLoggingFlags } from '../../../lib/server/options/logging-flags.js';
import { defaultLeaderElectionOptions } from '../../../lib/server/options/leader-election-flags.js';
import { defaultTimeoutFlags } from '../../../lib/server/options/timeout-flags.js';
import { defaultAggregatorFlags } from '../../../lib/server/options/aggregator-flags.js';
import { defaultKubeletClientFlags } from '../../../lib/server/options/kubelet-flags.js';

const DEFAULTS: ServerOptions = {
  etcdServers: [],
  etcdPrefix: '/registry',
  etcdCompactionIntervalMs: 300_000,
  etcdHealthcheckTimeoutMs: 2_000,
  etcdReadycheckTimeoutMs: 2_000,
  etcdBinary: 'etcd',
  etcdTLS: { caFile: '', certFile: '', keyFile: '' },
  bindAddress: '0.0.0.0',
  securePort: 6443,
  certDir: 'data/pki',
  dataDir: './data',
  shutdownDelayMs: 0,
  livezGracePeriodMs: 0,
  authentication: defaultAuthenticationOptions(),
  authorization: defaultAuthorizationOptions(),
  admission: defaultAdmissionFlags(),
  audit: defaultAuditOptions(),
  flowControl: defaultFlowControlFlags(),
  upstreamAliases: true,
  controllers: ['*'],
  featureGates: defaultFeatureGateFlags(),
  serviceNetworking: defaultServiceNetworkingOptions(),
  leaderElection: defaultLeaderElectionOptions(),
  timeouts: defaultTimeoutFlags(),
  kubelet: defaultKubeletClientFlags(),
  showHiddenMetricsForVersion: '',
  verbosity: 0,
  watchCache: defaultWatchCacheFlags(),
  logging: defaultLoggingFlags(),
  aggregator: defaultAggregatorFlags(),
  console: true,
  workers: 0,
};

/** The service-account flags (issue #10 item 2): accepted forms and the options they give. */
function serviceAccountAccepted(): Array<[string, string[], Partial<ServerOptions>]> {
  const auth = (o: Partial<ServerOptions['authentication']>) => ({ authentication: { ...defaultAuthenticationOptions(), ...o } });
  return [
    ['--service-account-key-file repeats, no comma split', ['--service-account-key-file=/a,b.pem', '--service-account-key-file', '/c.pem'], auth({ serviceAccountKeyFiles: ['/a,b.pem', '/c.pem'] })],
    ['--service-account-signing-key-file with a key file', ['--service-account-signing-key-file=/sa.key', '--service-account-key-file=/sa.pub'], auth({ serviceAccountSigningKeyFile: '/sa.key', serviceAccountKeyFiles: ['/sa.pub'] })],
    ['--service-account-issuer repeats', ['--service-account-issuer=https://a', '--service-account-issuer', 'b'], auth({ serviceAccountIssuers: ['https://a', 'b'] })],
    ['--service-account-jwks-uri', ['--service-account-jwks-uri=https://keys.example/jwks'], auth({ serviceAccountJwksUri: 'https://keys.example/jwks' })],
    ['--service-account-lookup=false', ['--service-account-lookup=false'], auth({ serviceAccountLookup: false })],
    ['--service-account-max-token-expiration', ['--service-account-max-token-expiration=24h'], auth({ serviceAccountMaxTokenExpirationMs: 86_400_000 })],
    ['--service-account-max-token-expiration=0 is no cap', ['--service-account-max-token-expiration=0'], auth({ serviceAccountMaxTokenExpirationMs: 0 })],
    ['--service-account-extend-token-expiration=false', ['--service-account-extend-token-expiration=false'], auth({ serviceAccountExtendTokenExpiration: false })],
    ['--api-audiences list, repeated', ['--api-audiences=a,b', '--api-audiences', 'c'], auth({ apiAudiences: ['a', 'b', 'c'] })],
  ];
}

/** The OIDC flags and `--authentication-config` (issue #10 item 4): accepted forms and the options they give. */
function oidcAccepted(): Array<[string, string[], Partial<ServerOptions>]> {
  const oidc = (o: Partial<ServerOptions['authentication']['oidc']>, more: Partial<ServerOptions['authentication']> = {}) => ({
    authentication: { ...defaultAuthenticationOptions(), ...more, oidc: { ...defaultOIDCOptions(), flagsSet: true, ...o } },
  });
  const issuer = ['--oidc-issuer-url=https://idp.example', '--oidc-client-id=app'];
  const base = { issuerURL: 'https://idp.example', clientID: 'app' };
  return [
    ['--oidc-issuer-url with --oidc-client-id', issuer, oidc(base)],
    ['--oidc-username-claim and prefix', [...issuer, '--oidc-username-claim=email', '--oidc-username-prefix', '-'], oidc({ ...base, usernameClaim: 'email', usernamePrefix: '-' })],
    ['--oidc-groups-claim and prefix', [...issuer, '--oidc-groups-claim=groups', '--oidc-groups-prefix=oidc:'], oidc({ ...base, groupsClaim: 'groups', groupsPrefix: 'oidc:' })],
    ['--oidc-required-claim repeats, no comma split, trimmed', [...issuer, '--oidc-required-claim= hd = a,b ', '--oidc-required-claim', 'tier=gold=x'], oidc({ ...base, requiredClaims: { hd: 'a,b', tier: 'gold=x' } })],
    ['--oidc-ca-file', [...issuer, '--oidc-ca-file=/idp-ca.crt'], oidc({ ...base, caFile: '/idp-ca.crt' })],
    ['--oidc-signing-algs replaces the default, then appends', [...issuer, '--oidc-signing-algs=ES256,PS256', '--oidc-signing-algs=RS512'], oidc({ ...base, signingAlgs: ['ES256', 'PS256', 'RS512'] })],
    ['--authentication-config', ['--authentication-config=/authn.yaml'], { authentication: { ...defaultAuthenticationOptions(), authenticationConfig: '/authn.yaml' } }],
  ];
}

/** The OIDC flags and `--authentication-config` refused, with upstream's reasons. */
const OIDC_REJECTED: Array<[string[], string]> = [
  [['--oidc-issuer-url=https://idp.example'], 'oidc-issuer-url and oidc-client-id must be specified together when any oidc-* flags are set'],
  [['--oidc-client-id=app'], 'oidc-issuer-url and oidc-client-id must be specified together when any oidc-* flags are set'],
  [['--oidc-username-claim=sub'], 'oidc-issuer-url and oidc-client-id must be specified together when any oidc-* flags are set'],
  [['--authentication-config=/a.yaml', '--oidc-groups-claim=groups'], 'authentication-config file and oidc-* flags are mutually exclusive'],
  [['--authentication-config=/a.yaml', '--oidc-issuer-url=https://idp.example', '--oidc-client-id=app'], 'authentication-config file and oidc-* flags are mutually exclusive'],
  [['--oidc-issuer-url=https://idp.example', '--oidc-client-id=app', '--oidc-signing-algs=HS256'], 'oidc: unsupported signing alg: "HS256"'],
  [['--oidc-issuer-url=https://idp.example', '--oidc-client-id=app', '--oidc-signing-algs=none'], 'oidc: unsupported signing alg: "none"'],
  [['--oidc-required-claim=hd'], 'invalid argument "hd" for "--oidc-required-claim" flag: malformed pair, expect string=string'],
];

/** Every flag the server accepts, as `--help` must list them. */
const ALL_FLAGS = [
  'runtime-config',
  'audit-log-batch-buffer-size',
  'audit-log-batch-max-size',
  'audit-log-batch-max-wait',
  'audit-log-batch-throttle-burst',
  'audit-log-batch-throttle-enable',
  'audit-log-batch-throttle-qps',
  'audit-log-compress',
  'audit-log-format',
  'audit-log-maxage',
  'audit-log-maxbackup',
  'audit-log-maxsize',
  'audit-log-mode',
  'audit-log-path',
  'audit-log-truncate-enabled',
  'audit-log-truncate-max-batch-size',
  'audit-log-truncate-max-event-size',
  'audit-log-version',
  'audit-policy-file',
  'audit-webhook-batch-buffer-size',
  'audit-webhook-batch-max-size',
  'audit-webhook-batch-max-wait',
  'audit-webhook-batch-throttle-burst',
  'audit-webhook-batch-throttle-enable',
  'audit-webhook-batch-throttle-qps',
  'audit-webhook-config-file',
  'audit-webhook-initial-backoff',
  'audit-webhook-mode',
  'audit-webhook-truncate-enabled',
  'audit-webhook-truncate-max-batch-size',
  'audit-webhook-truncate-max-event-size',
  'audit-webhook-version',
  'admission-control-config-file',
  'default-not-ready-toleration-seconds',
  'default-unreachable-toleration-seconds',
  'disable-admission-plugins',
  'enable-admission-plugins',
  'enable-priority-and-fairness',
  'max-requests-inflight',
  'max-mutating-requests-inflight',
  'max-event-loop-delay',
  'event-loop-shed-levels',
  'authentication-config',
  'oidc-ca-file',
  'oidc-client-id',
  'oidc-groups-claim',
  'oidc-groups-prefix',
  'oidc-issuer-url',
  'oidc-required-claim',
  'oidc-signing-algs',
  'oidc-username-claim',
  'oidc-username-prefix',
  'upstream-aliases',
  'etcd-servers',
  'etcd-prefix',
  'etcd-compaction-interval',
  'etcd-healthcheck-timeout',
  'etcd-readycheck-timeout',
  'etcd-binary',
  'etcd-cafile',
  'etcd-certfile',
  'etcd-keyfile',
  'bind-address',
  'secure-port',
  'cert-dir',
  'tls-cert-file',
  'tls-private-key-file',
  'client-ca-file',
  'token-auth-file',
  'enable-bootstrap-token-auth',
  'api-audiences',
  'service-account-extend-token-expiration',
  'service-account-issuer',
  'service-account-jwks-uri',
  'service-account-key-file',
  'service-account-lookup',
  'service-account-max-token-expiration',
  'service-account-signing-key-file',
  'authentication-token-webhook-cache-ttl',
  'authentication-token-webhook-config-file',
  'authentication-token-webhook-version',
  'requestheader-allowed-names',
  'requestheader-client-ca-file',
  'requestheader-extra-headers-prefix',
  'requestheader-group-headers',
  'requestheader-username-headers',
  'controllers',
  'console',
  'data-dir',
  'shutdown-delay-duration',
  'workers',
  'livez-grace-period',
  'min-request-timeout',
  'request-timeout',
  'anonymous-auth',
  'authorization-mode',
  'authorization-policy-file',
  'authorization-webhook-config-file',
  'authorization-webhook-version',
  'authorization-webhook-cache-authorized-ttl',
  'authorization-webhook-cache-unauthorized-ttl',
  'authorization-config',
  'feature-gates',
  'advertise-address',
  'service-cluster-ip-range',
  'service-node-port-range',
  'kubelet-certificate-authority',
  'kubelet-client-certificate',
  'kubelet-client-key',
  'kubelet-preferred-address-types',
  'kubelet-timeout',
  'leader-elect',
  'leader-elect-lease-duration',
  'leader-elect-renew-deadline',
  'leader-elect-resource-lock',
  'leader-elect-resource-name',
  'leader-elect-resource-namespace',
  'leader-elect-retry-period',
  'show-hidden-metrics-for-version',
  'watch-cache',
  'watch-cache-sizes',
  'profiling',
  'logging-format',
  'enable-logs-handler',
  'enable-aggregator-routing',
  'proxy-client-cert-file',
  'proxy-client-key-file',
  'v',
  'help',
];

describe('server/options/flags', () => {
  it('defaults', () => {
    expect(parseServerFlags([])).to.deep.equal(DEFAULTS);
  });

  const accepted: Array<[string, string[], Partial<ServerOptions>]> = [
    [
      'the kubelet client flags (issue #20)',
      ['--kubelet-client-certificate=/k.crt', '--kubelet-client-key=/k.key', '--kubelet-certificate-authority=/ca.crt', '--kubelet-preferred-address-types=InternalIP,Hostname', '--kubelet-timeout=10s'],
      { kubelet: { clientCertificate: '/k.crt', clientKey: '/k.key', certificateAuthority: '/ca.crt', preferredAddressTypes: ['InternalIP', 'Hostname'], timeoutMs: 10_000 } },
    ],
    [
      '--authorization-mode',
      ['--authorization-mode=RBAC,Webhook', '--authorization-webhook-config-file=/w.kubeconfig'],
      { authorization: { ...defaultAuthorizationOptions(), modes: ['RBAC', 'Webhook'], webhookConfigFile: '/w.kubeconfig', legacyFlagsGiven: true } },
    ],
    [
      'repeated --authorization-mode appends',
      ['--authorization-mode', 'Node', '--authorization-mode=ABAC', '--authorization-policy-file=/p.jsonl'],
      { authorization: { ...defaultAuthorizationOptions(), modes: ['Node', 'ABAC'], policyFile: '/p.jsonl', legacyFlagsGiven: true } },
    ],
    [
      'the authorization webhook flags',
      [
        '--authorization-mode=Webhook',
        '--authorization-webhook-config-file',
        '/w.kubeconfig',
        '--authorization-webhook-version=v1',
        '--authorization-webhook-cache-authorized-ttl=1m',
        '--authorization-webhook-cache-unauthorized-ttl=0',
      ],
      {
        authorization: {
          ...defaultAuthorizationOptions(),
          modes: ['Webhook'],
          webhookConfigFile: '/w.kubeconfig',
          webhookVersion: 'v1',
          webhookCacheAuthorizedTTLMs: 60_000,
          webhookCacheUnauthorizedTTLMs: 0,
          legacyFlagsGiven: true,
        },
      },
    ],
    ['--authorization-config alone', ['--authorization-config=/authz.yaml'], { authorization: { ...defaultAuthorizationOptions(), config: '/authz.yaml' } }],
    [
      '--authorization-config with --authorization-policy-file (not a webhook flag, as upstream)',
      ['--authorization-config=/authz.yaml', '--authorization-policy-file=/p.jsonl'],
      { authorization: { ...defaultAuthorizationOptions(), config: '/authz.yaml', policyFile: '/p.jsonl' } },
    ],
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
    ['--etcd-healthcheck-timeout', ['--etcd-healthcheck-timeout=9s'], { etcdHealthcheckTimeoutMs: 9_000 }],
    ['--etcd-readycheck-timeout', ['--etcd-readycheck-timeout=500ms'], { etcdReadycheckTimeoutMs: 500 }],
    ['--etcd-healthcheck-timeout=0 is the default', ['--etcd-healthcheck-timeout=0', '--etcd-readycheck-timeout=0s'], {}],
    ['--etcd-binary', ['--etcd-binary', '/opt/etcd/bin/etcd'], { etcdBinary: '/opt/etcd/bin/etcd' }],
    [
      '--etcd-cafile, --etcd-certfile, --etcd-keyfile',
      ['--etcd-servers=https://a:2379', '--etcd-cafile=/ca.crt', '--etcd-certfile=/c.crt', '--etcd-keyfile=/c.key'],
      { etcdServers: ['https://a:2379'], etcdTLS: { caFile: '/ca.crt', certFile: '/c.crt', keyFile: '/c.key' } },
    ],
    ['--bind-address v4', ['--bind-address=127.0.0.1'], { bindAddress: '127.0.0.1' }],
    ['--bind-address v6', ['--bind-address', '::1'], { bindAddress: '::1' }],
    ['--secure-port', ['--secure-port=7443'], { securePort: 7443 }],
    ['--secure-port value form', ['--secure-port', '7443'], { securePort: 7443 }],
    ['--secure-port 0 picks a free port', ['--secure-port=0'], { securePort: 0 }],
    ['last scalar wins', ['--secure-port=1', '--secure-port=2'], { securePort: 2 }],
    ['--cert-dir', ['--cert-dir=/tmp/pki'], { certDir: '/tmp/pki' }],
    ['--console=false', ['--console=false'], { console: false }],
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
    ['--workers', ['--workers=3'], { workers: 3 }],
    ['--livez-grace-period', ['--livez-grace-period', '1m'], { livezGracePeriodMs: 60_000 }],
    ['--anonymous-auth=false', ['--anonymous-auth=false'], { authentication: { ...defaultAuthenticationOptions(), anonymousAuth: false } }],
    ['--anonymous-auth bare is true', ['--anonymous-auth=0', '--anonymous-auth'], { authentication: { ...defaultAuthenticationOptions(), anonymousAuth: true } }],
    ['--anonymous-auth=F', ['--anonymous-auth=F'], { authentication: { ...defaultAuthenticationOptions(), anonymousAuth: false } }],
    ['--enable-bootstrap-token-auth', ['--enable-bootstrap-token-auth'], { authentication: { ...defaultAuthenticationOptions(), enableBootstrapTokenAuth: true } }],
    ['--enable-bootstrap-token-auth=false', ['--enable-bootstrap-token-auth=false'], { authentication: { ...defaultAuthenticationOptions(), enableBootstrapTokenAuth: false } }],
    [
      'the token webhook flags',
      ['--authentication-token-webhook-config-file=/w.kubeconfig', '--authentication-token-webhook-cache-ttl=30s', '--authentication-token-webhook-version', 'v1'],
      { authentication: { ...defaultAuthenticationOptions(), tokenWebhookConfigFile: '/w.kubeconfig', tokenWebhookCacheTTLMs: 30_000, tokenWebhookVersion: 'v1' } },
    ],
    [
      '--authentication-token-webhook-version is only checked with a config file (as upstream)',
      ['--authentication-token-webhook-version=v2'],
      { authentication: { ...defaultAuthenticationOptions(), tokenWebhookVersion: 'v2' } },
    ],
    [
      'the request-header flags; list flags split at commas and append when repeated',
      [
        '--requestheader-client-ca-file=/proxy-ca.crt',
        '--requestheader-username-headers=X-Remote-User,X-Other-User',
        '--requestheader-group-headers=X-Remote-Group',
        '--requestheader-group-headers=X-Other-Group',
        '--requestheader-extra-headers-prefix=X-Remote-Extra-',
        '--requestheader-allowed-names=front-proxy,other',
      ],
      {
        authentication: {
          ...defaultAuthenticationOptions(),
          requestHeaderClientCaFile: '/proxy-ca.crt',
          requestHeaderUsernameHeaders: ['X-Remote-User', 'X-Other-User'],
          requestHeaderGroupHeaders: ['X-Remote-Group', 'X-Other-Group'],
          requestHeaderExtraHeadersPrefix: ['X-Remote-Extra-'],
          requestHeaderAllowedNames: ['front-proxy', 'other'],
        },
      },
    ],
    ['--controllers replaces the default', ['--controllers=*,tokencleaner'], { controllers: ['*', 'tokencleaner'] }],
    ['repeated --controllers append', ['--controllers=bootstrapsigner', '--controllers', '-serviceaccount,*'], { controllers: ['bootstrapsigner', '-serviceaccount', '*'] }],
    ['empty --controllers runs none', ['--controllers='], { controllers: [] }],
    ['--controllers takes upstream canonical names', ['--controllers=token-cleaner-controller,-root-ca-certificate-publisher-controller'], { controllers: ['token-cleaner-controller', '-root-ca-certificate-publisher-controller'] }],
    ...serviceAccountAccepted(),
    ...oidcAccepted(),
    ['--v', ['--v=4'], { verbosity: 4 }],
    ['--v value form', ['--v', '2'], { verbosity: 2 }],
    ['value with = and dashes', ['--etcd-prefix=--a=b'], { etcdPrefix: '--a=b' }],
    [
      '--feature-gates',
      ['--feature-gates=WatchList=true,APIResponseCompression=false'],
      { featureGates: applyFeatureGates(defaultFeatureGateFlags(), 'WatchList=true,APIResponseCompression=false') },
    ],
    [
      'repeated --feature-gates merge, blanks ignored',
      ['--feature-gates', ' WatchList = true ,', '--feature-gates=APIResponseCompression=0'],
      { featureGates: applyFeatureGates(defaultFeatureGateFlags(), 'WatchList=true,APIResponseCompression=false') },
    ],
    [
      'repeated --runtime-config merge, later items win (judged at start, not here)',
      ['--runtime-config=api/all=false,apps/v1', '--runtime-config', 'apps/v1=false,nope'],
      { runtimeConfig: new Map([['api/all', 'false'], ['apps/v1', 'false'], ['nope', '']]) },
    ],
    [
      'the aggregation layer flags (issue #20)',
      ['--proxy-client-cert-file=/p.crt', '--proxy-client-key-file', '/p.key', '--enable-aggregator-routing=false'],
      { aggregator: { proxyClientCertFile: '/p.crt', proxyClientKeyFile: '/p.key', enableAggregatorRouting: false } },
    ],
  ];
  for (const [title, argv, expected] of accepted) {
    it(`accepts ${title}: ${argv.join(' ')}`, () => {
      expect(parseServerFlags(argv)).to.deep.equal({ ...DEFAULTS, ...expected });
    });
  }

  const rejected: Array<[string[], string]> = [
    [['--authorization-mode=Foo'], 'authorization-mode "Foo" is not a valid mode'],
    [['--authorization-mode=RBAC,RBAC'], 'authorization-mode ["RBAC" "RBAC"] has mode specified more than once'],
    [['--authorization-mode=ABAC'], "authorization-mode ABAC's authorization policy file not passed"],
    [['--authorization-mode=Webhook'], "authorization-mode Webhook's authorization config file not passed"],
    [['--authorization-policy-file=/p.jsonl'], 'cannot specify --authorization-policy-file without mode ABAC'],
    [['--authorization-webhook-config-file=/w.kubeconfig'], 'cannot specify --authorization-webhook-config-file without mode Webhook'],
    [
      ['--authorization-mode=Webhook', '--authorization-webhook-config-file=/w.kubeconfig', '--authorization-webhook-version=v2'],
      'unsupported webhook authorizer version "v2", supported versions are "v1", "v1beta1"',
    ],
    [
      ['--authorization-config=/authz.yaml', '--authorization-mode=RBAC'],
      '--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined',
    ],
    [
      ['--authorization-config=/authz.yaml', '--authorization-webhook-cache-authorized-ttl=1m'],
      '--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined',
    ],
    [
      ['--authorization-webhook-cache-unauthorized-ttl=30'],
      'invalid argument "30" for "--authorization-webhook-cache-unauthorized-ttl" flag: time: missing unit in duration "30"',
    ],
    [['--authorization-mode='], 'at least one authorization-mode must be passed'],
    ...OIDC_REJECTED,
    [['--foo'], 'unknown flag: --foo'],
    [['--foo=bar'], 'unknown flag: --foo'],
    [['--no-anonymous-auth'], 'unknown flag: --no-anonymous-auth'],
    [['-x'], "unknown shorthand flag: 'x' in -x"],
    [['-vx=2'], 'invalid argument "x=2" for "-v, --v" flag: strconv.ParseInt: parsing "x=2": invalid syntax'],
    [['---x'], 'bad flag syntax: ---x'],
    [['--secure-port'], 'flag needs an argument: --secure-port'],
    [['serve'], `"${SERVER_NAME}" does not take any arguments, got ["serve"]`],
    [['--', '--v=1'], `"${SERVER_NAME}" does not take any arguments, got ["--v=1"]`],
    [['--secure-port=x'], 'invalid argument "x" for "--secure-port" flag: strconv.ParseInt: parsing "x": invalid syntax'],
    [['--secure-port='], 'invalid argument "" for "--secure-port" flag: strconv.ParseInt: parsing "": invalid syntax'],
    [['--secure-port=70000'], '--secure-port 70000 must be between 0 and 65535, inclusive. 0 picks a free port'],
    [['--secure-port=-1'], '--secure-port -1 must be between 0 and 65535, inclusive. 0 picks a free port'],
    [['--v=x'], 'invalid argument "x" for "-v, --v" flag: strconv.ParseInt: parsing "x": invalid syntax'],
    [['--v=4294967296'], 'invalid argument "4294967296" for "-v, --v" flag: strconv.ParseInt: parsing "4294967296": value out of range'],
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
    [['--workers=-1'], '--workers can not be negative value'],
    [['--workers=two'], 'invalid argument "two" for "--workers" flag: strconv.ParseInt: parsing "two": invalid syntax'],
    [['--livez-grace-period=-1s'], '--livez-grace-period can not be a negative value'],
    [['--etcd-compaction-interval=-5m'], '--etcd-compaction-interval can not be a negative value'],
    [['--etcd-healthcheck-timeout=-1s'], '--etcd-healthcheck-timeout can not be a negative value'],
    [['--etcd-readycheck-timeout=-2s'], '--etcd-readycheck-timeout can not be a negative value'],
    [['--bind-address=localhost'], 'invalid argument "localhost" for "--bind-address" flag: failed to parse IP: "localhost"'],
    [['--tls-cert-file=/a.crt'], '--tls-cert-file and --tls-private-key-file must be specified together'],
    [['--proxy-client-cert-file=/p.crt'], '--proxy-client-cert-file and --proxy-client-key-file must be specified together'],
    [['--proxy-client-key-file=/p.key'], '--proxy-client-cert-file and --proxy-client-key-file must be specified together'],
    [['--tls-private-key-file=/a.key'], '--tls-cert-file and --tls-private-key-file must be specified together'],
    [['--etcd-servers=localhost:2379'], '--etcd-servers: "localhost:2379" is not an http:// or https:// URL'],
    [['--etcd-servers=https://a:2379', '--etcd-certfile=/c.crt'], '--etcd-certfile and --etcd-keyfile must be specified together'],
    [['--etcd-cafile=/ca.crt'], '--etcd-cafile, --etcd-certfile and --etcd-keyfile need --etcd-servers (the managed etcd serves plain HTTP on loopback)'],
    [['--service-account-issuer='], 'service-account-issuer should not be an empty string'],
    [['--service-account-issuer=https://a', '--service-account-issuer=https://a'], 'service-account-issuer "https://a" is already specified'],
    [['--service-account-issuer=://a'], 'service-account-issuer "://a" contained a \':\' but was not a valid URL: parse "://a": missing protocol scheme'],
    [['--service-account-issuer=my issuer:1'], 'service-account-issuer "my issuer:1" contained a \':\' but was not a valid URL: parse "my issuer:1": first path segment in URL cannot contain colon'],
    [['--service-account-issuer=https://a:b/'], 'service-account-issuer "https://a:b/" contained a \':\' but was not a valid URL: parse "https://a:b/": invalid port ":b" after host'],
    [['--service-account-issuer=https://[::1/'], 'service-account-issuer "https://[::1/" contained a \':\' but was not a valid URL: parse "https://[::1/": missing \']\' in host'],
    [['--service-account-issuer=https://a/%zz'], 'service-account-issuer "https://a/%zz" contained a \':\' but was not a valid URL: parse "https://a/%zz": invalid URL escape "%zz"'],
    [['--service-account-signing-key-file=/sa.key'], 'service-account-key-file is a required flag'],
    [['--service-account-jwks-uri=http://keys/jwks'], 'service-account-jwks-uri requires https scheme, parsed as: http://keys/jwks'],
    [['--service-account-jwks-uri=https://a:x/jwks'], 'service-account-jwks-uri must be a valid URL: parse "https://a:x/jwks": invalid port ":x" after host'],
    [['--service-account-max-token-expiration=59m'], 'the service-account-max-token-expiration must be between 1 hour and 2^32 seconds'],
    [['--service-account-max-token-expiration=1193047h'], 'the service-account-max-token-expiration must be between 1 hour and 2^32 seconds'],
    [['--service-account-max-token-expiration=-2h'], 'the service-account-max-token-expiration must be between 1 hour and 2^32 seconds'],
    [['--service-account-max-token-expiration=1d'], 'invalid argument "1d" for "--service-account-max-token-expiration" flag: time: unknown unit "d" in duration "1d"'],
    [['--service-account-lookup=nope'], 'invalid argument "nope" for "--service-account-lookup" flag: strconv.ParseBool: parsing "nope": invalid syntax'],
    [['--controllers=*,foo'], '"foo" is not in the list of known controllers'],
    [['--controllers=-bar'], '"bar" is not in the list of known controllers'],
    [['--enable-bootstrap-token-auth=yes'], 'invalid argument "yes" for "--enable-bootstrap-token-auth" flag: strconv.ParseBool: parsing "yes": invalid syntax'],
    [
      ['--authentication-token-webhook-config-file=/w', '--authentication-token-webhook-version=v2'],
      'unsupported authentication webhook version "v2", supported versions are "v1", "v1beta1"',
    ],
    [
      ['--authentication-token-webhook-cache-ttl=2'],
      'invalid argument "2" for "--authentication-token-webhook-cache-ttl" flag: time: missing unit in duration "2"',
    ],
    [['--requestheader-username-headers=X-Remote-User,'], 'empty value in "requestheader-username-headers"'],
    [['--requestheader-group-headers= '], 'empty value in "requestheader-group-headers"'],
    [['--requestheader-extra-headers-prefix=,'], 'empty value in "requestheader-extra-headers-prefix"'],
    [['--requestheader-allowed-names=a,,b'], 'empty value in "requestheader-allowed-names"'],
    [['--requestheader-client-ca-file=/ca'], '--requestheader-username-headers must be specified when --requestheader-client-ca-file is set'],
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
  /** The spec 001 rows some refusals cover (by their argv). */
  const specRows: Record<string, string[]> = {
    '--oidc-issuer-url=https://idp.example': ['001 § OpenID Connect flags › --oidc-client-id (required)'],
    '--oidc-client-id=app': ['001 § OpenID Connect flags › --oidc-issuer-url (required)'],
  };
  for (const [argv, message] of rejected) {
    const rows = specRows[argv.join(' ')];
    it(`rejects ${argv.join(' ')}: ${message}${rows ? covers(...rows) : ''}`, () => {
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
    const flagLines = help.split('\n').filter((l) => /^\s+(-[hv], )?--/.test(l));

    it('lists every flag once, each with a description and its default (--feature-gates, --runtime-config: none, as pflag)', () => {
      const names = flagLines.map((l) => /--([a-z-]+)/.exec(l)![1]);
      expect(names).to.have.members(ALL_FLAGS);
      for (const line of flagLines.filter((l) => !l.includes('--feature-gates ') && !l.includes('--runtime-config '))) expect(line).to.match(/ {3}\S.* \(default .+\)$/);
    });

    const defaults: Array<[string, string]> = [
      ['etcd-prefix', '(default "/registry")'],
      ['oidc-username-claim', '(default "sub")'],
      ['oidc-signing-algs', '(default [RS256])'],
      ['etcd-compaction-interval', '(default 5m0s)'],
      ['bind-address', '(default 0.0.0.0)'],
      ['secure-port', '(default 6443)'],
      ['cert-dir', '(default "<data-dir>/pki")'],
      ['data-dir', '(default "./data")'],
      ['shutdown-delay-duration', '(default 0s)'],
      ['workers', '(default 0)'],
      ['livez-grace-period', '(default 0s)'],
      ['min-request-timeout', '(default 1800)'],
      ['request-timeout', '(default 1m0s)'],
      ['anonymous-auth', '(default true)'],
      ['enable-bootstrap-token-auth', '(default false)'],
      ['authentication-token-webhook-cache-ttl', '(default 2m0s)'],
      ['authentication-token-webhook-version', '(default "v1beta1")'],
      ['authorization-webhook-cache-authorized-ttl', '(default 5m0s)'],
      ['authorization-webhook-cache-unauthorized-ttl', '(default 30s)'],
      ['authorization-webhook-version', '(default "v1beta1")'],
      ['authorization-config', '(default "")'],
      ['requestheader-username-headers', '(default [])'],
      ['service-account-lookup', '(default true)'],
      ['service-account-extend-token-expiration', '(default true)'],
      ['service-account-max-token-expiration', '(default 0s)'],
      ['service-account-issuer', `(default [${DEFAULT_SERVICE_ACCOUNT_ISSUER}])`],
      ['api-audiences', '(default [])'],
      ['controllers', '(default [*])'],
      ['v', '(default 0)'],
      ['etcd-binary', '(default "etcd")'],
      ['etcd-healthcheck-timeout', '(default 2s)'],
      ['etcd-readycheck-timeout', '(default 2s)'],
      ['service-cluster-ip-range', '(default 10.0.0.0/24)'],
      ['service-node-port-range', '(default 30000-32767)'],
      ['kubelet-preferred-address-types', '(default [Hostname,InternalDNS,InternalIP,ExternalDNS,ExternalIP])'],
      ['kubelet-timeout', '(default 5s)'],
      ['kubelet-client-certificate', '(default "")'],
      ['enable-aggregator-routing', '(default true)'],
    ];
    /** The spec 001 rows some defaults cover. */
    const specRows: Record<string, string[]> = {
      'oidc-username-claim': ['001 § OpenID Connect flags › --oidc-username-claim'],
      'oidc-signing-algs': ['001 § OpenID Connect flags › --oidc-signing-algs'],
      'authentication-token-webhook-cache-ttl': ['001 § Webhook token authentication › --authentication-token-webhook-cache-ttl', '001 § Limits › Authentication webhook cache'],
      'authentication-token-webhook-version': ['001 § Webhook token authentication › --authentication-token-webhook-version'],
      'etcd-compaction-interval': ['001 § Limits › Watch history retained', '001 § Limits › Continue token lifetime'],
    };
    for (const [name, text] of defaults) {
      const rows = specRows[name];
      it(`shows --${name} ${text}${rows ? covers(...rows) : ''}`, () => {
        const line = flagLines.find((l) => new RegExp(`^\\s+(-[hv], )?--${name} `).test(l));
        expect(line).to.include(text);
      });
    }

    it('describes the feature gates as upstream: one known feature a line, indented to the description column', () => {
      const lines = help.split('\n');
      const at = lines.findIndex((l) => /^\s+--feature-gates mapStringBool /.test(l));
      const column = /^\s+--feature-gates mapStringBool +/.exec(lines[at]!)![0].length;
      expect(lines[at]!.slice(column)).to.equal('A set of key=value pairs that describe feature gates for alpha/experimental features. Options are:');
      const gates = lines.slice(at + 1, at + 11).map((l) => [l.slice(0, column).trim(), l.slice(column)]);
      expect(gates).to.deep.equal([
        ['', 'APIResponseCompression=true|false (BETA - default=true)'],
        ['', 'APIServerIdentity=true|false (BETA - default=true)'],
        ['', 'AllAlpha=true|false (ALPHA - default=false)'],
        ['', 'AllBeta=true|false (BETA - default=false)'],
        ['', 'CRDValidationRatcheting=true|false (BETA - default=true)'],
        ['', 'ConsistentListFromCache=true|false (ALPHA - default=false)'],
        ['', 'CustomResourceFieldSelectors=true|false (ALPHA - default=false)'],
        ['', 'StorageVersionMigrator=true|false (ALPHA - default=false)'],
        ['', 'StructuredAuthenticationConfiguration=true|false (BETA - default=true)'],
        ['', 'StructuredAuthorizationConfiguration=true|false (BETA - default=true)'],
      ]);
      expect(lines[at + 11]!.slice(column)).to.equal('WatchList=true|false (ALPHA - default=false)');
      expect(lines[at + 12]).to.match(/^\s+--/);
      expect(help).not.to.include('ServerSideApply=');
    });

    it('aligns descriptions in one column', () => {
      const columns = new Set(flagLines.map((l) => /^\s+(-[hv], )?--\S+( \S+)? {3,}/.exec(l)![0].length));
      expect(columns.size).to.equal(1);
    });
  });
});
