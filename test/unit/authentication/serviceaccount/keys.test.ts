import { expect } from 'chai';
import { createHash, createPublicKey, generateKeyPairSync } from 'node:crypto';
import forge from 'node-forge';
import { algorithmOf, keyIdOf, parsePrivateKeyPEM, parsePublicKeysPEM } from '../../../../lib/authentication/serviceaccount/keys.js';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
const p256 = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey;
const p521 = generateKeyPairSync('ec', { namedCurve: 'P-521' }).privateKey;
const ed = generateKeyPairSync('ed25519').privateKey;
const k256 = generateKeyPairSync('ec', { namedCurve: 'secp256k1' }).privateKey;

const spki = (k: Parameters<typeof createPublicKey>[0]) => createPublicKey(k).export({ type: 'spki', format: 'pem' }) as string;
const kid = (k: Parameters<typeof createPublicKey>[0]) => keyIdOf(createPublicKey(k));

/** A self-signed certificate of a fresh RSA key (node-forge), and that key's id. */
function certificate(): { pem: string; keyId: string } {
  const keys = forge.pki.rsa.generateKeyPair(1024);
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date();
  cert.validity.notAfter = new Date(Date.now() + 86_400_000);
  cert.setSubject([{ name: 'commonName', value: 'sa' }]);
  cert.setIssuer([{ name: 'commonName', value: 'sa' }]);
  cert.sign(keys.privateKey);
  return { pem: forge.pki.certificateToPem(cert), keyId: kid(forge.pki.publicKeyToPem(keys.publicKey)) };
}

describe('authentication/serviceaccount/keys (upstream keyutil)', () => {
  it('derives the key id as base64url(SHA-256(DER PKIX)), the same from the private and the public key', () => {
    const der = createPublicKey(rsa).export({ type: 'spki', format: 'der' });
    expect(keyIdOf(createPublicKey(rsa))).to.equal(createHash('sha256').update(der).digest('base64url'));
    expect(parsePublicKeysPEM(rsa.export({ type: 'pkcs1', format: 'pem' }) as string)[0]!.keyId).to.equal(kid(rsa));
    expect(kid(rsa)).not.to.include('=');
  });

  it('picks RS256 for RSA and ES256/384/512 by curve; nothing for other keys', () => {
    expect([rsa, p256, p384, p521].map((k) => algorithmOf(k))).to.deep.equal(['RS256', 'ES256', 'ES384', 'ES512']);
    expect(algorithmOf(ed)).to.equal(undefined);
    expect(algorithmOf(k256)).to.equal(undefined);
  });

  it('reads every key of a file: PKCS#1, SEC1 and PKCS#8 private keys, PKIX and PKCS#1 public keys, certificates', () => {
    const cert = certificate();
    const pem = [
      'leading text is ignored',
      rsa.export({ type: 'pkcs1', format: 'pem' }),
      p256.export({ type: 'sec1', format: 'pem' }),
      p384.export({ type: 'pkcs8', format: 'pem' }),
      spki(p521),
      createPublicKey(rsa).export({ type: 'pkcs1', format: 'pem' }),
      cert.pem,
    ].join('\n');
    const keys = parsePublicKeysPEM(pem);
    expect(keys.map((k) => k.keyId)).to.deep.equal([kid(rsa), kid(p256), kid(p384), kid(p521), kid(rsa), cert.keyId]);
    expect(keys.map((k) => k.algorithm)).to.deep.equal(['RS256', 'ES256', 'ES384', 'ES512', 'RS256', 'RS256']);
    expect(keys.every((k) => k.key.type === 'public')).to.equal(true);
  });

  it('skips blocks that are not RSA or ECDSA keys (Ed25519, secp256k1, garbage, parameters)', () => {
    const pem = [
      spki(ed),
      spki(k256),
      '-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----',
      '-----BEGIN PUBLIC KEY-----\nnot base64 at all\n-----END PUBLIC KEY-----',
      spki(p256),
    ].join('\n');
    expect(parsePublicKeysPEM(pem).map((k) => k.keyId)).to.deep.equal([kid(p256)]);
  });

  it('fails with upstream\'s message when no key is found', () => {
    expect(() => parsePublicKeysPEM(spki(ed))).to.throw('data does not contain any valid RSA or ECDSA public keys');
    expect(() => parsePublicKeysPEM('')).to.throw('data does not contain any valid RSA or ECDSA public keys');
  });

  it('reads the first RSA or ECDSA private key; public keys and other keys do not count', () => {
    const key = parsePrivateKeyPEM([spki(rsa), ed.export({ type: 'pkcs8', format: 'pem' }), p256.export({ type: 'sec1', format: 'pem' })].join('\n'));
    expect(keyIdOf(createPublicKey(key))).to.equal(kid(p256));
    expect(() => parsePrivateKeyPEM(spki(rsa))).to.throw('data does not contain a valid RSA or ECDSA private key');
  });
});
