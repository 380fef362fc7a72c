import { expect } from 'chai';
import type { IncomingMessage } from 'node:http';
import { type AuthResult, AuthenticationError, type RequestAuthenticator } from '../../../lib/authentication/interface.js';
import { UnionAuthenticator } from '../../../lib/authentication/union.js';

const req = { headers: {} } as unknown as IncomingMessage;

/** A method answering `result` (a user name, null for "not mine", or an Error to throw), recording calls. */
function method(result: string | null | Error, groups: string[] = []): RequestAuthenticator & { calls: number } {
  const m = {
    calls: 0,
    authenticateRequest: async (): Promise<AuthResult | null> => {
      m.calls++;
      if (result instanceof Error) throw result;
      return result === null ? null : { user: { name: result, groups: [...groups] } };
    },
  };
  return m;
}

/** The AuthenticationError `p` rejects with. */
async function rejection(p: Promise<unknown>): Promise<AuthenticationError> {
  try {
    await p;
  } catch (err) {
    expect(err).to.be.instanceOf(AuthenticationError);
    return err as AuthenticationError;
  }
  expect.fail('expected an AuthenticationError');
}

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
    await rejection(new UnionAuthenticator([method(null)], { anonymous: false }).authenticate(req));
  });

  it('a rejected credential is unauthorized even when anonymous requests are allowed', async () => {
    const err = await rejection(new UnionAuthenticator([method(new AuthenticationError('invalid bearer token')), method(null)], { anonymous: true }).authenticate(req));
    expect(err.message).to.equal('invalid bearer token');
  });

  it('a rejection does not stop later methods: one that succeeds wins', async () => {
    const res = await new UnionAuthenticator([method(new AuthenticationError('bad cert')), method('bob')], { anonymous: true }).authenticate(req);
    expect(res.user.name).to.equal('bob');
  });

  it('all rejections are reported together', async () => {
    const err = await rejection(
      new UnionAuthenticator([method(new AuthenticationError('bad cert')), method(new AuthenticationError('invalid bearer token'))], { anonymous: true }).authenticate(req),
    );
    expect(err.message).to.equal('bad cert, invalid bearer token');
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
});
