import { expect } from 'chai';
import type { IncomingMessage } from 'node:http';
import { BearerTokenAuthenticator } from '../../../lib/authentication/bearer-token.js';
import { type AuthResult, type AuthenticateRequestOptions, AuthenticationError, type RequestAuthenticator, type TokenAuthenticator } from '../../../lib/authentication/interface.js';
import { AggregateAuthenticationError, TokenUnion, UnionAuthenticator, anonymousAllowed } from '../../../lib/authentication/union.js';
import { authenticationRejection } from '../../framework/authentication.js';

const req = { headers: {} } as unknown as IncomingMessage;

/** A method answering `result` (a user name, null for "not mine", or an Error to throw), recording calls and options. */
function method(result: string | null | Error, groups: string[] = []): RequestAuthenticator & { calls: number; opts: AuthenticateRequestOptions[] } {
  const m = {
    calls: 0,
    opts: [] as AuthenticateRequestOptions[],
    authenticateRequest: async (_req: IncomingMessage, opts: AuthenticateRequestOptions): Promise<AuthResult | null> => {
      m.calls++;
      m.opts.push(opts);
      if (result instanceof Error) throw result;
      return result === null ? null : { user: { name: result, groups: [...groups] } };
    },
  };
  return m;
}

/** A token authenticator answering like {@link method}. */
function token(result: string | null | Error): TokenAuthenticator & { calls: number } {
  const t = {
    calls: 0,
    authenticateToken: async (): Promise<AuthResult | null> => {
      t.calls++;
      if (result instanceof Error) throw result;
      return result === null ? null : { user: { name: result, groups: [] } };
    },
  };
  return t;
}

/** The AuthenticationError `p` rejects with. */

describe('authentication/union (spec 001 § Authentication, § Anonymous requests)', () => {
  it('the first method that returns a user decides; later methods are not asked', async () => {
    const a = method(null);
    const b = method('bob');
    const c = method('carol');
    const res = await new UnionAuthenticator([a, b, c], { anonymous: true }).authenticate(req);
    expect(res.user.name).to.equal('bob');
    expect([a.calls, b.calls, c.calls]).to.deep.equal([1, 1, 0]);
  });

  it('an authenticated user gets system:authenticated added to its groups', async () => {
    const res = await new UnionAuthenticator([method('bob', ['dev'])], { anonymous: true }).authenticate(req);
    expect(res.user.groups).to.deep.equal(['dev', 'system:authenticated']);
  });

  it('system:authenticated is not added twice', async () => {
    const res = await new UnionAuthenticator([method('bob', ['system:authenticated'])], { anonymous: true }).authenticate(req);
    expect(res.user.groups).to.deep.equal(['system:authenticated']);
  });

  it('a user already in system:unauthenticated does not get system:authenticated', async () => {
    const res = await new UnionAuthenticator([method('odd', ['system:unauthenticated'])], { anonymous: true }).authenticate(req);
    expect(res.user.groups).to.deep.equal(['system:unauthenticated']);
  });

  it('no credential at all: system:anonymous in system:unauthenticated', async () => {
    const res = await new UnionAuthenticator([method(null), method(null)], { anonymous: true }).authenticate(req);
    expect(res).to.deep.equal({ user: { name: 'system:anonymous', groups: ['system:unauthenticated'] } });
  });

  it('no credential with anonymous requests disabled is unauthorized', async () => {
    await authenticationRejection(new UnionAuthenticator([method(null)], { anonymous: false }).authenticate(req));
  });

  it('a rejected credential is unauthorized even when anonymous requests are allowed', async () => {
    const err = await authenticationRejection(new UnionAuthenticator([method(new AuthenticationError('invalid bearer token')), method(null)], { anonymous: true }).authenticate(req));
    expect(err.message).to.equal('invalid bearer token');
  });

  it('a rejection does not stop later methods: one that succeeds wins', async () => {
    const res = await new UnionAuthenticator([method(new AuthenticationError('bad cert')), method('bob')], { anonymous: true }).authenticate(req);
    expect(res.user.name).to.equal('bob');
  });

  it("several rejections are reported together, as upstream's error aggregate: [a, b]", async () => {
    const err = await authenticationRejection(
      new UnionAuthenticator([method(new AuthenticationError('bad cert')), method(new AuthenticationError('invalid bearer token'))], { anonymous: true }).authenticate(req),
    );
    expect(err.message).to.equal('[bad cert, invalid bearer token]');
  });

  it('an unexpected error (not an AuthenticationError) propagates', async () => {
    const boom = new Error('boom');
    let caught: unknown;
    try {
      await new UnionAuthenticator([method(boom)], { anonymous: true }).authenticate(req);
    } catch (err) {
      caught = err;
    }
    expect(caught).to.equal(boom);
  });

  it('methods are asked for the API audiences by default, for the audiences of the call when given', async () => {
    const m = method(null);
    const union = new UnionAuthenticator([m], { anonymous: true, apiAudiences: ['api'] });
    await union.authenticate(req);
    await union.authenticate(req, { audiences: ['other'] });
    expect(m.opts.map((o) => o.audiences)).to.deep.equal([['api'], ['other']]);
  });

  it("a method's warning reaches the caller", async () => {
    const warnings: string[] = [];
    const warning: RequestAuthenticator = {
      authenticateRequest: async (_r, opts) => {
        opts.warn('careful');
        return null;
      },
    };
    await new UnionAuthenticator([warning], { anonymous: true }).authenticate(req, { warn: (t) => warnings.push(t) });
    expect(warnings).to.deep.equal(['careful']);
  });
});

