import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { APISERVER_CONFIG_GROUP, DEFAULT_SERVICE_ACCOUNT_ISSUER, SERVER_NAME, vendorGroup } from '../../../lib/apis/vendor.js';
import { defaultOIDCOptions } from '../../../lib/authentication/jwt/oidc-flags.js';
import { useEtcd } from '../../framework/etcd.js';
import { TestOIDCProvider, hmacToken, unsignedToken } from '../../framework/oidc-provider.js';
import { type TestServer, startTestServer } from '../../framework/test-server.js';
import { commandArgv } from '../../framework/server-process.js';
import { covers } from '../../conformance/covers.js';

const CLIENT = 'orch-apiserver';
const AUTHN = `/apis/${vendorGroup('authentication')}/v1`;
const RELOADS = 'apiserver_authentication_config_controller_automatic_reloads_total';
const RELOAD_TIME = 'apiserver_authentication_config_controller_automatic_reload_last_timestamp_seconds';

/** The user a token authenticates as (SelfSubjectReview), or the status it is refused with. */
async function whoami(s: TestServer, token: string): Promise<{ status: number; user?: Record<string, unknown>; body: Record<string, unknown> }> {
  const res = await s.admin.post(`${AUTHN}/selfsubjectreviews`, { apiVersion: `${vendorGroup('authentication')}/v1`, kind: 'SelfSubjectReview' }, { creds: { token } });
  return { status: res.status, user: res.body?.status?.userInfo, body: res.body };
}

/** Asserts `token` is refused with upstream's 401 Status. */
async function expectUnauthorized(s: TestServer, token: string): Promise<void> {
  const res = await s.admin.get('/api/v1/namespaces', { creds: { token } });
  expect(res.status, res.text).to.equal(401);
  expect(res.body).to.include({ kind: 'Status', status: 'Failure', reason: 'Unauthorized', message: 'Unauthorized', code: 401 });
}

/** The samples of `metric` on `/metrics`, by their label text. */
async function samples(s: TestServer, metric: string): Promise<Map<string, number>> {
  const res = await s.admin.get('/metrics');
  expect(res.status).to.equal(200);
  const out = new Map<string, number>();
  for (const line of res.text.split('\n')) {
    const m = new RegExp(`^${metric}\\{(.*)\\} (\\S+)$`).exec(line);
    if (m) out.set(m[1]!, Number(m[2]));
  }
  return out;
}

/** The value of the sample of `metric` whose labels include `status="<status>"` (0 when absent). */
async function sample(s: TestServer, metric: string, status: string): Promise<number> {
  for (const [labels, v] of await samples(s, metric)) if (labels.includes(`status="${status}"`)) return v;
  return 0;
}

/** Polls `cond` every 100 ms for up to `ms`. */
async function eventually(cond: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await sleep(100);
  }
}

/**
 * OpenID Connect and the authentication configuration file on the real server, with a real HTTPS
 * provider on loopback (spec 001 § OpenID Connect flags, § Authentication configuration file;
 * issue #10 item 4).
 */
