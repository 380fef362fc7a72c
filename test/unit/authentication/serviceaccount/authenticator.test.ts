import { expect } from 'chai';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { CompactSign } from 'jose';
import {
  LEGACY_SERVICE_ACCOUNT_ISSUER,
  LEGACY_TOKEN_INVALID_SINCE_LABEL,
  LEGACY_TOKEN_LAST_USED_LABEL,
  SERVICE_ACCOUNT_PRIVATE_CLAIM,
  authenticationKey,
  legacyServiceAccountClaim,
} from '../../../../lib/apis/vendor.js';
import { ServiceAccountTokenAuthenticator } from '../../../../lib/authentication/serviceaccount/authenticator.js';
import { type APIObject, BoundTokenValidator, type ServiceAccountTokenGetter } from '../../../../lib/authentication/serviceaccount/claims.js';
import { type ServiceAccountPublicKey, keyIdOf } from '../../../../lib/authentication/serviceaccount/keys.js';
import { LegacyTokenValidator } from '../../../../lib/authentication/serviceaccount/legacy.js';
import { rejection } from '../../../framework/authentication.js';

const ISS = 'https://iss';
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
const pub = (k: typeof rsa, algorithm: ServiceAccountPublicKey['algorithm']): ServiceAccountPublicKey => ({ keyId: keyIdOf(createPublicKey(k)), key: createPublicKey(k), algorithm });
const KEYS = [pub(rsa, 'RS256'), pub(ec, 'ES256')];

/** The objects a test's getter answers, by `kind/namespace/name`. */
function getter(objects: Record<string, APIObject>): ServiceAccountTokenGetter {
  const read = (kind: string) => async (ns: string, name: string) => objects[`${kind}/${ns}/${name}`] ?? null;
  return { getServiceAccount: read('sa'), getPod: read('pod'), getSecret: read('secret'), getNode: async (name) => objects[`node//${name}`] ?? null };
}

const meta = (name: string, uid: string, extra: Record<string, unknown> = {}) => ({ metadata: { name, namespace: 'ns', uid, ...extra } });
const now = () => Math.floor(Date.now() / 1000);

function claims(over: Record<string, unknown> = {}, priv: Record<string, unknown> = {}): Record<string, unknown> {
  const t = now();
  return { iss: ISS, aud: ['api'], exp: t + 600, iat: t, nbf: t, jti: 'the-jti', sub: 'system:serviceaccount:ns:robot', [SERVICE_ACCOUNT_PRIVATE_CLAIM]: { namespace: 'ns', serviceaccount: { name: 'robot', uid: 'sa-uid' }, ...priv }, ...over };
}

function sign(payload: Record<string, unknown>, header: Record<string, unknown> = { alg: 'RS256' }, key: typeof rsa = rsa): Promise<string> {
  return new CompactSign(new TextEncoder().encode(JSON.stringify(payload))).setProtectedHeader(header as { alg: string }).sign(key);
}

function bound(objects: Record<string, APIObject>, implicitAudiences = ['api']): ServiceAccountTokenAuthenticator {
  return new ServiceAccountTokenAuthenticator({ issuers: [ISS], keys: KEYS, implicitAudiences, validator: new BoundTokenValidator(getter(objects)) });
}


const SA = { 'sa/ns/robot': meta('robot', 'sa-uid') };

