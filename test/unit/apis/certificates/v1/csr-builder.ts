/**
 * Test helpers: PKCS#10 certificate requests signed with RSA, ECDSA P-256 or Ed25519 keys (built
 * with node-forge's ASN.1 writer and Node's crypto), and a self-signed certificate, as PEM and
 * as the base64 the JSON form of a CertificateSigningRequest carries.
 */
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import forge from 'node-forge';
import { createCaCertificate } from '../../../../../lib/server/pki/certificates.js';
import { rsaKeyFromPem } from '../../../../../lib/server/pki/keys.js';

const { asn1 } = forge;
type KeyKind = 'rsa' | 'ec' | 'ed25519';

const SIGNATURE_OID: Record<KeyKind, string> = { rsa: '1.2.840.113549.1.1.11', ec: '1.2.840.10045.4.3.2', ed25519: '1.3.101.112' };

function keyPair(kind: KeyKind): { publicKey: KeyObject; privateKey: KeyObject } {
  if (kind === 'rsa') return generateKeyPairSync('rsa', { modulusLength: 2048 });
  if (kind === 'ec') return generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return generateKeyPairSync('ed25519');
}

const seq = (...items: forge.asn1.Asn1[]) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, items);
const oid = (value: string) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(value).getBytes());

/** A PEM certificate request for `commonName` signed with a new key of `kind`; `tamper` corrupts the signature. */
export function csrPem(kind: KeyKind = 'ec', commonName = 'system:node:node-1', tamper = false): string {
  const { publicKey, privateKey } = keyPair(kind);
  const spki = asn1.fromDer(publicKey.export({ type: 'spki', format: 'der' }).toString('binary'));
  const name = seq(asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SET, true, [seq(oid('2.5.4.3'), asn1.create(asn1.Class.UNIVERSAL, asn1.Type.UTF8, false, commonName))]));
  const info = seq(asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, '\x00'), name, spki, asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, []));
  const infoDer = Buffer.from(asn1.toDer(info).getBytes(), 'binary');
  const signature = sign(kind === 'ed25519' ? null : 'sha256', infoDer, privateKey);
  if (tamper) signature[signature.length - 1]! ^= 0xff;
  const algorithm = kind === 'rsa' ? seq(oid(SIGNATURE_OID.rsa), asn1.create(asn1.Class.UNIVERSAL, asn1.Type.NULL, false, '')) : seq(oid(SIGNATURE_OID[kind]));
  const bits = asn1.create(asn1.Class.UNIVERSAL, asn1.Type.BITSTRING, false, `\x00${signature.toString('binary')}`);
  const der = asn1.toDer(seq(info, algorithm, bits)).getBytes();
  return forge.pem.encode({ type: 'CERTIFICATE REQUEST', body: der });
}

/** A self-signed PEM certificate. */
export function certificatePem(): string {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return createCaCertificate(rsaKeyFromPem(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()), 'issued', 1);
}

/** The base64 of a text, as a `[]byte` field carries it in JSON. */
export function b64(text: string): string {
  return Buffer.from(text).toString('base64');
}
