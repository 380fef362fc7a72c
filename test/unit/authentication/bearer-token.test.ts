import { expect } from 'chai';
import type { IncomingMessage } from 'node:http';
import { BearerTokenAuthenticator, bearerToken } from '../../../lib/authentication/bearer-token.js';
import { type AuthResult, AuthenticationError, type TokenAuthenticator } from '../../../lib/authentication/interface.js';

/** A request with only headers. */
const request = (headers: Record<string, string> = {}) => ({ headers: { ...headers } }) as unknown as IncomingMessage;
/** A token authenticator knowing `tokens` (token → user name), recording what it was asked. */
function tokens(known: Record<string, string>): TokenAuthenticator & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    authenticateToken: async (t: string): Promise<AuthResult | null> => {
      asked.push(t);
      return known[t] ? { user: { name: known[t]!, groups: [] } } : null;
    },
  };
}

describe('authentication/bearer-token: reading the Authorization header (upstream bearertoken)', () => {
  const rows: Array<[string, string | undefined, string]> = [
    ['no header', undefined, ''],
    ['an empty header', '', ''],
    ['Bearer <token>', 'Bearer abc', 'abc'],
    ['the scheme in any case', 'bEaReR abc', 'abc'],
    ['surrounding whitespace is trimmed', '  Bearer abc  ', 'abc'],
    ['another scheme', 'Basic dXNlcjpwYXNz', ''],
    ['a scheme without token', 'Bearer', ''],
    ['two spaces before the token: empty token', 'Bearer  abc', ''],
    ['a tab is not a separator', 'Bearer\tabc', ''],
    ['only the first word after the scheme is the token', 'Bearer abc def', 'abc'],
    ['a token with base64 padding and dots', 'Bearer a.b.c==', 'a.b.c=='],
  ];
  for (const [what, header, token] of rows) {
    it(`${what}: ${JSON.stringify(header)} → ${JSON.stringify(token)}`, () => {
      expect(bearerToken(request(header === undefined ? {} : { authorization: header }))).to.equal(token);
    });
  }
});

describe('authentication/bearer-token: BearerTokenAuthenticator (spec 001 § Authentication)', () => {
  it('no bearer token: not this method\'s (null), no token authenticator asked', async () => {
    const t = tokens({ abc: 'alice' });
    expect(await new BearerTokenAuthenticator([t]).authenticateRequest(request())).to.equal(null);
    expect(t.asked).to.deep.equal([]);
  });

  it('a known token authenticates its user', async () => {
    const res = await new BearerTokenAuthenticator([tokens({ abc: 'alice' })]).authenticateRequest(request({ authorization: 'Bearer abc' }));
    expect(res?.user.name).to.equal('alice');
  });

  it('token authenticators are asked in order; the first that knows the token decides', async () => {
    const first = tokens({});
    const second = tokens({ abc: 'bob' });
    const third = tokens({ abc: 'carol' });
    const res = await new BearerTokenAuthenticator([first, second, third]).authenticateRequest(request({ authorization: 'Bearer abc' }));
    expect(res?.user.name).to.equal('bob');
    expect([first.asked, second.asked, third.asked]).to.deep.equal([['abc'], ['abc'], []]);
  });

  it('a token nobody knows is rejected with "invalid bearer token"', async () => {
    let caught: unknown;
    try {
      await new BearerTokenAuthenticator([tokens({})]).authenticateRequest(request({ authorization: 'Bearer nope' }));
    } catch (err) {
      caught = err;
    }
    expect(caught).to.be.instanceOf(AuthenticationError);
    expect((caught as Error).message).to.equal('invalid bearer token');
  });

  it('a successful authentication removes the Authorization header from the request', async () => {
    const req = request({ authorization: 'Bearer abc' });
    await new BearerTokenAuthenticator([tokens({ abc: 'alice' })]).authenticateRequest(req);
    expect(req.headers).to.not.have.property('authorization');
  });

  it('a rejected token leaves the header in place', async () => {
    const req = request({ authorization: 'Bearer nope' });
    await new BearerTokenAuthenticator([tokens({})]).authenticateRequest(req).catch(() => undefined);
    expect(req.headers.authorization).to.equal('Bearer nope');
  });
});