describe('OpenID Connect on the server (spec 001 § OpenID Connect flags)', function () {
  this.timeout(60_000);
  let provider: TestOIDCProvider;
  let server: TestServer;
  let dir: string;

  before(async () => {
    provider = await TestOIDCProvider.start();
    dir = await mkdtemp(path.join(os.tmpdir(), 'orch-oidc-server-'));
    const caFile = path.join(dir, 'idp-ca.crt');
    await writeFile(caFile, provider.caPem);
    server = await startTestServer({
      authentication: {
        oidc: { ...defaultOIDCOptions(), issuerURL: provider.issuer, clientID: CLIENT, caFile, groupsClaim: 'groups', groupsPrefix: 'oidc:', flagsSet: true },
      },
    });
    // Discovery runs in the background; requests are refused until it succeeds.
    await eventually(async () => (await whoami(server, await provider.sign(provider.claims(CLIENT)))).status === 201);
  });
  after(async () => {
    await server?.stop();
    await provider?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it(`authenticates an ID token as <issuer>#<sub> with the prefixed groups and system:authenticated${covers('001 § Methods › OpenID Connect')}`, async () => {
    const token = await provider.sign(provider.claims(CLIENT, { groups: ['dev', 'ops'] }));
    const who = await whoami(server, token);
    expect(who.status, JSON.stringify(who.body)).to.equal(201);
    expect(who.user).to.deep.equal({ username: `${provider.issuer}#alice`, groups: ['oidc:dev', 'oidc:ops', 'system:authenticated'] });
  });

  it(`does not let a token claim system:masters through the groups prefix${covers('001 § OpenID Connect flags › --oidc-groups-prefix')}`, async () => {
    const token = await provider.sign(provider.claims(CLIENT, { groups: ['system:masters'] }));
    const res = await server.admin.get('/api/v1/namespaces', { creds: { token } });
    expect(res.status).to.equal(403);
    expect(res.body.message).to.equal(`namespaces is forbidden: User "${provider.issuer}#alice" cannot list resource "namespaces" in API group "" at the cluster scope`);
  });

  describe('answers 401 with a Status for every bad token', () => {
    const now = () => Math.floor(Date.now() / 1000);
    const cases: Array<[string, () => Promise<string>]> = [
      ['expired', () => provider.sign(provider.claims(CLIENT, { exp: now() - 10 }))],
      ['not valid before a time two minutes ahead', () => provider.sign(provider.claims(CLIENT, { nbf: now() + 120 }))],
      ['issued to another audience', () => provider.sign(provider.claims('another-client'))],
      ['issued by another issuer', () => provider.sign(provider.claims(CLIENT, { iss: 'https://evil.example' }))],
      ['alg none', async () => unsignedToken(provider.claims(CLIENT))],
      ['HS256', () => hmacToken(provider.claims(CLIENT), 'secret', provider.keys[0]!.kid)],
      ['signed with an unknown key', () => provider.sign(provider.claims(CLIENT), { header: { kid: 'unknown' } })],
      [
        'with a bad signature',
        async () => {
          const [h, p] = (await provider.sign(provider.claims(CLIENT))).split('.');
          return `${h}.${p}.${(await provider.sign(provider.claims(CLIENT, { sub: 'x' }))).split('.')[2]}`;
        },
      ],
      ['without the username claim', () => provider.sign(provider.claims(CLIENT, { sub: undefined }))],
      ['with groups that are not strings', () => provider.sign(provider.claims(CLIENT, { groups: { a: 1 } }))],
      ['huge (12 KiB)', () => provider.sign(provider.claims(CLIENT, { padding: 'x'.repeat(12 * 1024) }), { header: { kid: 'unknown' } })],
      ['malformed', async () => `${(await provider.sign(provider.claims(CLIENT))).slice(0, -10)}!!!`],
    ];
    /** The spec 001 rows some cases cover beyond the 401 itself. */
    const specRows: Record<string, string[]> = {
      'issued to another audience': ['001 § OpenID Connect flags › --oidc-client-id (required)'],
      'with groups that are not strings': ['001 § OpenID Connect flags › --oidc-groups-claim'],
    };
    for (const [title, token] of cases) {
      it(`${title}${covers('001 § Errors › 401 Unauthorized', ...(specRows[title] ?? []))}`, async () => {
        await expectUnauthorized(server, await token());
      });
    }
  });
});

describe('the authentication configuration file on the server (spec 001 § Authentication configuration file)', function () {
  this.timeout(60_000);
  let provider: TestOIDCProvider;
  let server: TestServer;
  let dir: string;
  let file: string;

  /** An AuthenticationConfiguration (YAML) for the provider whose claim rule requires `tier`. */
  function configYAML(tier: string, issuerURL = provider.issuer): string {
    const ca = provider.caPem.trim().split('\n').map((l) => `      ${l}`).join('\n');
    return `apiVersion: ${APISERVER_CONFIG_GROUP}/v1beta1
kind: AuthenticationConfiguration
jwt:
- issuer:
    url: ${issuerURL}
    audiences: [${CLIENT}, other]
    audienceMatchPolicy: MatchAny
    certificateAuthority: |
${ca}
  claimValidationRules:
  - expression: "claims.tier == '${tier}'"
    message: tier must be ${tier}
  claimMappings:
    username:
      claim: email
      prefix: ""
    groups:
      claim: groups
      prefix: ""
    uid:
      claim: oid
    extra:
    - key: example.com/tenant
      valueExpression: claims.tenant
  userValidationRules:
  - expression: "!user.username.startsWith('system:')"
    message: username cannot use the reserved system prefix
`;
  }

  const claims = (extra: Record<string, unknown> = {}) => provider.claims(CLIENT, { email: 'alice@example.com', email_verified: true, oid: 'u-1', tenant: 'acme', groups: ['dev'], tier: 'gold', ...extra });

  before(async () => {
    provider = await TestOIDCProvider.start();
    dir = await mkdtemp(path.join(os.tmpdir(), 'orch-authn-config-'));
    file = path.join(dir, 'authentication-config.yaml');
    await writeFile(file, configYAML('gold'));
    server = await startTestServer({ authentication: { authenticationConfig: file } });
    await eventually(async () => (await whoami(server, await provider.sign(claims()))).status === 201);
  });
  after(async () => {
    await server?.stop();
    await provider?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it(`maps username, uid, groups and extra as configured${covers('001 § Authentication configuration file (beta, v1.30) › claimMappings.username', '001 § Authentication configuration file (beta, v1.30) › claimMappings.groups', '001 § Authentication configuration file (beta, v1.30) › claimMappings.uid', '001 § Authentication configuration file (beta, v1.30) › claimMappings.extra[]')}`, async () => {
    const who = await whoami(server, await provider.sign(claims()));
    expect(who.status, JSON.stringify(who.body)).to.equal(201);
    expect(who.user).to.deep.equal({ username: 'alice@example.com', uid: 'u-1', groups: ['dev', 'system:authenticated'], extra: { 'example.com/tenant': ['acme'] } });
  });

  it(`accepts the second audience (audienceMatchPolicy MatchAny)${covers('001 § Authentication configuration file (beta, v1.30) › issuer.audiences', '001 § Authentication configuration file (beta, v1.30) › issuer.audienceMatchPolicy')}`, async () => {
    expect((await whoami(server, await provider.sign(provider.claims('other', { email: 'b@example.com', oid: 'u-2', tenant: 'acme', tier: 'gold' })))).status).to.equal(201);
  });

  it(`refuses an email that is not verified (401)${covers('001 § Authentication configuration file (beta, v1.30) › claimMappings.username', '001 § Errors › 401 Unauthorized')}`, async () => {
    await expectUnauthorized(server, await provider.sign(claims({ email_verified: false })));
  });

  it(`refuses a token failing a claim validation rule (401)${covers('001 § Authentication configuration file (beta, v1.30) › claimValidationRules[]', '001 § Errors › 401 Unauthorized')}`, async () => {
    await expectUnauthorized(server, await provider.sign(claims({ tier: 'bronze' })));
  });

  it(`refuses a user failing a user validation rule (401)${covers('001 § Authentication configuration file (beta, v1.30) › userValidationRules[]', '001 § Errors › 401 Unauthorized')}`, async () => {
    await expectUnauthorized(server, await provider.sign(claims({ email: 'system:admin' })));
  });

  it(`refuses a token without the uid claim (401)${covers('001 § Authentication configuration file (beta, v1.30) › claimMappings.uid', '001 § Errors › 401 Unauthorized')}`, async () => {
    await expectUnauthorized(server, await provider.sign(claims({ oid: undefined })));
  });

  it('reloads a changed file without restart, keeps the old one when the new one is invalid, and reports both', async () => {
    expect(await sample(server, RELOADS, 'success')).to.equal(0);
    await writeFile(file, configYAML('silver'));
    await eventually(async () => (await whoami(server, await provider.sign(claims({ tier: 'silver' })))).status === 201);
    await expectUnauthorized(server, await provider.sign(claims({ tier: 'gold' })));
    await eventually(async () => (await sample(server, RELOADS, 'success')) === 1);
    const reloadedAt = await sample(server, RELOAD_TIME, 'success');
    expect(reloadedAt).to.be.closeTo(Date.now() / 1000, 30);
    const labels = [...(await samples(server, RELOADS)).keys()];
    expect(labels[0]).to.match(/^apiserver_id_hash="sha256:[0-9a-f]{64}",status="success"$/);

    // An invalid file (http issuer) is reported and the silver rules stay.
    await writeFile(file, configYAML('platinum', provider.issuer.replace('https:', 'http:')));
    await eventually(async () => (await sample(server, RELOADS, 'failure')) >= 1);
    expect((await whoami(server, await provider.sign(claims({ tier: 'silver' })))).status).to.equal(201);
    await expectUnauthorized(server, await provider.sign(claims({ tier: 'platinum' })));
    expect(await sample(server, RELOAD_TIME, 'failure')).to.be.greaterThan(0);

    // A file that does not even decode is reported too; fixing it reloads again.
    const failures = await sample(server, RELOADS, 'failure');
    await writeFile(file, 'apiVersion: [');
    await eventually(async () => (await sample(server, RELOADS, 'failure')) > failures);
    await writeFile(file, configYAML('gold'));
    await eventually(async () => (await sample(server, RELOADS, 'success')) === 2);
    expect((await whoami(server, await provider.sign(claims({ tier: 'gold' })))).status).to.equal(201);
  });
});

describe('authentication configuration start-up errors (spec 001 § Authentication configuration file)', function () {
  this.timeout(60_000);
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'orch-authn-startup-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Runs the server command; resolves with its exit code and stderr once it exits (or kills it after 40 s). */
  async function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
    const { endpoint } = await useEtcd();
    const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..');
    const child = spawn(process.execPath, [...commandArgv(), `--etcd-servers=${endpoint}`, `--etcd-prefix=/startup-${Date.now()}`, `--data-dir=${dir}`, '--secure-port=0', '--workers=1', ...args], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    clearTimeout(timer);
    return { code, stderr };
  }

  it(`stops with a clear message when the file does not validate${covers('001 § Authentication configuration file (beta, v1.30) › issuer.url')}`, async () => {
    const file = path.join(dir, 'invalid.yaml');
    await writeFile(file, `apiVersion: ${APISERVER_CONFIG_GROUP}/v1beta1\nkind: AuthenticationConfiguration\njwt:\n- issuer:\n    url: ${DEFAULT_SERVICE_ACCOUNT_ISSUER}\n    audiences: [a]\n  claimMappings:\n    username:\n      claim: sub\n`);
    const { code, stderr } = await run([`--authentication-config=${file}`]);
    expect(code).to.equal(1);
    expect(stderr).to.include(
      `${SERVER_NAME}: invalid authentication configuration: [jwt[0].issuer.url: Invalid value: "${DEFAULT_SERVICE_ACCOUNT_ISSUER}": URL must not overlap with disallowed issuers: [${DEFAULT_SERVICE_ACCOUNT_ISSUER}], jwt[0].claimMappings.username.prefix: Required value: prefix is required when claim is set. It can be set to an empty string to disable prefixing]`,
    );
  });

  it('stops with a clear message when the file cannot be read', async () => {
    const missing = path.join(dir, 'missing.yaml');
    const { code, stderr } = await run([`--authentication-config=${missing}`]);
    expect(code).to.equal(1);
    expect(stderr).to.include(`${SERVER_NAME}: failed to load authentication configuration from file ${JSON.stringify(missing)}: ENOENT`);
  });

  it('refuses the file together with OIDC flags', async () => {
    const { code, stderr } = await run(['--authentication-config=/x.yaml', '--oidc-issuer-url=https://idp.example', '--oidc-client-id=app']);
    expect(code).to.equal(1);
    expect(stderr).to.include('Error: authentication-config file and oidc-* flags are mutually exclusive');
  });

  it(`stops when the OIDC issuer URL is not https${covers('001 § OpenID Connect flags › --oidc-issuer-url (required)')}`, async () => {
    const { code, stderr } = await run(['--oidc-issuer-url=http://idp.example', '--oidc-client-id=app']);
    expect(code).to.equal(1);
    expect(stderr).to.include(`${SERVER_NAME}: invalid authentication configuration: jwt[0].issuer.url: Invalid value: "http://idp.example": URL scheme must be https`);
  });
});
