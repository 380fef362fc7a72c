import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type JWTAuthentication, type OIDCOptions, buildJWTAuthentication, defaultOIDCOptions } from '../../../lib/authentication/jwt/index.js';
import type { ProviderTiming } from '../../../lib/authentication/jwt/provider.js';
import { TestOIDCProvider, hmacToken, unsignedToken, useOIDCProvider } from '../../framework/oidc-provider.js';
import { rejection } from '../../framework/authentication.js';
import { covers } from '../../conformance/covers.js';

const CLIENT = 'orch-test-client';
const silent = { info: () => undefined, error: () => undefined };

/**
 * JWT authentication against a real HTTPS OpenID provider on loopback (spec 001 § OpenID Connect
 * flags, § Authentication configuration file; issue #10 item 4): discovery and JWKS over TLS with
 * the configured CA, the upstream claim checks and mappings, rejections with upstream's reasons.
 */
describe('OIDC authenticator with a real provider (spec 001 § OpenID Connect flags)', function () {
  this.timeout(30_000);
  const suite = useOIDCProvider('orch-oidc-');
  const built = suite.built;
  let provider: TestOIDCProvider;
  let dir: string;
  let caFile: string;

  before(() => ({ provider, dir, caFile } = suite));

  /** JWT authentication from the OIDC flags against `p`, started and initialised. */
  async function fromFlags(o: Partial<OIDCOptions> = {}, p = provider, timing?: ProviderTiming): Promise<JWTAuthentication> {
    const j = (await buildJWTAuthentication({ oidc: { ...defaultOIDCOptions(), issuerURL: p.issuer, clientID: CLIENT, caFile, flagsSet: true, ...o }, log: silent, timing }))!;
    built.push(j);
    j.start();
    expect(await j.authenticator.authenticators[0]!.provider.waitReady(10_000), 'provider initialised').to.equal(true);
    return j;
  }

  /** JWT authentication from a configuration file with `jwt` as its authenticators. */
  async function fromConfig(jwt: unknown[], timing?: ProviderTiming): Promise<JWTAuthentication> {
    const file = path.join(dir, `authn-${built.length}.json`);
    await writeFile(file, JSON.stringify({ apiVersion: 'apiserver.config.orch.io/v1beta1', kind: 'AuthenticationConfiguration', jwt }));
    const j = (await buildJWTAuthentication({ oidc: defaultOIDCOptions(), authenticationConfig: file, log: silent, timing }))!;
    built.push(j);
    j.start();
    for (const a of j.authenticator.authenticators) expect(await a.provider.waitReady(10_000), 'provider initialised').to.equal(true);
    return j;
  }

  /** The message of the AuthenticationError `promise` rejects with. */

  describe('username, groups, uid and extra from the flags', () => {
    it(`prefixes a non-email username claim with the issuer URL and "#" by default${covers('001 § OpenID Connect flags › --oidc-username-claim', '001 § OpenID Connect flags › --oidc-username-prefix')}`, async () => {
      const j = await fromFlags();
      const res = await j.authenticator.authenticateToken(await provider.sign(provider.claims(CLIENT)));
      expect(res).to.deep.equal({ user: { name: `${provider.issuer}#alice`, groups: [] } });
    });

    it(`does not prefix the email claim, which must be verified when email_verified is present${covers('001 § OpenID Connect flags › --oidc-username-claim')}`, async () => {
      const j = await fromFlags({ usernameClaim: 'email' });
      const ok = await j.authenticator.authenticateToken(await provider.sign(provider.claims(CLIENT, { email: 'a@example.com', email_verified: true })));
      expect(ok!.user.name).to.equal('a@example.com');
      const absent = await j.authenticator.authenticateToken(await provider.sign(provider.claims(CLIENT, { email: 'b@example.com' })));
      expect(absent!.user.name).to.equal('b@example.com');
      const unverified = provider.sign(provider.claims(CLIENT, { email: 'a@example.com', email_verified: false }));
      expect(await rejection(j.authenticator.authenticateToken(await unverified))).to.equal('oidc: email not verified');
    });

    it(`uses the given username prefix, and none with "-"${covers('001 § OpenID Connect flags › --oidc-username-prefix')}`, async () => {
      const prefixed = await fromFlags({ usernamePrefix: 'oidc:' });
      expect((await prefixed.authenticator.authenticateToken(await provider.sign(provider.claims(CLIENT))))!.user.name).to.equal('oidc:alice');
      const bare = await fromFlags({ usernamePrefix: '-' });
      expect((await bare.authenticator.authenticateToken(await provider.sign(provider.claims(CLIENT))))!.user.name).to.equal('alice');
    });

    it(`takes groups from a list or a single string claim, with the groups prefix${covers('001 § OpenID Connect flags › --oidc-groups-claim', '001 § OpenID Connect flags › --oidc-groups-prefix')}`, async () => {
      const j = await fromFlags({ groupsClaim: 'groups', groupsPrefix: 'oidc:' });
      const list = await j.authenticator.authenticateToken(await provider.sign(provider.claims(CLIENT, { groups: ['dev', 'ops'] })));
      expect(list!.user.groups).to.deep.equal(['oidc:dev', 'oidc:ops']);
      const single = await j.authenticator.authenticateToken(await provider.sign(provider.claims(CLIENT, { groups: 'admins' })));
      expect(single!.user.groups).to.deep.equal(['oidc:admins']);
      const none = await j.authenticator.authenticateToken(await provider.sign(provider.claims(CLIENT)));
      expect(none!.user.groups).to.deep.equal([]);
      const bad = provider.sign(provider.claims(CLIENT, { groups: [1, 2] }));
      expect(await rejection(j.authenticator.authenticateToken(await bad))).to.match(/^oidc: parse groups claim "groups": json: cannot unmarshal/);
    });

    it(`requires each --oidc-required-claim with its value${covers('001 § OpenID Connect flags › --oidc-required-claim')}`, async () => {
      const j = await fromFlags({ requiredClaims: { hd: 'example.com' } });
      expect(await j.authenticator.authenticateToken(await provider.sign(provider.claims(CLIENT, { hd: 'example.com' })))).to.have.nested.property('user.name');
      expect(await rejection(j.authenticator.authenticateToken(await provider.sign(provider.claims(CLIENT))))).to.equal('oidc: required claim hd not present in ID token');
      expect(await rejection(j.authenticator.authenticateToken(await provider.sign(provider.claims(CLIENT, { hd: 'evil.com' }))))).to.equal(
        'oidc: required claim hd value does not match. Got = evil.com, want = example.com',
      );
    });

    it(`accepts only the --oidc-signing-algs${covers('001 § OpenID Connect flags › --oidc-signing-algs')}`, async () => {
      const ec = await TestOIDCProvider.start({ alg: 'ES256' });
      try {
        const rsOnly = await fromFlags({}, ec);
        const token = await ec.sign(ec.claims(CLIENT));
        expect(await rejection(rsOnly.authenticator.authenticateToken(token))).to.equal('oidc: verify token: oidc: id token signed with unsupported algorithm, expected ["RS256"] got "ES256"');
        const esToo = await fromFlags({ signingAlgs: ['RS256', 'ES256'] }, ec);
        expect((await esToo.authenticator.authenticateToken(token))!.user.name).to.equal(`${ec.issuer}#alice`);
      } finally {
        await ec.stop();
      }
    });
  });

  describe('rejections (each a 401 for the server)', () => {
    let j: JWTAuthentication;
    before(async () => {
      j = await fromFlags();
    });
    const now = () => Math.floor(Date.now() / 1000);

    it('answers null for a token of another issuer or that is not a JWT', async () => {
      expect(await j.authenticator.authenticateToken(await provider.sign(provider.claims(CLIENT, { iss: 'https://other.example' })))).to.equal(null);
      expect(await j.authenticator.authenticateToken('not-a-jwt')).to.equal(null);
      expect(await j.authenticator.authenticateToken('{"iss":"x"}.a.b')).to.equal(null);
    });

    const cases: Array<[string, () => Promise<string>, string | RegExp]> = [
      ['an expired token', () => provider.sign(provider.claims(CLIENT, { exp: now() - 5 })), /^oidc: verify token: oidc: token is expired \(Token Expiry: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0000 UTC\)$/],
      ['a token without exp', () => provider.sign(provider.claims(CLIENT, { exp: undefined })), /^oidc: verify token: oidc: token is expired/],
      ['a token not valid for more than a minute yet', () => provider.sign(provider.claims(CLIENT, { nbf: now() + 120 })), /^oidc: verify token: oidc: current time .* before the nbf \(not before\) time: /],
      ['another audience', () => provider.sign(provider.claims('someone-else')), 'oidc: verify token: oidc: expected audience "orch-test-client" got ["someone-else"]'],
      ['alg none', async () => unsignedToken(provider.claims(CLIENT)), 'oidc: verify token: oidc: id token signed with unsupported algorithm, expected ["RS256"] got "none"'],
      ['HS256 (keyed with the public key id)', () => hmacToken(provider.claims(CLIENT), 'secret', provider.keys[0]!.kid), 'oidc: verify token: oidc: id token signed with unsupported algorithm, expected ["RS256"] got "HS256"'],
      ['an unknown key id', () => provider.sign(provider.claims(CLIENT), { header: { kid: 'nobody' } }), 'oidc: verify token: failed to verify signature: failed to verify id token signature'],
      [
        'a bad signature',
        async () => {
          const [h, p] = (await provider.sign(provider.claims(CLIENT))).split('.');
          const other = await provider.sign(provider.claims(CLIENT, { sub: 'mallory' }));
          return `${h}.${p}.${other.split('.')[2]}`;
        },
        'oidc: verify token: failed to verify signature: failed to verify id token signature',
      ],
      ['a tampered payload', async () => {
        const [h, , s] = (await provider.sign(provider.claims(CLIENT))).split('.');
        return `${h}.${Buffer.from(JSON.stringify(provider.claims(CLIENT, { sub: 'root' }))).toString('base64url')}.${s}`;
      }, 'oidc: verify token: failed to verify signature: failed to verify id token signature'],
      ['a missing username claim', () => provider.sign(provider.claims(CLIENT, { sub: undefined })), 'oidc: parse username claims "sub": claim not present'],
      ['a non-string exp', () => provider.sign(provider.claims(CLIENT, { exp: 'tomorrow' })), /^oidc: verify token: oidc: failed to unmarshal claims: json: cannot unmarshal string/],
      ['a huge token', () => provider.sign(provider.claims(CLIENT, { padding: 'x'.repeat(200_000) }), { header: { kid: 'nobody' } }), 'oidc: verify token: failed to verify signature: failed to verify id token signature'],
    ];
    for (const [title, token, message] of cases) {
      it(`rejects ${title}`, async () => {
        const m = await rejection(j.authenticator.authenticateToken(await token()));
        if (typeof message === 'string') expect(m).to.equal(message);
        else expect(m).to.match(message);
      });
    }

    it('accepts a token whose nbf is less than a minute ahead (upstream leeway)', async () => {
      expect(await j.authenticator.authenticateToken(await provider.sign(provider.claims(CLIENT, { nbf: now() + 30 })))).to.have.nested.property('user.name');
    });
  });

  describe('provider discovery and keys', () => {
    it('answers "not initialized" until discovery succeeds, retrying in the background', async () => {
      const late = await TestOIDCProvider.start();
      late.available = false;
      try {
        const j = (await buildJWTAuthentication({
          oidc: { ...defaultOIDCOptions(), issuerURL: late.issuer, clientID: CLIENT, caFile: await writeCA(late), flagsSet: true },
          log: silent,
          timing: { initRetryMs: 100 },
        }))!;
        built.push(j);
        j.start();
        const token = await late.sign(late.claims(CLIENT));
        expect(await rejection(j.authenticator.authenticateToken(token))).to.equal('oidc: authenticator not initialized');
        late.available = true;
        expect(await j.authenticator.authenticators[0]!.provider.waitReady(5000)).to.equal(true);
        expect(await j.authenticator.authenticateToken(token)).to.have.nested.property('user.name', `${late.issuer}#alice`);
      } finally {
        await late.stop();
      }
    });

    it(`never initialises when the discovery document names another issuer${covers('001 § OpenID Connect flags › --oidc-issuer-url (required)')}`, async () => {
      const liar = await TestOIDCProvider.start();
      liar.discoveryIssuer = 'https://someone.else';
      const errors: Error[] = [];
      try {
        const j = (await buildJWTAuthentication({
          oidc: { ...defaultOIDCOptions(), issuerURL: liar.issuer, clientID: CLIENT, caFile: await writeCA(liar), flagsSet: true },
          log: { info: () => undefined, error: (o) => errors.push((o as { err: Error }).err) },
          timing: { initRetryMs: 100 },
        }))!;
        built.push(j);
        j.start();
        expect(await j.authenticator.authenticators[0]!.provider.waitReady(500)).to.equal(false);
        expect(errors[0]?.message).to.equal(`oidc: issuer did not match the issuer returned by provider, expected ${JSON.stringify(liar.issuer)} got "https://someone.else"`);
      } finally {
        await liar.stop();
      }
    });

    it(`never initialises when the provider certificate is not signed by the configured CA${covers('001 § OpenID Connect flags › --oidc-ca-file')}`, async () => {
      const dir2 = await mkdtemp(path.join(os.tmpdir(), 'orch-oidc-ca-'));
      try {
        const wrongCA = path.join(dir2, 'ca.crt');
        const { pki } = await import('../../framework/test-server.js').then((m) => m.usePKI());
        await writeFile(wrongCA, pki.caCertPem);
        const j = (await buildJWTAuthentication({ oidc: { ...defaultOIDCOptions(), issuerURL: provider.issuer, clientID: CLIENT, caFile: wrongCA, flagsSet: true }, log: silent }))!;
        built.push(j);
        j.start();
        expect(await j.authenticator.authenticators[0]!.provider.waitReady(1000)).to.equal(false);
        expect(j.authenticator.authenticators[0]!.provider.notReadyReason?.message).to.match(/certificate/);
      } finally {
        await rm(dir2, { recursive: true, force: true });
      }
    });

    it('picks up a rotated key with the background refresh, and drops a removed one', async () => {
      const rotating = await TestOIDCProvider.start();
      try {
        const j = await fromFlags({ caFile: await writeCA(rotating) }, rotating, { refreshIntervalMs: 200, minRefreshIntervalMs: 60_000 });
        const old = rotating.keys[0]!;
        const fresh = await rotating.addKey('RS256');
        const token = await rotating.sign(rotating.claims(CLIENT), { key: fresh });
        await waitFor(async () => (await j.authenticator.authenticateToken(token).catch(() => null)) !== null);
        rotating.removeKey(old);
        const oldToken = await rotating.sign(rotating.claims(CLIENT), { key: old });
        await waitFor(async () => (await j.authenticator.authenticateToken(oldToken).catch((e: Error) => e)) instanceof Error);
      } finally {
        await rotating.stop();
      }
    });

    it('refreshes early, in the background and rate-limited, when a token names an unknown key', async () => {
      const rotating = await TestOIDCProvider.start();
      try {
        const j = await fromFlags({ caFile: await writeCA(rotating) }, rotating, { refreshIntervalMs: 3_600_000, minRefreshIntervalMs: 300 });
        await sleep(350);
        const fresh = await rotating.addKey('RS256');
        const token = await rotating.sign(rotating.claims(CLIENT), { key: fresh });
        const before = rotating.served.jwks;
        // The request that meets the unknown key is answered at once (401), never waiting for the fetch.
        expect(await rejection(j.authenticator.authenticateToken(token))).to.equal('oidc: verify token: failed to verify signature: failed to verify id token signature');
        await waitFor(async () => (await j.authenticator.authenticateToken(token).catch(() => null)) !== null);
        expect(rotating.served.jwks - before).to.equal(1);
        // A burst of unknown keys within the interval fetches nothing more.
        for (let i = 0; i < 20; i++) await rejection(j.authenticator.authenticateToken(await rotating.sign(rotating.claims(CLIENT), { header: { kid: `k${i}` } })));
        await sleep(50);
        expect(rotating.served.jwks - before).to.be.at.most(2);
      } finally {
        await rotating.stop();
      }
    });

    it(`fetches discovery from issuer.discoveryURL and still requires its issuer to be the issuer URL${covers('001 § Authentication configuration file (beta, v1.30) › issuer.discoveryURL', '001 § Authentication configuration file (beta, v1.30) › issuer.certificateAuthority')}`, async () => {
      const custom = await TestOIDCProvider.start({ issuerPath: '/tenant', discoveryPath: '/internal/discovery', wellKnown: false });
      try {
        const j = await fromConfig([
          {
            issuer: { url: custom.issuer, discoveryURL: `${custom.origin}/internal/discovery`, certificateAuthority: custom.caPem, audiences: [CLIENT] },
            claimMappings: { username: { claim: 'sub', prefix: '' } },
          },
        ]);
        expect(custom.served.discovery).to.equal(1);
        expect((await j.authenticator.authenticateToken(await custom.sign(custom.claims(CLIENT))))!.user.name).to.equal('alice');
      } finally {
        await custom.stop();
      }
    });
  });

  describe('the authentication configuration file', () => {
    const issuer = () => ({ url: provider.issuer, certificateAuthority: provider.caPem, audiences: [CLIENT] });

    it(`accepts any of several audiences with audienceMatchPolicy MatchAny${covers('001 § Authentication configuration file (beta, v1.30) › issuer.audiences', '001 § Authentication configuration file (beta, v1.30) › issuer.audienceMatchPolicy')}`, async () => {
      const j = await fromConfig([{ issuer: { ...issuer(), audiences: ['a', 'b'], audienceMatchPolicy: 'MatchAny' }, claimMappings: { username: { claim: 'sub', prefix: '' } } }]);
      expect((await j.authenticator.authenticateToken(await provider.sign(provider.claims(['x', 'b']))))!.user.name).to.equal('alice');
      expect(await rejection(j.authenticator.authenticateToken(await provider.sign(provider.claims(['x', 'y']))))).to.equal(
        'oidc: verify token: oidc: expected audience in ["a" "b"] got ["x" "y"]',
      );
    });

    it(`maps username, groups, uid and extra with expressions${covers('001 § Authentication configuration file (beta, v1.30) › claimMappings.username', '001 § Authentication configuration file (beta, v1.30) › claimMappings.groups', '001 § Authentication configuration file (beta, v1.30) › claimMappings.uid', '001 § Authentication configuration file (beta, v1.30) › claimMappings.extra[]')}`, async () => {
      const j = await fromConfig([
        {
          issuer: issuer(),
          claimMappings: {
            username: { expression: "'oidc:' + claims.sub" },
            groups: { expression: "claims.roles.map(r, 'role:' + r)" },
            uid: { expression: 'claims.oid' },
            extra: [
              { key: 'example.com/tenant', valueExpression: 'claims.tenant' },
              { key: 'example.com/empty', valueExpression: "''" },
              { key: 'example.com/scopes', valueExpression: "claims.scp.split(' ')" },
            ],
          },
        },
      ]);
      const res = await j.authenticator.authenticateToken(await provider.sign(provider.claims(CLIENT, { roles: ['dev', ''], oid: 'u-1', tenant: 't1', scp: 'read write' })));
      expect(res).to.deep.equal({
        user: { name: 'oidc:alice', uid: 'u-1', groups: ['role:dev', 'role:'], extra: { 'example.com/tenant': ['t1'], 'example.com/scopes': ['read', 'write'] } },
      });
    });

    it(`maps uid from a claim and requires it${covers('001 § Authentication configuration file (beta, v1.30) › claimMappings.uid')}`, async () => {
      const j = await fromConfig([{ issuer: issuer(), claimMappings: { username: { claim: 'sub', prefix: '' }, uid: { claim: 'oid' } } }]);
      expect((await j.authenticator.authenticateToken(await provider.sign(provider.claims(CLIENT, { oid: 'u-2' }))))!.user.uid).to.equal('u-2');
      expect(await rejection(j.authenticator.authenticateToken(await provider.sign(provider.claims(CLIENT))))).to.equal('oidc: parse uid claim "oid": claim not present');
    });

    it(`rejects a username expression that is empty, not a string, or fails${covers('001 § Authentication configuration file (beta, v1.30) › claimMappings.username')}`, async () => {
      const j = await fromConfig([{ issuer: issuer(), claimMappings: { username: { expression: 'claims.name' } } }]);
      expect(await rejection(j.authenticator.authenticateToken(await provider.sign(provider.claims(CLIENT, { name: '' }))))).to.equal('oidc: empty username via CEL expression is not allowed');
      expect(await rejection(j.authenticator.authenticateToken(await provider.sign(provider.claims(CLIENT, { name: 7 }))))).to.equal(
        'oidc: error evaluating username claim expression: username claim expression must return a string',
      );
      expect(await rejection(j.authenticator.authenticateToken(await provider.sign(provider.claims(CLIENT)))))
        .to.match(/^oidc: error evaluating username claim expression: expression 'claims.name' resulted in error: /);
    });

    it(`applies claim validation rules (required values and expressions) and user validation rules${covers('001 § Authentication configuration file (beta, v1.30) › claimValidationRules[]', '001 § Authentication configuration file (beta, v1.30) › userValidationRules[]')}`, async () => {
      const j = await fromConfig([
        {
          issuer: issuer(),
          claimValidationRules: [
            { claim: 'hd', requiredValue: 'example.com' },
            { expression: "claims.level >= 2", message: 'level too low' },
          ],
          claimMappings: { username: { claim: 'sub', prefix: '' } },
          userValidationRules: [{ expression: "!user.username.startsWith('system:')", message: 'username cannot use reserved system: prefix' }],
        },
      ]);
      const ok = await j.authenticator.authenticateToken(await provider.sign(provider.claims(CLIENT, { hd: 'example.com', level: 3 })));
      expect(ok!.user.name).to.equal('alice');
      expect(await rejection(j.authenticator.authenticateToken(await provider.sign(provider.claims(CLIENT, { hd: 'example.com', level: 1 }))))).to.equal(
        "oidc: error evaluating claim validation expression: validation expression 'claims.level >= 2' failed: level too low",
      );
      expect(await rejection(j.authenticator.authenticateToken(await provider.sign(provider.claims(CLIENT, { level: 3 }))))).to.equal('oidc: required claim hd not present in ID token');
      const system = provider.sign(provider.claims(CLIENT, { hd: 'example.com', level: 3, sub: 'system:admin' }));
      expect(await rejection(j.authenticator.authenticateToken(await system))).to.equal(
        "oidc: error evaluating user info validation rule: validation expression '!user.username.startsWith('system:')' failed: username cannot use reserved system: prefix",
      );
    });

    it(`accepts the email claim in an expression guarded by email_verified${covers('001 § Authentication configuration file (beta, v1.30) › claimMappings.username')}`, async () => {
      const j = await fromConfig([{ issuer: issuer(), claimMappings: { username: { expression: "claims.?email_verified.orValue(false) ? claims.email : 'unverified:' + claims.sub" } } }]);
      expect((await j.authenticator.authenticateToken(await provider.sign(provider.claims(CLIENT, { email: 'a@x', email_verified: true }))))!.user.name).to.equal('a@x');
      expect((await j.authenticator.authenticateToken(await provider.sign(provider.claims(CLIENT, { email: 'a@x', email_verified: false }))))!.user.name).to.equal('unverified:alice');
    });

    it(`serves several issuers, each with its own rules${covers('001 § Authentication configuration file (beta, v1.30) › issuer.url')}`, async () => {
      const second = await TestOIDCProvider.start({ issuerPath: '/second' });
      try {
        const j = await fromConfig([
          { issuer: issuer(), claimMappings: { username: { claim: 'sub', prefix: 'one:' } } },
          { issuer: { url: second.issuer, certificateAuthority: second.caPem, audiences: ['other'] }, claimMappings: { username: { claim: 'sub', prefix: 'two:' } } },
        ]);
        expect((await j.authenticator.authenticateToken(await provider.sign(provider.claims(CLIENT))))!.user.name).to.equal('one:alice');
        expect((await j.authenticator.authenticateToken(await second.sign(second.claims('other'))))!.user.name).to.equal('two:alice');
        // A token of the second issuer signed with the first's key does not verify.
        const forged = await provider.sign(second.claims('other'));
        expect(await rejection(j.authenticator.authenticateToken(forged))).to.equal('oidc: verify token: failed to verify signature: failed to verify id token signature');
      } finally {
        await second.stop();
      }
    });
  });

  async function writeCA(p: TestOIDCProvider): Promise<string> {
    const file = path.join(dir, `ca-${p.origin.split(':').pop()}.crt`);
    await writeFile(file, p.caPem);
    return file;
  }
});

/** Polls `cond` every 50 ms for up to 5 s. */
async function waitFor(cond: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await cond()) return;
    await sleep(50);
  }
  throw new Error('condition not met within 5s');
}
