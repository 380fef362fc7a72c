/**
 * Service-account tokens against a real server over HTTPS and the run's etcd (spec 001 § Methods,
 * "Service account token"; issue #10 items 2 and 9): TokenRequest, verification with RSA and
 * ECDSA keys of several issuers and rotated keys, every rejection as a 401 Status, lookups of the
 * service account and of the bound Pod or Secret, legacy Secret-based tokens, issuer discovery
 * verified the way an outside system does, and tokens surviving a restart.
 */
import { expect } from 'chai';
import { type KeyObject, createPublicKey, generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CompactSign, createLocalJWKSet, jwtVerify } from 'jose';
import {
  LEGACY_SERVICE_ACCOUNT_ISSUER,
  LEGACY_TOKEN_INVALID_SINCE_LABEL,
  LEGACY_TOKEN_LAST_USED_LABEL,
  SERVICE_ACCOUNT_PRIVATE_CLAIM,
  authenticationKey,
  legacyServiceAccountClaim,
  vendorGroup,
} from '../../../lib/apis/vendor.js';
import { keyIdOf } from '../../../lib/authentication/serviceaccount/keys.js';
import type { AuthenticationOptions } from '../../../lib/server/options/authentication-options.js';
import type { TestClient } from '../../framework/client.js';
import { type TestServer, startTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

const AUTHN = `/apis/${vendorGroup('authentication')}/v1`;
const ISSUER = 'https://issuer-one.example';
const SECOND_ISSUER = 'https://issuer-two.example';
const NS = 'default';

/** The test's keys: the signing RSA key, an ECDSA key and a retired RSA key whose public half is still trusted. */
interface Keys {
  dir: string;
  rsa: KeyObject;
  ec: KeyObject;
  old: KeyObject;
  files: { rsaPrivate: string; rsaPublic: string; ecPrivate: string; ecPublic: string; oldPublic: string };
}

async function makeKeys(): Promise<Keys> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'orch-sa-keys-'));
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  const old = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const pem = (k: KeyObject) => (k.type === 'private' ? (k.export({ type: 'pkcs8', format: 'pem' }) as string) : (k.export({ type: 'spki', format: 'pem' }) as string));
  const files = {
    rsaPrivate: path.join(dir, 'sa.key'),
    rsaPublic: path.join(dir, 'sa.pub'),
    ecPrivate: path.join(dir, 'ec.key'),
    ecPublic: path.join(dir, 'ec.pub'),
    oldPublic: path.join(dir, 'old.pub'),
  };
  await writeFile(files.rsaPrivate, pem(rsa));
  // A PKCS#1 RSA public key, as `openssl rsa -RSAPublicKey_out` writes it.
  await writeFile(files.rsaPublic, createPublicKey(rsa).export({ type: 'pkcs1', format: 'pem' }) as string);
  await writeFile(files.ecPrivate, ec.export({ type: 'sec1', format: 'pem' }) as string);
  await writeFile(files.ecPublic, pem(createPublicKey(ec)));
  await writeFile(files.oldPublic, pem(createPublicKey(old)));
  return { dir, rsa, ec, old, files };
}

/** Decodes the header and payload of a compact JWS. */
function decode(token: string): { header: Record<string, unknown>; payload: Record<string, unknown>; payloadText: string } {
  const [h, p] = token.split('.') as [string, string];
  const payloadText = Buffer.from(p, 'base64url').toString('utf8');
  return { header: JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as Record<string, unknown>, payload: JSON.parse(payloadText) as Record<string, unknown>, payloadText };
}

