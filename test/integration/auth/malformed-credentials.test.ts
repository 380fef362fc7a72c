import { expect } from 'chai';
import { createPrivateKey } from 'node:crypto';
import { SignJWT } from 'jose';
import { DEFAULT_SERVICE_ACCOUNT_ISSUER } from '../../../lib/apis/vendor.js';
import { type RawResponse, rawGet } from '../../framework/raw-https.js';
import { type TestServer, usePKI, useTestServer } from '../../framework/test-server.js';
import { covers } from '../../conformance/covers.js';

const TOKENS = ['admintoken,alice,uid-1,"system:masters"', 'usertoken,bob,uid-2,devs'].join('\n');
/** Upstream's 401 body, byte for byte (kube-apiserver writes it with a trailing newline). */
const UNAUTHORIZED = '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}';

const b64 = (o: unknown) => Buffer.from(typeof o === 'string' ? o : JSON.stringify(o)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);
const saClaims = () => ({ iss: DEFAULT_SERVICE_ACCOUNT_ISSUER, sub: 'system:serviceaccount:default:default', aud: [DEFAULT_SERVICE_ACCOUNT_ISSUER], iat: now(), exp: now() + 600 });

/** A JWT signed RS256 with the server's own serving key (the default service-account key). */
async function signed(claims: Record<string, unknown>): Promise<string> {
  const { pki } = await usePKI();
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', typ: 'JWT' }).sign(createPrivateKey(pki.servingKeyPem));
}

