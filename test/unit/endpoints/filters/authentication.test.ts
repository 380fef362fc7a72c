import { expect } from 'chai';
import { type Server, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { BearerTokenAuthenticator } from '../../../../lib/authentication/bearer-token.js';
import type { AuthResult, TokenAuthenticator } from '../../../../lib/authentication/interface.js';
import { UnionAuthenticator } from '../../../../lib/authentication/union.js';
import { PrivilegedGroupAuthorizer } from '../../../../lib/authorization/privileged-group/authorizer.js';
import { withAuthentication } from '../../../../lib/endpoints/filters/authentication.js';
import { withImpersonation } from '../../../../lib/endpoints/filters/impersonation.js';
import { requestContextOf, withRequestInfo } from '../../../../lib/endpoints/filters/request-info.js';
import { withStatusErrors } from '../../../../lib/server/filters/errors.js';

/** Tokens → users; `aud` tokens are valid only for the audience "other". */
const TOKENS: TokenAuthenticator = {
  authenticateToken: async (t): Promise<AuthResult | null> => {
    if (t === 'root') return { user: { name: 'root', groups: ['system:masters'] } };
    if (t === 'bob') return { user: { name: 'bob', groups: [] } };
    if (t === 'aud') return { user: { name: 'carol', groups: [] }, audiences: ['other'] };
    return null;
  },
};

/** What the innermost handler saw. */
interface Seen {
  user: unknown;
  audiences: unknown;
  headers: Record<string, unknown>;
  rawHeaders: string[];
  distinct: Record<string, unknown>;
}

describe('endpoints/filters: authentication and impersonation as a handler sees them (spec 001 § Authentication, § Impersonation)', () => {
  let server: Server;
  let seen: Seen | undefined;

  before(async () => {
    const app = new Koa();
    app.use(withStatusErrors(() => undefined));
    app.use(withRequestInfo(new AbortController().signal));
    app.use(withAuthentication(new UnionAuthenticator([new BearerTokenAuthenticator(TOKENS)], { anonymous: true, apiAudiences: ['api'] })));
    app.use(withImpersonation(new PrivilegedGroupAuthorizer()));
    app.use((koa) => {
      const ctx = requestContextOf(koa);
      seen = { user: ctx.user, audiences: ctx.audiences, headers: { ...koa.req.headers }, rawHeaders: [...koa.req.rawHeaders], distinct: { ...koa.req.headersDistinct } };
      koa.body = 'ok';
    });
    server = createServer(app.callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });
  after(() => new Promise<void>((r) => server.close(() => r())));
  beforeEach(() => (seen = undefined));

  /** GET / with `headers` (an array value: one header line per element); resolves with status and body. */
  function get(headers: Record<string, string | string[]>): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/', headers }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('a bearer-authenticated request reaches the handler without its Authorization header (headers and raw headers)', async () => {
    expect((await get({ Authorization: 'Bearer bob' })).status).to.equal(200);
    expect(seen!.user).to.deep.equal({ name: 'bob', groups: ['system:authenticated'] });
    expect(seen!.headers).to.not.have.property('authorization');
    expect(seen!.rawHeaders.map((h) => h.toLowerCase())).to.not.include('authorization');
    expect(seen!.distinct).to.not.have.property('authorization');
  });

  it('an anonymous request with a non-bearer Authorization header reaches the handler without it, as upstream', async () => {
    expect((await get({ Authorization: 'Basic YWxpY2U6c2VjcmV0' })).status).to.equal(200);
    expect(seen!.user).to.deep.equal({ name: 'system:anonymous', groups: ['system:unauthenticated'] });
    expect(seen!.headers).to.not.have.property('authorization');
  });

  it('an unknown token is 401 with the Unauthorized Status, the handler not reached', async () => {
    const res = await get({ Authorization: 'Bearer nope' });
    expect(res.status).to.equal(401);
    expect(JSON.parse(res.body)).to.deep.equal({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
    expect(seen).to.equal(undefined);
  });

  it('a credential valid only for other audiences is 401 (upstream audiencesAreAcceptable)', async () => {
    expect((await get({ Authorization: 'Bearer aud' })).status).to.equal(401);
    expect(seen).to.equal(undefined);
  });

  it('the audiences the credential was found valid for travel with the request', async () => {
    const union = new UnionAuthenticator(
      [{ authenticateRequest: async (_r, o) => ({ user: { name: 'x', groups: [] }, audiences: [...o.audiences] }) }],
      { anonymous: true, apiAudiences: ['api'] },
    );
    const app = new Koa();
    app.use(withRequestInfo(new AbortController().signal));
    app.use(withAuthentication(union));
    app.use((koa) => void (koa.body = JSON.stringify(requestContextOf(koa).audiences)));
    const s = createServer(app.callback());
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    try {
      const body = await new Promise<string>((resolve, reject) => {
        request({ host: '127.0.0.1', port: (s.address() as AddressInfo).port, path: '/' }, (res) => {
          let b = '';
          res.on('data', (c: Buffer) => (b += c.toString()));
          res.on('end', () => resolve(b));
        })
          .on('error', reject)
          .end();
      });
      expect(JSON.parse(body)).to.deep.equal(['api']);
    } finally {
      await new Promise<void>((r) => s.close(() => r()));
    }
  });

  it('an allowed impersonation: the handler sees the impersonated user and no impersonation headers', async () => {
    const res = await get({
      Authorization: 'Bearer root',
      'Impersonate-User': 'jane',
      'Impersonate-Group': ['devs', 'ops'],
      'Impersonate-Uid': 'u-1',
      'Impersonate-Extra-Scopes': 'view',
      'Impersonate-Extra-Example.org%2fTeam': 'a',
      'X-Other': 'kept',
    });
    expect(res.status).to.equal(200);
    expect(seen!.user).to.deep.equal({ name: 'jane', groups: ['devs', 'ops', 'system:authenticated'], uid: 'u-1', extra: { scopes: ['view'], 'example.org/team': ['a'] } });
    for (const where of [Object.keys(seen!.headers), seen!.rawHeaders.map((h) => h.toLowerCase()), Object.keys(seen!.distinct)]) {
      expect(where.filter((h) => h.startsWith('impersonate-'))).to.deep.equal([]);
      expect(where).to.include('x-other');
    }
  });

  it("a refused impersonation: 403 with upstream's message, the handler not reached", async () => {
    const res = await get({ Authorization: 'Bearer bob', 'Impersonate-User': 'jane' });
    expect(res.status).to.equal(403);
    expect(JSON.parse(res.body)).to.deep.include({
      message: 'users "jane" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope',
      reason: 'Forbidden',
      details: { name: 'jane', kind: 'users' },
    });
    expect(seen).to.equal(undefined);
  });
});
