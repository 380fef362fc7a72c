import { expect } from 'chai';
import type { IncomingMessage } from 'node:http';
import { BearerTokenAuthenticator, EXTRA_SPACE_WARNING, bearerToken, parseBearer } from '../../../lib/authentication/bearer-token.js';
import { type AuthResult, AuthenticationError, type TokenAuthenticator } from '../../../lib/authentication/interface.js';
import { covers } from '../../conformance/covers.js';

/** A request with only headers. */
const request = (headers: Record<string, string> = {}) => ({ headers: { ...headers } }) as unknown as IncomingMessage;
/** A token authenticator knowing `tokens` (token → user name), recording what it was asked. */
function tokens(known: Record<string, string>): TokenAuthenticator & { asked: [string, readonly string[]][] } {
  const asked: [string, readonly string[]][] = [];
  return {
    asked,
    authenticateToken: async (t: string, audiences: readonly string[]): Promise<AuthResult | null> => {
      asked.push([t, audiences]);
      return known[t] ? { user: { name: known[t]!, groups: [] } } : null;
    },
  };
}
/** Call options recording warnings. */
function options(audiences: readonly string[] = []) {
  const warnings: string[] = [];
  return { audiences, warn: (t: string) => warnings.push(t), warnings };
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
    ['a scheme and a space', 'Bearer ', ''],
    ['two spaces before the token: empty token', 'Bearer  abc', ''],
    ['a tab is not a separator', 'Bearer\tabc', ''],
    ['only the first word after the scheme is the token', 'Bearer abc def', 'abc'],
    ['a token with base64 padding and dots', 'Bearer a.b.c==', 'a.b.c=='],
    ['a non-breaking space (latin1 0xA0) is part of the token, not trimmed', 'Bearer abc\u00a0', 'abc\u00a0'],
  ];
  for (const [what, header, token] of rows) {
    it(`${what}: ${JSON.stringify(header)} → ${JSON.stringify(token)}`, () => {
      expect(bearerToken(request(header === undefined ? {} : { authorization: header }))).to.equal(token);
    });
  }

  it('tells the two-spaces case apart (upstream warns about it)', () => {
    expect(parseBearer(request({ authorization: 'Bearer  abc' }))).to.deep.equal({ token: '', extraSpace: true });
    expect(parseBearer(request({ authorization: 'Bearer abc  def' }))).to.deep.equal({ token: 'abc', extraSpace: false });
  });
});

describe('authentication/bearer-token: BearerTokenAuthenticator (spec 001 § Authentication)', () => {
  it("no bearer token: not this method's (null), the token authenticator not asked", async () => {
    const t = tokens({ abc: 'alice' });
    expect(await new BearerTokenAuthenticator(t).authenticateRequest(request(), options())).to.equal(null);
    expect(t.asked).to.deep.equal([]);
  });

  it(`a known token authenticates its user, asked for the audiences of the call${covers('001 § Methods › Bearer token')}`, async () => {
    const t = tokens({ abc: 'alice' });
    const res = await new BearerTokenAuthenticator(t).authenticateRequest(request({ authorization: 'Bearer abc' }), options(['api']));
    expect(res?.user.name).to.equal('alice');
    expect(t.asked).to.deep.equal([['abc', ['api']]]);
  });

  it('a token nobody knows is rejected with "invalid bearer token"', async () => {
    let caught: unknown;
    try {
      await new BearerTokenAuthenticator(tokens({})).authenticateRequest(request({ authorization: 'Bearer nope' }), options());
    } catch (err) {
      caught = err;
    }
    expect(caught).to.be.instanceOf(AuthenticationError);
    expect((caught as Error).message).to.equal('invalid bearer token');
  });

  it("the token authenticator's own rejection passes through", async () => {
    const rejecting: TokenAuthenticator = {
      authenticateToken: async () => {
        throw new AuthenticationError('token has expired');
      },
    };
    let caught: unknown;
    await new BearerTokenAuthenticator(rejecting).authenticateRequest(request({ authorization: 'Bearer x' }), options()).catch((e: unknown) => (caught = e));
    expect((caught as Error).message).to.equal('token has expired');
  });

  it('"Bearer  x" (two spaces) is ignored with upstream\'s warning', async () => {
    const t = tokens({ x: 'alice' });
    const o = options();
    expect(await new BearerTokenAuthenticator(t).authenticateRequest(request({ authorization: 'Bearer  x' }), o)).to.equal(null);
    expect(o.warnings).to.deep.equal([EXTRA_SPACE_WARNING]);
    expect(t.asked).to.deep.equal([]);
  });

  it('a rejected token leaves the header in place', async () => {
    const req = request({ authorization: 'Bearer nope' });
    await new BearerTokenAuthenticator(tokens({})).authenticateRequest(req, options()).catch(() => undefined);
    expect(req.headers.authorization).to.equal('Bearer nope');
  });
});
