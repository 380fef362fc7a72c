import { expect } from 'chai';
import { checkAudiences, checkToken, untrustedIssuer } from '../../../../lib/authentication/jwt/token.js';

const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
/** An unsigned compact token (the checks before the signature do not look at it). */
const token = (claims: Record<string, unknown>, header: Record<string, unknown> = { alg: 'RS256' }) => `${enc(header)}.${enc(claims)}.c2ln`;

const NOW = Date.UTC(2024, 4, 1, 10, 0, 0);
const base = { iss: 'https://idp', aud: 'app', sub: 'alice', exp: NOW / 1000 + 60 };
const opts = { issuer: 'https://idp', audiences: ['app'], signingAlgs: ['RS256'], now: NOW };

/** The checks of an ID token before its signature, in upstream's order and words (spec 001 § OpenID Connect flags). */
describe('ID token checks (spec 001 § OpenID Connect flags)', () => {
  it('reads the unverified issuer of compact JWTs only', () => {
    expect(untrustedIssuer(token(base))).to.equal('https://idp');
    expect(untrustedIssuer(token({ ...base, iss: 'accounts.google.com' }))).to.equal('https://accounts.google.com');
    expect(untrustedIssuer(token({ sub: 'x' }))).to.equal('');
    expect(untrustedIssuer(token({ ...base, iss: 7 }))).to.equal(undefined);
    expect(untrustedIssuer(`{"payload":"${enc(base)}"}`)).to.equal(undefined);
    expect(untrustedIssuer('a.b')).to.equal(undefined);
    expect(untrustedIssuer(`x.${enc(base)}=.y`)).to.equal(undefined);
  });

  const table: Array<[string, string, string | undefined]> = [
    ['a valid token', token(base), undefined],
    ['aud as a list', token({ ...base, aud: ['x', 'app'] }), undefined],
    ['two parts', 'a.b', 'oidc: malformed jwt: square/go-jose: compact JWS format must have three parts'],
    ['another audience', token({ ...base, aud: ['x', 'y'] }), 'oidc: expected audience "app" got ["x" "y"]'],
    ['exp a second ago', token({ ...base, exp: NOW / 1000 - 1 }), 'oidc: token is expired (Token Expiry: 2024-05-01 09:59:59 +0000 UTC)'],
    ['exp now', token({ ...base, exp: NOW / 1000 }), undefined],
    ['nbf 61 s ahead', token({ ...base, nbf: NOW / 1000 + 61 }), 'oidc: current time 2024-05-01 10:00:00 +0000 UTC before the nbf (not before) time: 2024-05-01 10:01:01 +0000 UTC'],
    ['nbf 60 s ahead', token({ ...base, nbf: NOW / 1000 + 60 }), undefined],
    ['iat in the future (not checked)', token({ ...base, iat: NOW / 1000 + 3600 }), undefined],
    ['expired and alg none: expiry first', token({ ...base, exp: 1 }, { alg: 'none' }), 'oidc: token is expired (Token Expiry: 1970-01-01 00:00:01 +0000 UTC)'],
    ['alg none', token(base, { alg: 'none' }), 'oidc: id token signed with unsupported algorithm, expected ["RS256"] got "none"'],
    ['a numeric sub', token({ ...base, sub: 1 }), 'oidc: failed to unmarshal claims: json: cannot unmarshal number into Go struct field idToken.sub of type string'],
  ];
  for (const [title, raw, message] of table) {
    it(`${message ? 'rejects' : 'passes'} ${title}`, () => {
      if (message === undefined) expect(() => checkToken(raw, opts)).not.to.throw();
      else expect(() => checkToken(raw, opts)).to.throw(Error).with.property('message', message);
    });
  }

  it('matches any of several audiences after the signature (MatchAny)', () => {
    const t = checkToken(token({ ...base, aud: ['b', 'z'] }), { ...opts, audiences: ['b', 'a'] });
    expect(() => checkAudiences(t, ['b', 'a'])).not.to.throw();
    const other = checkToken(token({ ...base, aud: 'z' }), { ...opts, audiences: ['b', 'a'] });
    expect(() => checkAudiences(other, ['b', 'a'])).to.throw('oidc: expected audience in ["a" "b"] got ["z"]');
  });
});