describe('malformed credentials: 401 with a Status, the server stays up (issue #10 quality bars; spec 001 § Errors)', function () {
  this.timeout(30_000);
  const server = useTestServer({ tokens: TOKENS });
  const get = async (headerLines: string[], path = '/api/v1/namespaces/default'): Promise<RawResponse> => {
    const s: TestServer = server();
    return rawGet(s.url, path, headerLines, { ca: s.admin.ca });
  };
  const expectUnauthorized = (res: RawResponse) => {
    expect(res.status).to.equal(401);
    expect(res.headers['content-type']).to.equal('application/json');
    expect(res.text).to.equal(`${UNAUTHORIZED}\n`);
  };

  afterEach(async () => {
    expect((await server().admin.get('/readyz')).status, 'the server still answers').to.equal(200);
  });

  const jwts: Array<[string, () => Promise<string>]> = [
    ['three dots of nothing', async () => '..'],
    ['not base64', async () => 'not.a.jwt'],
    ['a header that is not JSON', async () => `${b64('{')}.${b64(saClaims())}.${b64('sig')}`],
    ['a payload that is not JSON', async () => `${b64({ alg: 'RS256' })}.${b64('not json')}.${b64('sig')}`],
    ['alg: none, no signature', async () => `${b64({ alg: 'none', typ: 'JWT' })}.${b64(saClaims())}.`],
    ['alg: HS256 keyed with the public key (algorithm confusion)', async () => {
      const { pki } = await usePKI();
      return new SignJWT(saClaims()).setProtectedHeader({ alg: 'HS256' }).sign(Buffer.from(pki.servingCertPem));
    }],
    ['a signature over other claims', async () => {
      const [h, , s] = (await signed(saClaims())).split('.');
      return `${h}.${b64({ ...saClaims(), sub: 'system:serviceaccount:kube-system:admin' })}.${s}`;
    }],
    ['expired', async () => signed({ ...saClaims(), iat: now() - 7200, exp: now() - 3600 })],
    ['not yet valid', async () => signed({ ...saClaims(), nbf: now() + 3600 })],
    ['a wrong issuer', async () => signed({ ...saClaims(), iss: 'https://elsewhere.example' })],
    ['a wrong audience', async () => signed({ ...saClaims(), aud: ['someone-else'] })],
    ['an RS256 JWT whose signature is truncated', async () => (await signed(saClaims())).slice(0, -10)],
  ];
  for (const [what, token] of jwts) {
    it(`a malformed or invalid JWT: ${what}`, async () => expectUnauthorized(await get([`Authorization: Bearer ${await token()}`])));
  }

  it('a 64 KiB token (past Node\'s default header limit, within upstream\'s 1 MiB): 401, not 431', async () => {
    expectUnauthorized(await get([`Authorization: Bearer ${'a'.repeat(64 * 1024)}`]));
  });

  it('a 1 MiB token (within upstream\'s MaxHeaderBytes of 1 MiB plus Go\'s 4 KiB slack): 401', async () => {
    expectUnauthorized(await get([`Authorization: Bearer ${'a'.repeat(1024 * 1024)}`]));
  });

  it('a header past the limit: 431 Request Header Fields Too Large, as upstream (or the connection closed, when its reset overtakes the answer)', async () => {
    const res = await get([`Authorization: Bearer ${'a'.repeat(1024 * 1024 + 8192)}`]).catch((err: NodeJS.ErrnoException) => err);
    if (res instanceof Error) expect(res.code).to.be.oneOf(['ECONNRESET', 'EPIPE']);
    else expect(res.status).to.equal(431);
  });

  it(`non-ASCII bytes in the token: 401${covers('001 § Methods › Bearer token')}`, async () => {
    expectUnauthorized(await get(['Authorization: Bearer t\u00f6k\u00e9n\u00ff']));
  });

  it('a control character in the header: 400 from the HTTP parser, as Go answers it', async () => {
    const res = await get(['Authorization: Bearer a\u0001b']);
    expect(res.status).to.equal(400);
  });

  it('duplicate Authorization headers: the first decides (Go Header.Get) — a valid one first authenticates', async () => {
    const res = await get(['Authorization: Bearer admintoken', 'Authorization: Bearer nope']);
    expect(res.status).to.equal(200);
  });

  it('duplicate Authorization headers: an invalid one first is 401', async () => {
    expectUnauthorized(await get(['Authorization: Bearer nope', 'Authorization: Bearer admintoken']));
  });

  it('a scheme-insensitive bearer with a valid token authenticates', async () => {
    expect((await get(['Authorization: bEaReR admintoken'])).status).to.equal(200);
  });

  const anonymous: Array<[string, string]> = [
    ['"Bearer" with no token', 'Authorization: Bearer'],
    ['"Bearer " with an empty token', 'Authorization: Bearer '],
    ['the Basic scheme (not a method of this server)', 'Authorization: Basic YWxpY2U6c2VjcmV0'],
    ['an unknown scheme', 'Authorization: Negotiate abc'],
    ['an empty header', 'Authorization:'],
  ];
  for (const [what, line] of anonymous) {
    it(`${what}: no credential, so anonymous (as upstream)`, async () => {
      const res = await get([line]);
      expect(res.status).to.equal(403);
      expect(res.body.message).to.equal('namespaces "default" is forbidden: User "system:anonymous" cannot get resource "namespaces" in API group "" in the namespace "default"');
    });
  }

  it('"Bearer  <token>" (two spaces): ignored with upstream\'s warning, the request anonymous', async () => {
    const res = await get(['Authorization: Bearer  admintoken']);
    expect(res.status).to.equal(403);
    expect(res.body.message).to.include('User "system:anonymous"');
    expect(res.headers.warning).to.equal('299 - "the provided Authorization header contains extra space before the bearer token, and is ignored"');
  });

  it('many concurrent bad tokens do not stall good requests', async () => {
    const s = server();
    const bad = Array.from({ length: 200 }, (_, i) => s.admin.get('/api/v1/namespaces', { creds: { token: `bad-${i}.x.y` } }));
    const good = await s.admin.get('/api/v1/namespaces', { creds: { token: 'admintoken' } });
    expect(good.status).to.equal(200);
    expect((await Promise.all(bad)).every((r) => r.status === 401)).to.equal(true);
  });
});

describe('malformed credentials with anonymous requests off (--anonymous-auth=false)', function () {
  this.timeout(30_000);
  const server = useTestServer({ tokens: TOKENS, anonymousAuth: false });

  for (const line of ['Authorization: Bearer', 'Authorization: Basic YWxpY2U6c2VjcmV0', 'Authorization: Bearer  admintoken']) {
    it(`${JSON.stringify(line)}: 401 Unauthorized`, async () => {
      const s = server();
      const res = await rawGet(s.url, '/healthz', [line], { ca: s.admin.ca });
      expect(res.status).to.equal(401);
      expect(res.text).to.equal(`${UNAUTHORIZED}\n`);
    });
  }
});