/** Signs `payload` as a compact JWS with `key` (the header as given). */
async function sign(key: KeyObject | Uint8Array, header: { alg: string; kid?: string }, payload: Record<string, unknown>): Promise<string> {
  return new CompactSign(new TextEncoder().encode(JSON.stringify(payload))).setProtectedHeader(header).sign(key);
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The claims of a bound token for `sa` (a stored ServiceAccount), with overrides. */
function claimsFor(sa: { metadata: { name: string; namespace: string; uid: string } }, over: Record<string, unknown> = {}): Record<string, unknown> {
  const now = nowSeconds();
  return {
    aud: [ISSUER],
    exp: now + 600,
    iat: now,
    iss: ISSUER,
    jti: randomUUID(),
    nbf: now,
    [SERVICE_ACCOUNT_PRIVATE_CLAIM]: { namespace: sa.metadata.namespace, serviceaccount: { name: sa.metadata.name, uid: sa.metadata.uid } },
    sub: `system:serviceaccount:${sa.metadata.namespace}:${sa.metadata.name}`,
    ...over,
  };
}

/** Creates a ServiceAccount and returns it. */
async function createSA(admin: TestClient, name: string): Promise<{ metadata: { name: string; namespace: string; uid: string } }> {
  const res = await admin.post(`/api/v1/namespaces/${NS}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } });
  expect(res.status, res.text).to.equal(201);
  return res.body;
}

/** POSTs a TokenRequest for service account `name`. */
function requestToken(admin: TestClient, name: string, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) {
  return admin.post(`/api/v1/namespaces/${NS}/serviceaccounts/${name}/token`, { apiVersion: `${vendorGroup('authentication')}/v1`, kind: 'TokenRequest', metadata, spec });
}

/** A token for `name`, asserting the TokenRequest succeeds. */
async function tokenFor(admin: TestClient, name: string, spec: Record<string, unknown> = {}): Promise<string> {
  const res = await requestToken(admin, name, spec);
  expect(res.status, res.text).to.equal(201);
  return res.body.status.token as string;
}

/** The user a token authenticates as (SelfSubjectReview), or the failed response. */
async function whoami(s: TestServer, token: string): Promise<{ status: number; user?: Record<string, unknown>; body: Record<string, unknown> }> {
  const res = await s.admin.post(`${AUTHN}/selfsubjectreviews`, { apiVersion: `${vendorGroup('authentication')}/v1`, kind: 'SelfSubjectReview' }, { creds: { token } });
  return { status: res.status, user: res.body?.status?.userInfo, body: res.body };
}

/**
 * Asserts a token that authenticated before is rejected within the token cache's lifetime: as
 * upstream, a successful authentication is cached for 10 s, so a revocation takes effect within
 * that (polled for 15 s).
 */
async function expectRevoked(s: TestServer, token: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while ((await s.admin.get('/version', { creds: { token } })).status === 200 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
  await expectUnauthorized(s, token);
}

/** Asserts a request with `token` is rejected with the upstream 401 Status. */
async function expectUnauthorized(s: TestServer, token: string): Promise<void> {
  const res = await s.admin.get('/version', { creds: { token } });
  expect(res.status, res.text).to.equal(401);
  expect(res.body).to.deep.include({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Unauthorized', message: 'Unauthorized', code: 401 });
}

function saOptions(keys: Keys, over: Partial<AuthenticationOptions> = {}): Partial<AuthenticationOptions> {
  return {
    serviceAccountSigningKeyFile: keys.files.rsaPrivate,
    serviceAccountKeyFiles: [keys.files.rsaPublic, keys.files.ecPublic, keys.files.oldPublic],
    serviceAccountIssuers: [ISSUER, SECOND_ISSUER],
    ...over,
  };
}

describe('service-account tokens (spec 001 § Methods: Service account token; issue #10 items 2, 9)', function () {
  this.timeout(60_000);
  let keys: Keys;
  let server: TestServer;
  let robot: { metadata: { name: string; namespace: string; uid: string } };

  before(async function () {
    this.timeout(120_000);
    keys = await makeKeys();
    server = await startTestServer({ authentication: saOptions(keys) });
    robot = await createSA(server.admin, 'robot');
  });
  after(async () => {
    await server?.stop();
    await rm(keys.dir, { recursive: true, force: true });
  });

  describe('TokenRequest', () => {
    it('issues a token with the upstream claim layout, signed RS256 with the key id of the signing key', async () => {
      const before = nowSeconds();
      const res = await requestToken(server.admin, 'robot');
      expect(res.status, res.text).to.equal(201);
      expect(res.body).to.include({ kind: 'TokenRequest', apiVersion: `${vendorGroup('authentication')}/v1` });
      expect(res.body.metadata).to.include({ name: 'robot', namespace: NS });
      expect(res.body.spec).to.deep.include({ audiences: [ISSUER, SECOND_ISSUER], expirationSeconds: 3600 });
      const expiry = Date.parse(res.body.status.expirationTimestamp as string) / 1000;
      expect(expiry).to.be.within(before + 3599, nowSeconds() + 3600);

      const { header, payload, payloadText } = decode(res.body.status.token as string);
      expect(header).to.deep.equal({ alg: 'RS256', kid: keyIdOf(createPublicKey(keys.rsa)) });
      expect(Object.keys(payload)).to.deep.equal(['aud', 'exp', 'iat', 'iss', 'jti', 'nbf', SERVICE_ACCOUNT_PRIVATE_CLAIM, 'sub'].sort());
      expect(payload).to.include({ iss: ISSUER, sub: 'system:serviceaccount:default:robot' });
      expect(payload.aud).to.deep.equal([ISSUER, SECOND_ISSUER]);
      expect(payload.exp).to.equal((payload.iat as number) + 3600);
      expect(payload.nbf).to.equal(payload.iat);
      expect(payload[SERVICE_ACCOUNT_PRIVATE_CLAIM]).to.deep.equal({ namespace: NS, serviceaccount: { name: 'robot', uid: robot.metadata.uid } });
      expect(payloadText).not.to.include(' ');
    });

    it(`authenticates the token as the service account, with its uid, groups and credential id${covers('001 § Methods › Service account token')}`, async () => {
      const token = await tokenFor(server.admin, 'robot');
      const who = await whoami(server, token);
      expect(who.status, JSON.stringify(who.body)).to.equal(201);
      expect(who.user).to.deep.equal({
        username: 'system:serviceaccount:default:robot',
        uid: robot.metadata.uid,
        groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
        extra: { [authenticationKey('credential-id')]: [`JTI=${decode(token).payload.jti as string}`] },
      });
    });

    it('puts the requested audiences in the token; one outside the API audiences is refused by the API', async () => {
      const res = await requestToken(server.admin, 'robot', { audiences: ['vault'] });
      expect(res.body.spec.audiences).to.deep.equal(['vault']);
      expect(decode(res.body.status.token as string).payload.aud).to.deep.equal(['vault']);
      await expectUnauthorized(server, res.body.status.token as string);
    });

    it('accepts a token for any one of the API audiences (which default to the issuers)', async () => {
      const token = await tokenFor(server.admin, 'robot', { audiences: ['other', SECOND_ISSUER] });
      expect((await whoami(server, token)).status).to.equal(201);
    });

    const invalid: Array<[string, Record<string, unknown>, string]> = [
      ['599 seconds', { expirationSeconds: 599 }, `TokenRequest.${vendorGroup('authentication')} "" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes`],
      [
        'more than 2^32 seconds',
        { expirationSeconds: 2 ** 32 + 1 },
        `TokenRequest.${vendorGroup('authentication')} "" is invalid: spec.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds`,
      ],
    ];
    for (const [title, spec, message] of invalid) {
      it(`rejects ${title} with 422 and upstream's message`, async () => {
        const res = await requestToken(server.admin, 'robot', spec);
        expect(res.status, res.text).to.equal(422);
        expect(res.body).to.include({ kind: 'Status', reason: 'Invalid', message, code: 422 });
        expect(res.body.details.causes).to.deep.equal([{ reason: 'FieldValueInvalid', message: message.slice(message.indexOf('Invalid value')), field: 'spec.expirationSeconds' }]);
      });
    }

    it('rejects a body naming another service account with 422', async () => {
      const res = await requestToken(server.admin, 'robot', {}, { name: 'other' });
      expect(res.status).to.equal(422);
      expect(res.body.message).to.equal(`TokenRequest.${vendorGroup('authentication')} "robot" is invalid: metadata.name: Invalid value: "other": must match the service account name if specified`);
    });

    it('answers 404 for a service account that does not exist', async () => {
      const res = await requestToken(server.admin, 'ghost');
      expect(res.status).to.equal(404);
      expect(res.body).to.include({ reason: 'NotFound', message: 'serviceaccounts "ghost" not found' });
    });

    const badRefs: Array<[string, Record<string, unknown>, number, string, string]> = [
      ['a ConfigMap', { apiVersion: 'v1', kind: 'ConfigMap', name: 'x' }, 400, 'BadRequest', 'cannot bind token to object of type /v1, Kind=ConfigMap'],
      ['a Deployment', { apiVersion: 'apps/v1', kind: 'Deployment', name: 'x' }, 400, 'BadRequest', 'cannot bind token to object of type apps/v1, Kind=Deployment'],
      ['a Node (alpha gate off in 1.30)', { apiVersion: 'v1', kind: 'Node', name: 'x' }, 400, 'BadRequest', 'cannot bind token to a Node object as the "ServiceAccountTokenNodeBinding" feature-gate is disabled'],
      ['a missing Pod', { apiVersion: 'v1', kind: 'Pod', name: 'nope' }, 404, 'NotFound', 'pods "nope" not found'],
      ['a missing Secret', { apiVersion: 'v1', kind: 'Secret', name: 'nope' }, 404, 'NotFound', 'secrets "nope" not found'],
    ];
    for (const [title, ref, code, reason, message] of badRefs) {
      it(`refuses to bind to ${title}: ${code}`, async () => {
        const res = await requestToken(server.admin, 'robot', { boundObjectRef: ref });
        expect(res.status, res.text).to.equal(code);
        expect(res.body).to.include({ kind: 'Status', reason, message });
      });
    }

    it('refuses to bind to a Pod running as another service account (400)', async () => {
      await createPod(server.admin, 'other-sa-pod', 'default');
      const res = await requestToken(server.admin, 'robot', { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'other-sa-pod' } });
      expect(res.status).to.equal(400);
      expect(res.body.message).to.equal('cannot bind token for serviceaccount "robot" to pod running with different serviceaccount name.');
    });

    it('refuses a bound object uid that does not match (409)', async () => {
      await createSecret(server.admin, 'uid-check');
      const res = await requestToken(server.admin, 'robot', { boundObjectRef: { apiVersion: 'v1', kind: 'Secret', name: 'uid-check', uid: 'not-the-uid' } });
      expect(res.status).to.equal(409);
      expect(res.body).to.include({
        reason: 'Conflict',
        message:
          'Operation cannot be fulfilled on Secret "uid-check": the UID in the bound object reference (not-the-uid) does not match the UID in record. The object might have been deleted and then recreated',
      });
    });
  });

  describe('keys and issuers', () => {
    it(`accepts a token signed by the ECDSA key in --service-account-key-file (ES256)${covers('001 § Methods › Service account token')}`, async () => {
      const token = await sign(keys.ec, { alg: 'ES256', kid: keyIdOf(createPublicKey(keys.ec)) }, claimsFor(robot));
      expect((await whoami(server, token)).user?.username).to.equal('system:serviceaccount:default:robot');
    });

    it('accepts a token signed by a retired key whose public key is still in --service-account-key-file', async () => {
      const token = await sign(keys.old, { alg: 'RS256', kid: keyIdOf(createPublicKey(keys.old)) }, claimsFor(robot));
      expect((await whoami(server, token)).status).to.equal(201);
    });

    it('accepts a token of the second issuer', async () => {
      const token = await sign(keys.rsa, { alg: 'RS256' }, claimsFor(robot, { iss: SECOND_ISSUER, aud: [SECOND_ISSUER] }));
      expect((await whoami(server, token)).status).to.equal(201);
    });
  });

  describe('rejections: every one a 401 Status', () => {
    const rejected: Array<[string, () => Promise<string>]> = [
      ['an expired token', () => sign(keys.rsa, { alg: 'RS256' }, claimsFor(robot, { iat: nowSeconds() - 7200, nbf: nowSeconds() - 7200, exp: nowSeconds() - 3600 }))],
      ['a token not valid yet (nbf an hour ahead)', () => sign(keys.rsa, { alg: 'RS256' }, claimsFor(robot, { nbf: nowSeconds() + 3600, exp: nowSeconds() + 7200 }))],
      ['a token of another issuer (nobody claims it)', () => sign(keys.rsa, { alg: 'RS256' }, claimsFor(robot, { iss: 'https://elsewhere.example' }))],
      ['a token for another audience', () => sign(keys.rsa, { alg: 'RS256' }, claimsFor(robot, { aud: ['someone-else'] }))],
      [
        'alg none',
        async () => {
          const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
          return `${part({ alg: 'none' })}.${part(claimsFor(robot))}.`;
        },
      ],
      ['HS256 with the public key as the secret', () => sign(new TextEncoder().encode(createPublicKey(keys.rsa).export({ type: 'spki', format: 'pem' }) as string), { alg: 'HS256' }, claimsFor(robot))],
      [
        'a bad signature',
        async () => {
          const t = await sign(keys.rsa, { alg: 'RS256' }, claimsFor(robot));
          const sig = Buffer.from(t.split('.')[2]!, 'base64url');
          sig[0] = sig[0]! ^ 0xff;
          return `${t.split('.').slice(0, 2).join('.')}.${sig.toString('base64url')}`;
        },
      ],
      ['a token signed by a key the server does not trust', () => sign(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey, { alg: 'RS256' }, claimsFor(robot))],
      ['a malformed token (three garbage parts)', async () => 'abc.def.ghi'],
      ['a token that is not a JWT', async () => 'not-a-jwt'],
      ['a JSON token', async () => '{"iss":"https://issuer-one.example"}'],
      ['a token with a payload of our issuer but a garbage header', async () => `%%%.${Buffer.from(JSON.stringify({ iss: ISSUER })).toString('base64url')}.sig`],
      [
        'a huge token (12 KiB) of our issuer with a forged signature',
        async () => {
          const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
          return `${part({ alg: 'ES256' })}.${part(claimsFor(robot, { pad: 'x'.repeat(12 * 1024) }))}.${Buffer.alloc(64, 7).toString('base64url')}`;
        },
      ],
      ['a token with a wrongly typed claim', () => sign(keys.rsa, { alg: 'RS256' }, claimsFor(robot, { exp: 'tomorrow' }))],
      ['a token naming the service account with a wrong uid', () => sign(keys.rsa, { alg: 'RS256' }, claimsFor({ metadata: { ...robot.metadata, uid: 'forged' } }))],
    ];
    for (const [title, make] of rejected) {
      it(`rejects ${title}`, async () => {
        await expectUnauthorized(server, await make());
      });
    }
  });

  describe('lookups: a token is revoked with what it names', () => {
    // Tokens are used once (so that the server's 10 s token cache holds them), then the objects
    // they name are deleted together; the tests then wait, once, for the cache to let go.
    const used: { sa?: string; pod?: string; secret?: string } = {};
    let podUID = '';
    let nodeUID = '';
    let secretUID = '';
    let podUser: Record<string, unknown> | undefined;

    before(async function () {
      this.timeout(30_000);
      await createSA(server.admin, 'temp');
      used.sa = await tokenFor(server.admin, 'temp');
      const node = await server.admin.post('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-a' } });
      expect(node.status, node.text).to.equal(201);
      nodeUID = node.body.metadata.uid as string;
      podUID = (await createPod(server.admin, 'bound-pod', 'robot', 'node-a')).metadata.uid;
      used.pod = await tokenFor(server.admin, 'robot', { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'bound-pod', uid: podUID } });
      secretUID = (await createSecret(server.admin, 'bound-secret')).metadata.uid;
      used.secret = await tokenFor(server.admin, 'robot', { boundObjectRef: { apiVersion: 'v1', kind: 'Secret', name: 'bound-secret' } });
      for (const token of [used.sa, used.pod, used.secret]) expect((await whoami(server, token)).status).to.equal(201);
      podUser = (await whoami(server, used.pod)).user;
      expect((await server.admin.delete(`/api/v1/namespaces/${NS}/serviceaccounts/temp`)).status).to.equal(200);
      expect((await server.admin.delete(`/api/v1/namespaces/${NS}/pods/bound-pod?gracePeriodSeconds=0`)).status).to.equal(200);
      expect((await server.admin.delete(`/api/v1/namespaces/${NS}/secrets/bound-secret`)).status).to.equal(200);
    });

    it('rejects the token of a deleted service account, and of one re-created with a new uid', async () => {
      await expectRevoked(server, used.sa!);
      await createSA(server.admin, 'temp');
      await expectUnauthorized(server, used.sa!);
      expect((await whoami(server, await tokenFor(server.admin, 'temp'))).status).to.equal(201);
    });

    it('names the bound Pod and its Node in a Pod-bound token and in its user; deleting the Pod revokes it', async () => {
      expect(decode(used.pod!).payload[SERVICE_ACCOUNT_PRIVATE_CLAIM]).to.deep.include({ pod: { name: 'bound-pod', uid: podUID }, node: { name: 'node-a', uid: nodeUID } });
      expect(podUser?.extra).to.deep.include({
        [authenticationKey('pod-name')]: ['bound-pod'],
        [authenticationKey('pod-uid')]: [podUID],
        [authenticationKey('node-name')]: ['node-a'],
        [authenticationKey('node-uid')]: [nodeUID],
      });
      await expectRevoked(server, used.pod!);
    });

    it('names the bound Secret in a Secret-bound token; deleting the Secret revokes it', async () => {
      expect(decode(used.secret!).payload[SERVICE_ACCOUNT_PRIVATE_CLAIM]).to.deep.include({ secret: { name: 'bound-secret', uid: secretUID } });
      await expectRevoked(server, used.secret!);
    });

    it('gives a Pod-bound token asked for 3607 s a year, warning after the hour (--service-account-extend-token-expiration)', async () => {
      await createPod(server.admin, 'extended-pod', 'robot');
      const res = await requestToken(server.admin, 'robot', { expirationSeconds: 3607, boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'extended-pod' } });
      expect(res.status, res.text).to.equal(201);
      const { payload } = decode(res.body.status.token as string);
      const iat = payload.iat as number;
      expect(payload.exp).to.equal(iat + 365 * 24 * 3600);
      expect(payload[SERVICE_ACCOUNT_PRIVATE_CLAIM]).to.deep.include({ warnafter: iat + 3607 });
      expect(Date.parse(res.body.status.expirationTimestamp as string) / 1000).to.be.within(iat + 3606, iat + 3608);
    });
  });

  describe('legacy Secret-based tokens (--service-account-lookup)', () => {
    async function legacyToken(secretName: string): Promise<string> {
      return sign(keys.rsa, { alg: 'RS256' }, {
        iss: LEGACY_SERVICE_ACCOUNT_ISSUER,
        [legacyServiceAccountClaim('namespace')]: NS,
        [legacyServiceAccountClaim('secret.name')]: secretName,
        [legacyServiceAccountClaim('service-account.name')]: 'robot',
        [legacyServiceAccountClaim('service-account.uid')]: robot.metadata.uid,
        sub: 'system:serviceaccount:default:robot',
      });
    }

    it('accepts a legacy token held by its Secret, and labels the Secret with the day it was used', async () => {
      const token = await legacyToken('legacy-1');
      await createSecret(server.admin, 'legacy-1', { token: Buffer.from(token).toString('base64') });
      const who = await whoami(server, token);
      expect(who.user).to.deep.include({ username: 'system:serviceaccount:default:robot', uid: robot.metadata.uid });
      const today = new Date().toISOString().slice(0, 10);
      for (let i = 0; i < 50; i++) {
        const s = await server.admin.get(`/api/v1/namespaces/${NS}/secrets/legacy-1`);
        if (s.body.metadata.labels?.[LEGACY_TOKEN_LAST_USED_LABEL] === today) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect.fail('the last-used label was not set');
    });

    it('rejects a legacy token whose Secret holds another token, is gone, or is marked invalid', async () => {
      const token = await legacyToken('legacy-2');
      await createSecret(server.admin, 'legacy-2', { token: Buffer.from('something else').toString('base64') });
      await expectUnauthorized(server, token);

      await expectUnauthorized(server, await legacyToken('legacy-missing'));

      const marked = await legacyToken('legacy-3');
      await createSecret(server.admin, 'legacy-3', { token: Buffer.from(marked).toString('base64') }, { [LEGACY_TOKEN_INVALID_SINCE_LABEL]: '2024-01-01' });
      await expectUnauthorized(server, marked);
    });
  });

  describe('issuer discovery', () => {
    it('serves the OpenID configuration of the first issuer, cacheable for an hour', async () => {
      const res = await server.admin.get('/.well-known/openid-configuration');
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal('application/json');
      expect(res.headers['cache-control']).to.equal('public, max-age=3600');
      expect(res.text).to.equal(
        JSON.stringify({
          issuer: ISSUER,
          jwks_uri: `${server.url}/openid/v1/jwks`,
          response_types_supported: ['id_token'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['ES256', 'RS256'],
        }),
      );
    });

    it('serves every public key of --service-account-key-file as a JWK set', async () => {
      const res = await server.admin.get('/openid/v1/jwks');
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal('application/jwk-set+json');
      expect(res.headers['cache-control']).to.equal('public, max-age=3600');
      const keysServed = res.body.keys as Array<Record<string, string>>;
      expect(keysServed.map((k) => k.kid)).to.deep.equal([keys.rsa, keys.ec, keys.old].map((k) => keyIdOf(createPublicKey(k))));
      expect(keysServed.map((k) => Object.keys(k))).to.deep.equal([
        ['use', 'kty', 'kid', 'alg', 'n', 'e'],
        ['use', 'kty', 'kid', 'crv', 'alg', 'x', 'y'],
        ['use', 'kty', 'kid', 'alg', 'n', 'e'],
      ]);
      expect(keysServed.map((k) => [k.use, k.alg])).to.deep.equal([
        ['sig', 'RS256'],
        ['sig', 'ES256'],
        ['sig', 'RS256'],
      ]);
    });

    it('lets an outside system verify a token with the served key set (jose createLocalJWKSet)', async () => {
      const jwks = (await server.admin.get('/openid/v1/jwks')).body;
      const token = await tokenFor(server.admin, 'robot', { audiences: ['vault'] });
      const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), { issuer: ISSUER, audience: 'vault' });
      expect(payload.sub).to.equal('system:serviceaccount:default:robot');
    });

    it('lets a service account read the documents, not an anonymous caller', async () => {
      const token = await tokenFor(server.admin, 'robot');
      expect((await server.admin.get('/openid/v1/jwks', { creds: { token } })).status).to.equal(200);
      expect((await server.anonymous.get('/.well-known/openid-configuration')).status).to.equal(403);
    });
  });

  describe('a restart over the same data', () => {
    it('keeps issued tokens valid; a new signing key signs, the old one still verifies', async () => {
      const token = await tokenFor(server.admin, 'robot');
      const prefix = server.prefix;
      await server.stop();
      server = await startTestServer({
        prefix,
        authentication: saOptions(keys, { serviceAccountSigningKeyFile: keys.files.ecPrivate }),
      });
      expect((await whoami(server, token)).user?.username).to.equal('system:serviceaccount:default:robot');
      const fresh = await tokenFor(server.admin, 'robot');
      expect(decode(fresh).header).to.deep.equal({ alg: 'ES256', kid: keyIdOf(createPublicKey(keys.ec)) });
      expect((await whoami(server, fresh)).status).to.equal(201);
    });
  });
});

