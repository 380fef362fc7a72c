import { expect } from 'chai';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { authenticationKey } from '../../../../lib/apis/vendor.js';
import { type ServiceAccountPublicKey, keyIdOf } from '../../../../lib/authentication/serviceaccount/keys.js';
import { newOpenIDMetadata } from '../../../../lib/authentication/serviceaccount/openid-metadata.js';
import { makeUsername, serviceAccountUser, splitUsername } from '../../../../lib/authentication/serviceaccount/util.js';

const rsa = createPublicKey(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);
const p384 = createPublicKey(generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey);
const KEYS: ServiceAccountPublicKey[] = [
  { keyId: keyIdOf(p384), key: p384, algorithm: 'ES384' },
  { keyId: keyIdOf(rsa), key: rsa, algorithm: 'RS256' },
];

describe('authentication/serviceaccount/openid-metadata (upstream openidmetadata.go)', () => {
  it('renders the discovery document in upstream\'s member order, algorithms sorted', () => {
    const md = newOpenIDMetadata('https://iss.example/path', undefined, KEYS);
    expect(md.configJSON('10.0.0.1:6443')).to.equal(
      '{"issuer":"https://iss.example/path","jwks_uri":"https://10.0.0.1:6443/openid/v1/jwks","response_types_supported":["id_token"],"subject_types_supported":["public"],"id_token_signing_alg_values_supported":["ES384","RS256"]}',
    );
  });

  it('uses --service-account-jwks-uri when given', () => {
    const md = newOpenIDMetadata('https://iss', 'https://keys.example/jwks', KEYS);
    expect(JSON.parse(md.configJSON('ignored:1')).jwks_uri).to.equal('https://keys.example/jwks');
  });

  it('renders one public JWK per key with use, kty, kid, (crv,) alg and the key members', () => {
    const set = JSON.parse(newOpenIDMetadata('https://iss', undefined, KEYS).keysetJSON) as { keys: Array<Record<string, string>> };
    expect(set.keys.map((k) => Object.keys(k))).to.deep.equal([
      ['use', 'kty', 'kid', 'crv', 'alg', 'x', 'y'],
      ['use', 'kty', 'kid', 'alg', 'n', 'e'],
    ]);
    expect(set.keys[0]).to.include({ use: 'sig', kty: 'EC', kid: keyIdOf(p384), crv: 'P-384', alg: 'ES384' });
    expect(set.keys[1]).to.include({ use: 'sig', kty: 'RSA', kid: keyIdOf(rsa), alg: 'RS256', e: 'AQAB' });
    expect(JSON.stringify(set)).not.to.match(/"d"|"p"|"q"/);
  });

  const refused: Array<[string, string, readonly ServiceAccountPublicKey[], string]> = [
    ['an http issuer', 'http://iss', KEYS, 'issuer URL must use https scheme, got: http://iss'],
    ['an issuer that is not a URL', 'an-issuer', KEYS, 'issuer URL must use https scheme, got: an-issuer'],
    ['an issuer with a query', 'https://iss?a=1', KEYS, 'issuer URL may not include a query, got: https://iss?a=1'],
    ['an issuer with a fragment', 'https://iss#f', KEYS, 'issuer URL may not include a fragment, got: https://iss#f'],
    ['no keys', 'https://iss', [], 'no keys provided for validating keyset'],
  ];
  for (const [title, issuer, keys, message] of refused) {
    it(`refuses ${title}`, () => {
      expect(() => newOpenIDMetadata(issuer, undefined, keys)).to.throw(message);
    });
  }
});

describe('authentication/serviceaccount/util (upstream authentication/serviceaccount)', () => {
  it('makes and splits usernames; only valid namespace and name splits', () => {
    expect(makeUsername('ns', 'sa')).to.equal('system:serviceaccount:ns:sa');
    expect(splitUsername('system:serviceaccount:ns:sa.x')).to.deep.equal({ namespace: 'ns', name: 'sa.x' });
    for (const bad of ['system:serviceaccount:ns', 'system:serviceaccount:ns:a:b', 'system:serviceaccount:NS:a', 'system:serviceaccount:ns:A_b', 'alice']) {
      expect(splitUsername(bad), bad).to.equal(undefined);
    }
  });

  it('adds pod extras only with both name and uid, node uid only with a node name', () => {
    expect(serviceAccountUser({ namespace: 'n', name: 's', uid: 'u', podName: 'p' }).extra).to.equal(undefined);
    expect(serviceAccountUser({ namespace: 'n', name: 's', uid: 'u', nodeUID: 'x' }).extra).to.equal(undefined);
    expect(serviceAccountUser({ namespace: 'n', name: 's', uid: 'u', nodeName: 'x' }).extra).to.deep.equal({ [authenticationKey('node-name')]: ['x'] });
  });
});