describe("authentication/union: AggregateAuthenticationError (upstream's error aggregate)", () => {
  const e = (m: string) => new AuthenticationError(m);
  it('one error: its message', () => expect(new AggregateAuthenticationError([e('a')]).message).to.equal('a'));
  it('several: bracketed, comma-separated', () => expect(new AggregateAuthenticationError([e('a'), e('b')]).message).to.equal('[a, b]'));
  it('repeated messages once', () => expect(new AggregateAuthenticationError([e('a'), e('a')]).message).to.equal('a'));
  it('nested aggregates flattened', () => {
    expect(new AggregateAuthenticationError([new AggregateAuthenticationError([e('a'), e('b')]), e('c'), e('a')]).message).to.equal('[a, b, c]');
  });
});

describe('authentication/union: TokenUnion (upstream tokenunion)', () => {
  it('the first token authenticator that knows the token decides; later ones are not asked', async () => {
    const [a, b, c] = [token(null), token('bob'), token('carol')];
    expect((await new TokenUnion([a, b, c]).authenticateToken('t', []))?.user.name).to.equal('bob');
    expect([a.calls, b.calls, c.calls]).to.deep.equal([1, 1, 0]);
  });

  it('a rejection does not stop the others', async () => {
    expect((await new TokenUnion([token(new AuthenticationError('expired')), token('bob')]).authenticateToken('t', []))?.user.name).to.equal('bob');
  });

  it('nobody knows the token: null', async () => {
    expect(await new TokenUnion([token(null), token(null)]).authenticateToken('t', [])).to.equal(null);
  });

  it('rejections without a success are thrown together', async () => {
    const err = await authenticationRejection(new TokenUnion([token(new AuthenticationError('a')), token(null), token(new AuthenticationError('b'))]).authenticateToken('t', []));
    expect(err.message).to.equal('[a, b]');
  });
});

describe('authentication/union: anonymousAllowed (upstream ApplyAuthorization)', () => {
  const rows: Array<[boolean, string[], boolean]> = [
    [true, [], true],
    [true, ['Node', 'RBAC'], true],
    [true, ['AlwaysAllow'], false],
    [true, ['RBAC', 'AlwaysAllow'], false],
    [false, ['RBAC'], false],
  ];
  for (const [flag, modes, want] of rows) {
    it(`--anonymous-auth=${flag} --authorization-mode=${modes.join(',')} → ${want}`, () => expect(anonymousAllowed(flag, modes)).to.equal(want));
  }
});

describe('authentication/union: reviewToken (what a TokenReview sees)', () => {
  const union = (anonymous: boolean, ...tokens: TokenAuthenticator[]) =>
    new UnionAuthenticator([new BearerTokenAuthenticator(new TokenUnion(tokens))], { anonymous, apiAudiences: ['api'] });

  it('a known token: its user, with system:authenticated', async () => {
    const out = await union(true, token('alice')).reviewToken('t', ['api']);
    expect(out.result?.user).to.deep.equal({ name: 'alice', groups: ['system:authenticated'] });
    expect(out.error).to.equal(undefined);
  });

  it('an unknown token: the error "invalid bearer token"', async () => {
    expect(await union(true, token(null)).reviewToken('t', ['api'])).to.deep.equal({ error: 'invalid bearer token' });
  });

  it("rejections: upstream's aggregate text", async () => {
    const out = await union(true, token(new AuthenticationError('token has expired')), token(new AuthenticationError('square/go-jose: error'))).reviewToken('t', []);
    expect(out).to.deep.equal({ error: '[token has expired, square/go-jose: error]' });
  });

  it('a token starting with a space is no bearer token: anonymous when allowed, else nothing (as upstream)', async () => {
    expect((await union(true, token('alice')).reviewToken(' t', ['api'])).result?.user.name).to.equal('system:anonymous');
    expect(await union(false, token('alice')).reviewToken(' t', ['api'])).to.deep.equal({});
  });
});