describe('service-account flags (issue #10 item 2): max expiration, audiences, lookup, extension, discovery', function () {
  this.timeout(60_000);
  let keys: Keys;
  let server: TestServer;
  let robot: { metadata: { name: string; namespace: string; uid: string } };

  before(async function () {
    this.timeout(120_000);
    keys = await makeKeys();
    server = await startTestServer({
      authentication: saOptions(keys, {
        serviceAccountIssuers: ['test-issuer'],
        apiAudiences: ['api'],
        serviceAccountMaxTokenExpirationMs: 2 * 3600_000,
        serviceAccountLookup: false,
        serviceAccountExtendTokenExpiration: false,
      }),
    });
    robot = await createSA(server.admin, 'robot');
  });
  after(async () => {
    await server?.stop();
    await rm(keys.dir, { recursive: true, force: true });
  });

  it('shortens a longer request to --service-account-max-token-expiration, with upstream\'s warning', async () => {
    const res = await requestToken(server.admin, 'robot', { expirationSeconds: 86_400 });
    expect(res.status, res.text).to.equal(201);
    expect(res.headers.warning).to.equal('299 - "requested expiration of 86400 seconds shortened to 7200 seconds"');
    expect(res.body.spec.expirationSeconds).to.equal(7200);
    const { payload } = decode(res.body.status.token as string);
    expect(payload.exp).to.equal((payload.iat as number) + 7200);
    expect(Date.parse(res.body.status.expirationTimestamp as string) / 1000).to.be.within((payload.iat as number) + 7199, (payload.iat as number) + 7201);
  });

  it('defaults the audiences to --api-audiences and signs for the first issuer', async () => {
    const res = await requestToken(server.admin, 'robot');
    expect(res.body.spec.audiences).to.deep.equal(['api']);
    expect(decode(res.body.status.token as string).payload).to.deep.include({ iss: 'test-issuer', aud: ['api'] });
    expect((await whoami(server, res.body.status.token as string)).status).to.equal(201);
  });

  it('does not extend a Pod-bound token with --service-account-extend-token-expiration=false', async () => {
    await createPod(server.admin, 'p', 'robot');
    const res = await requestToken(server.admin, 'robot', { expirationSeconds: 3607, boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'p' } });
    const { payload } = decode(res.body.status.token as string);
    expect(payload.exp).to.equal((payload.iat as number) + 3607);
    expect(payload[SERVICE_ACCOUNT_PRIVATE_CLAIM]).not.to.have.property('warnafter');
  });

  it('accepts a legacy token without looking its Secret up when --service-account-lookup=false', async () => {
    const token = await sign(keys.rsa, { alg: 'RS256' }, {
      iss: LEGACY_SERVICE_ACCOUNT_ISSUER,
      [legacyServiceAccountClaim('namespace')]: NS,
      [legacyServiceAccountClaim('secret.name')]: 'never-created',
      [legacyServiceAccountClaim('service-account.name')]: 'robot',
      [legacyServiceAccountClaim('service-account.uid')]: robot.metadata.uid,
      sub: 'system:serviceaccount:default:robot',
    });
    expect((await whoami(server, token)).user).to.deep.include({ username: 'system:serviceaccount:default:robot' });
  });

  it('serves no issuer discovery for an issuer that is not an https URL (as upstream)', async () => {
    expect((await server.admin.get('/.well-known/openid-configuration')).status).to.equal(404);
    expect((await server.admin.get('/openid/v1/jwks')).status).to.equal(404);
  });
});

/** Creates a Pod running as `serviceAccountName` (on `nodeName` when given). */
async function createPod(admin: TestClient, name: string, serviceAccountName: string, nodeName?: string): Promise<{ metadata: { uid: string } }> {
  const res = await admin.post(`/api/v1/namespaces/${NS}/pods`, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { serviceAccountName, ...(nodeName && { nodeName }), containers: [{ name: 'c', image: 'busybox' }] },
  });
  expect(res.status, res.text).to.equal(201);
  return res.body;
}

/** Creates an Opaque Secret with `data` (base64 values) and `labels`. */
async function createSecret(admin: TestClient, name: string, data: Record<string, string> = {}, labels: Record<string, string> = {}): Promise<{ metadata: { uid: string } }> {
  const res = await admin.post(`/api/v1/namespaces/${NS}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name, labels }, data });
  expect(res.status, res.text).to.equal(201);
  return res.body;
}