describe('authentication/serviceaccount/authenticator (upstream JWTTokenAuthenticator, v1.30)', () => {
  describe('"not mine" (null)', () => {
    const notMine: Array<[string, () => Promise<string>]> = [
      ['a token that is not three dot-separated parts', async () => 'abc'],
      ['a JSON object', async () => ' {"iss":"https://iss"}'],
      ['a payload that is not base64url', async () => 'a.b*c.d'],
      ['a payload that is not a JSON object', async () => `a.${Buffer.from('[1]').toString('base64url')}.c`],
      ['another issuer', () => sign(claims({ iss: 'https://other' }))],
      ['an iss that is not a string', () => sign(claims({ iss: 7 }))],
      ['a header that is not JSON', async () => `x.${Buffer.from(JSON.stringify(claims())).toString('base64url')}.c`],
      ['a signature that is not base64url', async () => `${Buffer.from('{"alg":"RS256"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims())).toString('base64url')}.!!`],
    ];
    for (const [title, make] of notMine) {
      it(title, async () => {
        expect(await bound(SA).authenticateToken(await make(), [])).to.equal(null);
      });
    }
  });

  it('authenticates a valid token: the service account user, the audiences asked that the token names', async () => {
    const res = await bound(SA).authenticateToken(await sign(claims({ aud: ['x', 'api'] })), ['api', 'y']);
    expect(res).to.deep.equal({
      user: {
        name: 'system:serviceaccount:ns:robot',
        uid: 'sa-uid',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'],
        extra: { [authenticationKey('credential-id')]: ['JTI=the-jti'] },
      },
      audiences: ['api'],
    });
  });

  it('asks for the API audiences when the caller names none; a token without aud counts as for them', async () => {
    expect((await bound(SA).authenticateToken(await sign(claims({ aud: ['api'] })), []))?.audiences).to.deep.equal(['api']);
    expect((await bound(SA).authenticateToken(await sign(claims({ aud: undefined })), []))?.audiences).to.deep.equal(['api']);
    expect((await bound(SA).authenticateToken(await sign(claims({ aud: 'api' })), []))?.audiences).to.deep.equal(['api']);
  });

  it('rejects a token for other audiences with upstream\'s message; without API audiences anything goes', async () => {
    expect(await rejection(bound(SA).authenticateToken(await sign(claims({ aud: ['a', 'b'] })), ['api']))).to.equal(
      'token audiences ["a" "b"] is invalid for the target audiences ["api"]',
    );
    expect((await bound(SA, []).authenticateToken(await sign(claims({ aud: ['a'] })), []))?.audiences).to.deep.equal([]);
  });

  it('verifies with the key of the kid first, then every other key (rotated keys keep working)', async () => {
    const t = await sign(claims(), { alg: 'ES256', kid: keyIdOf(createPublicKey(rsa)) }, ec);
    expect(await bound(SA).authenticateToken(t, [])).not.to.equal(null);
  });

  const rejected: Array<[string, () => Promise<string>, string]> = [
    // Every key is tried: the RSA key finds the signature wrong, the ECDSA key cannot do RS256 (upstream's aggregate).
    ['a bad signature', async () => (await sign(claims())).slice(0, -4) + 'AAAA', '[square/go-jose: error in cryptographic primitive, square/go-jose: unknown/unsupported algorithm]'],
    ['a key outside the set', () => sign(claims(), { alg: 'ES256' }, generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey), '[square/go-jose: unknown/unsupported algorithm, square/go-jose: error in cryptographic primitive]'],
    [
      'alg none',
      async () => `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims())).toString('base64url')}.`,
      'square/go-jose: unknown/unsupported algorithm',
    ],
    [
      'HS256 keyed with the public key',
      () => new CompactSign(new TextEncoder().encode(JSON.stringify(claims()))).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(createPublicKey(rsa).export({ type: 'spki', format: 'pem' }) as string)),
      'square/go-jose: unknown/unsupported algorithm',
    ],
    ['an expired token (past the minute of leeway)', () => sign(claims({ exp: now() - 61 })), 'service account token has expired'],
    ['a token not valid yet (past the leeway)', () => sign(claims({ nbf: now() + 120 })), 'service account token is not valid yet'],
    ['a token issued in the future', () => sign(claims({ iat: now() + 120 })), 'service account token is issued in the future'],
    ['an exp that is not a number', () => sign(claims({ exp: '1' })), 'json: cannot unmarshal exp claim'],
    ['an aud list with a number', () => sign(claims({ aud: ['api', 1] })), 'json: cannot unmarshal aud claim'],
  ];
  for (const [title, make, message] of rejected) {
    it(`rejects ${title}: "${message}"`, async () => {
      expect(await rejection(bound(SA).authenticateToken(await make(), []))).to.equal(message);
    });
  }

  it('tolerates a minute of clock skew on exp and nbf', async () => {
    expect(await bound(SA).authenticateToken(await sign(claims({ exp: now() - 30, nbf: now() + 30 })), [])).not.to.equal(null);
  });

  describe('bound token lookups (upstream validator.Validate)', () => {
    const ago = (s: number) => new Date(Date.now() - s * 1000).toISOString();
    const cases: Array<[string, Record<string, APIObject>, Record<string, unknown>, string]> = [
      ['a missing service account', {}, {}, 'serviceaccounts "robot" not found'],
      ['a service account with another uid', { 'sa/ns/robot': meta('robot', 'new') }, {}, 'service account UID (new) does not match claim (sa-uid)'],
      ['a service account deleted over a minute ago', { 'sa/ns/robot': meta('robot', 'sa-uid', { deletionTimestamp: ago(120) }) }, {}, 'service account ns/robot has been deleted'],
      ['a missing bound Secret', SA, { secret: { name: 's', uid: 's1' } }, 'service account token has been invalidated'],
      ['a bound Secret with another uid', { ...SA, 'secret/ns/s': meta('s', 's2') }, { secret: { name: 's', uid: 's1' } }, 'secret UID (s2) does not match service account secret ref claim (s1)'],
      ['a bound Secret being deleted for over a minute', { ...SA, 'secret/ns/s': meta('s', 's1', { deletionTimestamp: ago(61) }) }, { secret: { name: 's', uid: 's1' } }, 'service account token has been invalidated'],
      ['a missing bound Pod', SA, { pod: { name: 'p', uid: 'p1' } }, 'service account token has been invalidated'],
      ['a bound Pod with another uid', { ...SA, 'pod/ns/p': meta('p', 'p2') }, { pod: { name: 'p', uid: 'p1' } }, 'pod UID (p2) does not match service account pod ref claim (p1)'],
      ['a bound Pod deleted over a minute ago', { ...SA, 'pod/ns/p': meta('p', 'p1', { deletionTimestamp: ago(90) }) }, { pod: { name: 'p', uid: 'p1' } }, 'service account token has been invalidated'],
      ['a missing bound Node', SA, { node: { name: 'n', uid: 'n1' } }, 'service account token has been invalidated'],
      ['a bound Node with another uid', { ...SA, 'node//n': { metadata: { name: 'n', uid: 'n2' } } }, { node: { name: 'n', uid: 'n1' } }, 'node UID (n2) does not match service account node ref claim (n1)'],
    ];
    for (const [title, objects, priv, message] of cases) {
      it(`rejects ${title}: "${message}"`, async () => {
        expect(await rejection(bound(objects).authenticateToken(await sign(claims({}, priv)), []))).to.equal(message);
      });
    }

    it('keeps a Pod-bound token valid while the Pod is within a minute of its deletion time', async () => {
      const objects = { ...SA, 'pod/ns/p': meta('p', 'p1', { deletionTimestamp: ago(30) }) };
      expect(await bound(objects).authenticateToken(await sign(claims({}, { pod: { name: 'p', uid: 'p1' } })), [])).not.to.equal(null);
    });

    it('puts the bound Pod and its Node in the user\'s extra; a Node-bound token names its Node', async () => {
      const podRes = await bound({ ...SA, 'pod/ns/p': meta('p', 'p1') }).authenticateToken(await sign(claims({ jti: undefined }, { pod: { name: 'p', uid: 'p1' }, node: { name: 'n', uid: 'n1' } })), []);
      expect(podRes?.user.extra).to.deep.equal({
        [authenticationKey('pod-name')]: ['p'],
        [authenticationKey('pod-uid')]: ['p1'],
        [authenticationKey('node-name')]: ['n'],
        [authenticationKey('node-uid')]: ['n1'],
      });
      const nodeRes = await bound({ ...SA, 'node//n': { metadata: { name: 'n', uid: 'n1' } } }).authenticateToken(await sign(claims({ jti: undefined }, { node: { name: 'n', uid: 'n1' } })), []);
      expect(nodeRes?.user.extra).to.deep.equal({ [authenticationKey('node-name')]: ['n'], [authenticationKey('node-uid')]: ['n1'] });
    });

    it('turns a failed read into a rejection with its message', async () => {
      const failing: ServiceAccountTokenGetter = { ...getter(SA), getServiceAccount: async () => Promise.reject(new Error('etcd is down')) };
      const a = new ServiceAccountTokenAuthenticator({ issuers: [ISS], keys: KEYS, implicitAudiences: [], validator: new BoundTokenValidator(failing) });
      expect(await rejection(a.authenticateToken(await sign(claims()), []))).to.equal('etcd is down');
    });
  });

  describe('legacy Secret-based tokens (upstream legacyValidator.Validate)', () => {
    const LEGACY = LEGACY_SERVICE_ACCOUNT_ISSUER;
    const legacyClaims = (over: Record<string, unknown> = {}) => ({
      iss: LEGACY,
      sub: 'system:serviceaccount:ns:robot',
      [legacyServiceAccountClaim('namespace')]: 'ns',
      [legacyServiceAccountClaim('secret.name')]: 'tok',
      [legacyServiceAccountClaim('service-account.name')]: 'robot',
      [legacyServiceAccountClaim('service-account.uid')]: 'sa-uid',
      ...over,
    });
    function legacy(objects: Record<string, APIObject>, lookup = true, used: string[][] = []): ServiceAccountTokenAuthenticator {
      return new ServiceAccountTokenAuthenticator({
        issuers: [LEGACY],
        keys: KEYS,
        implicitAudiences: ['api'],
        validator: new LegacyTokenValidator(lookup, getter(objects), { markUsed: (...args) => used.push(args) }),
      });
    }
    const secretWith = (token: string, labels: Record<string, string> = {}) => ({ ...meta('tok', 'tok-uid', { labels }), data: { token: Buffer.from(token).toString('base64') } });

    it('accepts a token its Secret holds, for the API audiences, and records the use once a day', async () => {
      const token = await sign(legacyClaims());
      const used: string[][] = [];
      const res = await legacy({ ...SA, 'secret/ns/tok': secretWith(token) }, true, used).authenticateToken(token, []);
      expect(res).to.deep.equal({ user: { name: 'system:serviceaccount:ns:robot', uid: 'sa-uid', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'] }, audiences: ['api'] });
      const today = new Date().toISOString().slice(0, 10);
      expect(used).to.deep.equal([['ns', 'tok', 'tok-uid', today]]);
      await legacy({ ...SA, 'secret/ns/tok': secretWith(token, { [LEGACY_TOKEN_LAST_USED_LABEL]: today }) }, true, used).authenticateToken(token, []);
      expect(used).to.have.length(1);
    });

    const cases: Array<[string, Record<string, unknown>, (t: string) => Record<string, APIObject>, string]> = [
      ['no sub', { sub: undefined }, () => ({}), 'sub claim is missing'],
      ['no namespace claim', { [legacyServiceAccountClaim('namespace')]: '' }, () => ({}), 'namespace claim is missing'],
      ['no secret name claim', { [legacyServiceAccountClaim('secret.name')]: undefined }, () => ({}), 'secretName claim is missing'],
      ['a sub naming someone else', { sub: 'system:serviceaccount:ns:other' }, () => ({}), 'sub claim is invalid'],
      ['a missing Secret', {}, () => SA, 'Token has been invalidated'],
      ['a Secret holding another token', {}, () => ({ ...SA, 'secret/ns/tok': secretWith('other') }), "Token does not match server's copy"],
      ['a service account with another uid', {}, (t) => ({ 'sa/ns/robot': meta('robot', 'new'), 'secret/ns/tok': secretWith(t) }), 'ServiceAccount UID (new) does not match claim (sa-uid)'],
      [
        'a Secret marked invalid',
        {},
        (t) => ({ ...SA, 'secret/ns/tok': secretWith(t, { [LEGACY_TOKEN_INVALID_SINCE_LABEL]: '2024-01-01' }) }),
        `the token in secret ns/tok for service account ns/robot has been marked invalid. Use tokens from the TokenRequest API or manually created secret-based tokens, or remove the '${LEGACY_TOKEN_INVALID_SINCE_LABEL}' label from the secret to temporarily allow use of this token`,
      ],
    ];
    for (const [title, over, objects, message] of cases) {
      it(`rejects ${title}: "${message.slice(0, 60)}"`, async () => {
        const token = await sign(legacyClaims(over));
        expect(await rejection(legacy(objects(token)).authenticateToken(token, []))).to.equal(message);
      });
    }

    it('does not look anything up with --service-account-lookup=false', async () => {
      const used: string[][] = [];
      expect(await legacy({}, false, used).authenticateToken(await sign(legacyClaims()), [])).not.to.equal(null);
      expect(used).to.deep.equal([]);
    });
  });
});
