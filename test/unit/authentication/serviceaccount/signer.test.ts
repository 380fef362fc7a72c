import { expect } from 'chai';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { compactVerify } from 'jose';
import { SERVICE_ACCOUNT_PRIVATE_CLAIM } from '../../../../lib/apis/vendor.js';
import { boundTokenClaims } from '../../../../lib/authentication/serviceaccount/claims.js';
import { keyIdOf } from '../../../../lib/authentication/serviceaccount/keys.js';
import { BoundTokenIssuer, JWTTokenGenerator } from '../../../../lib/authentication/serviceaccount/signer.js';

const sa = { metadata: { name: 'robot', namespace: 'ns', uid: 'sa-uid' } };
const pod = { metadata: { name: 'p', namespace: 'ns', uid: 'pod-uid' } };
const node = { metadata: { name: 'n1', uid: 'node-uid' } };
const secret = { metadata: { name: 's', namespace: 'ns', uid: 'secret-uid' } };

function parts(token: string): { header: unknown; payloadText: string } {
  const [h, p] = token.split('.') as [string, string];
  return { header: JSON.parse(Buffer.from(h, 'base64url').toString()), payloadText: Buffer.from(p, 'base64url').toString() };
}

describe('authentication/serviceaccount/signer (upstream JWTTokenGenerator, Claims)', () => {
  const cases: Array<[string, Parameters<typeof generateKeyPairSync>[1] & object, string, string]> = [
    ['RSA', { modulusLength: 2048 }, 'rsa', 'RS256'],
    ['P-256', { namedCurve: 'P-256' }, 'ec', 'ES256'],
    ['P-384', { namedCurve: 'P-384' }, 'ec', 'ES384'],
    ['P-521', { namedCurve: 'P-521' }, 'ec', 'ES512'],
  ];
  for (const [name, options, type, alg] of cases) {
    it(`signs with ${alg} for a ${name} key, the header {alg, kid} only, verifiable with the public key`, async () => {
      const { privateKey } = generateKeyPairSync(type as 'rsa', options as { modulusLength: number });
      const g = new JWTTokenGenerator('https://iss', privateKey);
      const token = await g.generateToken({ sub: 'x' });
      expect(parts(token).header).to.deep.equal({ alg, kid: keyIdOf(createPublicKey(privateKey)) });
      await compactVerify(token, createPublicKey(privateKey), { algorithms: [alg] });
    });
  }

  it('refuses keys that are not RSA or ECDSA private keys', () => {
    expect(() => new JWTTokenGenerator('i', generateKeyPairSync('ed25519').privateKey)).to.throw('unknown private key type');
    expect(() => new JWTTokenGenerator('i', createPublicKey(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey))).to.throw('unknown private key type');
  });

  it('writes the claims with sorted keys at every level and the issuer\'s iss, as go-jose does', async () => {
    const g = new JWTTokenGenerator('https://iss', generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
    const token = await g.generateToken({ z: { b: 1, a: 2 }, iss: 'ignored', a: [{ y: 1, x: 2 }] });
    expect(parts(token).payloadText).to.equal('{"a":[{"x":2,"y":1}],"iss":"https://iss","z":{"a":2,"b":1}}');
  });

  it('lays out a Pod-bound token with the Pod\'s Node and warnafter (upstream Claims)', () => {
    const c = boundTokenClaims({ serviceAccount: sa, pod, node, expirationSeconds: 100, warnAfterSeconds: 10, audiences: ['a', 'b'], now: 1000, jti: 'j' });
    expect(c).to.deep.equal({
      aud: ['a', 'b'],
      exp: 1100,
      iat: 1000,
      jti: 'j',
      nbf: 1000,
      sub: 'system:serviceaccount:ns:robot',
      [SERVICE_ACCOUNT_PRIVATE_CLAIM]: { namespace: 'ns', serviceaccount: { name: 'robot', uid: 'sa-uid' }, pod: { name: 'p', uid: 'pod-uid' }, node: { name: 'n1', uid: 'node-uid' }, warnafter: 1010 },
    });
  });

  it('lays out a Secret-bound token; no aud without audiences, a Node without uid keeps its name', () => {
    const c = boundTokenClaims({ serviceAccount: sa, secret, expirationSeconds: 60, warnAfterSeconds: 0, audiences: [], now: 5, jti: 'j' });
    expect(c).not.to.have.property('aud');
    expect(c[SERVICE_ACCOUNT_PRIVATE_CLAIM]).to.deep.equal({ namespace: 'ns', serviceaccount: { name: 'robot', uid: 'sa-uid' }, secret: { name: 's', uid: 'secret-uid' } });
    const n = boundTokenClaims({ serviceAccount: sa, pod, node: { metadata: { name: 'gone' } }, expirationSeconds: 60, warnAfterSeconds: 0, audiences: [], now: 5, jti: 'j' });
    expect((n[SERVICE_ACCOUNT_PRIVATE_CLAIM] as { node: unknown }).node).to.deep.equal({ name: 'gone' });
  });

  it('refuses to bind one token to a Secret and a Pod', () => {
    expect(() => boundTokenClaims({ serviceAccount: sa, secret, pod, expirationSeconds: 60, warnAfterSeconds: 0, audiences: [], now: 5, jti: 'j' })).to.throw(
      'internal error, token can only be bound to one object type',
    );
  });

  it('issues tokens with a fresh jti each, at whole seconds', async () => {
    const issuer = new BoundTokenIssuer(new JWTTokenGenerator('https://iss', generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey));
    const now = new Date(1_700_000_000_900);
    const a = await issuer.issue({ serviceAccount: sa, expirationSeconds: 600, warnAfterSeconds: 0, audiences: ['x'], now });
    const b = await issuer.issue({ serviceAccount: sa, expirationSeconds: 600, warnAfterSeconds: 0, audiences: ['x'], now });
    expect(a.jti).not.to.equal(b.jti);
    const payload = JSON.parse(parts(a.token).payloadText) as Record<string, unknown>;
    expect(payload).to.include({ iat: 1_700_000_000, nbf: 1_700_000_000, exp: 1_700_000_600, jti: a.jti, iss: 'https://iss' });
  });
});
