import { expect } from 'chai';
import {
  bootstrapGroups,
  parseBootstrapToken,
  tokenExpiration,
  tokenIDFromSecretName,
} from '../../../lib/apimachinery/bootstrap-token.js';
import { goRFC3339Millis as parseRFC3339 } from '../../../lib/apimachinery/go-time.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const secretWith = (data: Record<string, string>) => ({ data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])) });

describe('apimachinery/bootstrap-token (upstream cluster-bootstrap; spec 001 § Bootstrap tokens)', () => {
  const tokens: Array<[string, { id: string; secret: string } | undefined]> = [
    ['abcdef.0123456789abcdef', { id: 'abcdef', secret: '0123456789abcdef' }],
    ['ABCDEF.0123456789abcdef', undefined],
    ['abcdef.0123456789abcde', undefined],
    ['abcdef0123456789abcdef', undefined],
    ['abcdef.0123456789abcdef\n', undefined],
    [' abcdef.0123456789abcdef', undefined],
    ['abcdefg.0123456789abcdef', undefined],
  ];
  for (const [text, want] of tokens) {
    it(`parses ${JSON.stringify(text)} as ${want ? 'a token' : 'not a token'}`, () => {
      expect(parseBootstrapToken(text)).to.deep.equal(want);
    });
  }

  it('reads the token id from the Secret name', () => {
    expect(tokenIDFromSecretName('bootstrap-token-abcdef')).to.equal('abcdef');
    expect(tokenIDFromSecretName('bootstrap-token-abcdefg')).to.equal(undefined);
    expect(tokenIDFromSecretName('token-abcdef')).to.equal(undefined);
  });

  const times: Array<[string, number | undefined]> = [
    ['2030-01-02T03:04:05Z', Date.UTC(2030, 0, 2, 3, 4, 5)],
    ['2030-01-02T03:04:05+01:00', Date.UTC(2030, 0, 2, 2, 4, 5)],
    ['2030-01-02T03:04:05.5Z', Date.UTC(2030, 0, 2, 3, 4, 5, 500)],
    ['2030-01-02 03:04:05Z', undefined],
    ['2030-01-02T03:04:05', undefined],
    ['2030-13-02T03:04:05Z', undefined],
    ['2030-01-02T24:00:00Z', undefined],
    ['2030-01-02T03:04:05+24:00', Date.UTC(2030, 0, 1, 3, 4, 5)],
    ['2030-01-02T03:04:05+25:00', undefined],
    ['2030-02-30T03:04:05Z', undefined],
    ['', undefined],
  ];
  for (const [text, want] of times) {
    it(`parses ${JSON.stringify(text)} as RFC 3339: ${want}`, () => {
      expect(parseRFC3339(text)).to.equal(want);
    });
  }

  it('tells expiry as upstream GetExpiration: none never expires, unparseable has expired, the instant itself has expired', () => {
    const now = Date.UTC(2030, 0, 1);
    expect(tokenExpiration(secretWith({}), now)).to.deep.equal({ expired: false });
    expect(tokenExpiration(secretWith({ expiration: 'soon' }), now)).to.deep.equal({ expired: true });
    expect(tokenExpiration(secretWith({ expiration: '2030-01-01T00:00:00Z' }), now)).to.deep.equal({ expired: true });
    expect(tokenExpiration(secretWith({ expiration: '2030-01-01T00:00:10Z' }), now)).to.deep.equal({ expired: false, remainingMs: 10_000 });
  });

  it('gives system:bootstrappers plus the extra groups, sorted and deduplicated', () => {
    expect(bootstrapGroups(secretWith({}))).to.deep.equal(['system:bootstrappers']);
    expect(bootstrapGroups(secretWith({ 'auth-extra-groups': 'system:bootstrappers:b,system:bootstrappers:a,system:bootstrappers:b' }))).to.deep.equal([
      'system:bootstrappers',
      'system:bootstrappers:a',
      'system:bootstrappers:b',
    ]);
  });

  it('refuses an extra group outside system:bootstrappers: with upstream message', () => {
    expect(() => bootstrapGroups(secretWith({ 'auth-extra-groups': 'system:bootstrappers:a,admins' }))).to.throw(
      'bootstrap group "admins" is invalid (must match \\Asystem:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]\\z)',
    );
  });
});
