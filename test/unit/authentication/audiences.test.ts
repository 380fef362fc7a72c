import { expect } from 'chai';
import type { IncomingMessage } from 'node:http';
import { audienceAgnosticRequest, audienceAgnosticToken, audiencesAreAcceptable, intersectAudiences } from '../../../lib/authentication/audiences.js';
import type { AuthResult, RequestAuthenticator, TokenAuthenticator } from '../../../lib/authentication/interface.js';

/** A token authenticator that knows every token, counting calls. */
function everyToken(): TokenAuthenticator & { calls: number } {
  const t = {
    calls: 0,
    authenticateToken: async (): Promise<AuthResult | null> => {
      t.calls++;
      return { user: { name: 'alice', groups: [] } };
    },
  };
  return t;
}

describe('authentication/audiences (issue #10 item 9)', () => {
  it('intersectAudiences keeps the order of the first list', () => {
    expect(intersectAudiences(['a', 'b', 'c'], ['c', 'a', 'x'])).to.deep.equal(['a', 'c']);
    expect(intersectAudiences([], ['a'])).to.deep.equal([]);
  });

  const acceptable: Array<[string[], string[] | undefined, boolean]> = [
    [[], ['x'], true],
    [['api'], undefined, true],
    [['api'], [], true],
    [['api'], ['api', 'x'], true],
    [['api'], ['x'], false],
  ];
  for (const [api, found, want] of acceptable) {
    it(`audiencesAreAcceptable(${JSON.stringify(api)}, ${JSON.stringify(found)}) = ${want}`, () => expect(audiencesAreAcceptable(api, found)).to.equal(want));
  }

  describe('audienceAgnosticToken (upstream WrapAudienceAgnosticToken)', () => {
    it('no audiences asked: the method answers as it is, without audiences', async () => {
      const res = await audienceAgnosticToken(['api'], everyToken()).authenticateToken('t', []);
      expect(res).to.deep.equal({ user: { name: 'alice', groups: [] } });
    });

    it('asked for the API audiences: valid for them', async () => {
      expect((await audienceAgnosticToken(['api', 'other'], everyToken()).authenticateToken('t', ['api']))?.audiences).to.deep.equal(['api']);
    });

    it('asked for audiences outside the API audiences: not this method\'s token, the method not even asked', async () => {
      const inner = everyToken();
      expect(await audienceAgnosticToken(['api'], inner).authenticateToken('t', ['vault'])).to.equal(null);
      expect(inner.calls).to.equal(0);
    });

    it('no API audiences configured: any asked audience is outside them', async () => {
      expect(await audienceAgnosticToken([], everyToken()).authenticateToken('t', ['api'])).to.equal(null);
    });

    it('an unknown token stays unknown', async () => {
      const unknown: TokenAuthenticator = { authenticateToken: async () => null };
      expect(await audienceAgnosticToken(['api'], unknown).authenticateToken('t', ['api'])).to.equal(null);
    });
  });

  describe('audienceAgnosticRequest (upstream WrapAudienceAgnosticRequest)', () => {
    const proxy: RequestAuthenticator = { authenticateRequest: async () => ({ user: { name: 'proxied', groups: [] } }) };
    const req = { headers: {} } as IncomingMessage;
    const warn = () => undefined;

    it('asked for the API audiences: valid for them', async () => {
      expect((await audienceAgnosticRequest(['api'], proxy).authenticateRequest(req, { audiences: ['api'], warn }))?.audiences).to.deep.equal(['api']);
    });

    it('asked for other audiences: not this method\'s', async () => {
      expect(await audienceAgnosticRequest(['api'], proxy).authenticateRequest(req, { audiences: ['x'], warn })).to.equal(null);
    });
  });
});
