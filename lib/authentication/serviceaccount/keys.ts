/**
 * Service-account key material (spec 001 § Methods, "Service account token"): PEM files with RSA
 * or ECDSA keys — public keys, private keys (their public half is used) and certificates — read as
 * upstream's keyutil reads them, the key id upstream derives from a public key, and the signing
 * algorithm each key implies.
 */
import { type KeyObject, X509Certificate, createHash, createPrivateKey, createPublicKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';

/** The algorithms service-account tokens are signed with: RS256 for RSA, ES256/384/512 by ECDSA curve. */
export type SigningAlgorithm = 'RS256' | 'ES256' | 'ES384' | 'ES512';

/** A public key that verifies service-account tokens. */
export interface ServiceAccountPublicKey {
  /** Upstream key id: base64url (no padding) of the SHA-256 of the DER PKIX public key. */
  keyId: string;
  key: KeyObject;
  /** The algorithm the key signs with (the JWKS `alg`). */
  algorithm: SigningAlgorithm;
}

/** ECDSA curves accepted, by Node's name, with their JWS algorithm. */
const CURVE_ALGORITHMS: Record<string, SigningAlgorithm> = { prime256v1: 'ES256', secp384r1: 'ES384', secp521r1: 'ES512' };

/** One PEM block: its label (`PUBLIC KEY`) and its full text, armour included. */
interface PemBlock {
  label: string;
  text: string;
}

/** Splits PEM data into its blocks, in order (text between blocks is ignored, as Go's pem.Decode does). */
function pemBlocks(data: string): PemBlock[] {
  const blocks: PemBlock[] = [];
  let at = 0;
  while (true) {
    const begin = data.indexOf('-----BEGIN ', at);
    if (begin < 0) break;
    const labelEnd = data.indexOf('-----', begin + 11);
    if (labelEnd < 0) break;
    const label = data.slice(begin + 11, labelEnd);
    const endMarker = `-----END ${label}-----`;
    const end = data.indexOf(endMarker, labelEnd + 5);
    if (end < 0) break;
    blocks.push({ label, text: data.slice(begin, end + endMarker.length) });
    at = end + endMarker.length;
  }
  return blocks;
}

/** The signing algorithm of an RSA or P-256/384/521 ECDSA key; undefined for any other key. */
export function algorithmOf(key: KeyObject): SigningAlgorithm | undefined {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') return CURVE_ALGORITHMS[key.asymmetricKeyDetails?.namedCurve ?? ''];
  return undefined;
}

/** Upstream's key id of a public key: base64url of SHA-256 over its DER PKIX (SubjectPublicKeyInfo) encoding. */
export function keyIdOf(publicKey: KeyObject): string {
  return createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('base64url');
}

/** The private key of a PEM block, or undefined when it holds none (or one that does not parse). */
function privateKeyOf(block: PemBlock): KeyObject | undefined {
  if (block.label !== 'RSA PRIVATE KEY' && block.label !== 'EC PRIVATE KEY' && block.label !== 'PRIVATE KEY') return undefined;
  try {
    return createPrivateKey({ key: block.text, format: 'pem' });
  } catch {
    return undefined;
  }
}

/** The public key of a PEM block (a private key's public half, a public key, a certificate's key), or undefined. */
function publicKeyOf(block: PemBlock): KeyObject | undefined {
  const priv = privateKeyOf(block);
  if (priv) return createPublicKey(priv);
  try {
    if (block.label === 'PUBLIC KEY' || block.label === 'RSA PUBLIC KEY') return createPublicKey({ key: block.text, format: 'pem' });
    if (block.label === 'CERTIFICATE') return new X509Certificate(block.text).publicKey;
  } catch {
    return undefined;
  }
  return undefined;
}

/**
 * Every RSA or ECDSA public key in PEM data (upstream keyutil `ParsePublicKeysPEM`): private-key
 * blocks give their public half, certificates their subject key; other blocks are skipped.
 * @throws Error `data does not contain any valid RSA or ECDSA public keys` when none is found.
 */
export function parsePublicKeysPEM(data: string): ServiceAccountPublicKey[] {
  const keys: ServiceAccountPublicKey[] = [];
  for (const block of pemBlocks(data)) {
    const key = publicKeyOf(block);
    const algorithm = key && algorithmOf(key);
    if (key && algorithm) keys.push({ keyId: keyIdOf(key), key, algorithm });
  }
  if (keys.length === 0) throw new Error('data does not contain any valid RSA or ECDSA public keys');
  return keys;
}

/**
 * The first RSA or ECDSA private key in PEM data (upstream keyutil `ParsePrivateKeyPEM`).
 * @throws Error `data does not contain a valid RSA or ECDSA private key` when there is none.
 */
export function parsePrivateKeyPEM(data: string): KeyObject {
  for (const block of pemBlocks(data)) {
    const key = privateKeyOf(block);
    if (key && algorithmOf(key)) return key;
  }
  throw new Error('data does not contain a valid RSA or ECDSA private key');
}

/**
 * Reads `--service-account-key-file` (upstream keyutil `PublicKeysFromFile`).
 * @throws Error when the file cannot be read or holds no usable key (`error reading public key file <f>: …`).
 */
export async function publicKeysFromFile(file: string): Promise<ServiceAccountPublicKey[]> {
  const data = await readFile(file, 'utf8');
  try {
    return parsePublicKeysPEM(data);
  } catch (err) {
    throw new Error(`error reading public key file ${file}: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * Reads `--service-account-signing-key-file` (upstream keyutil `PrivateKeyFromFile`).
 * @throws Error when the file cannot be read or holds no RSA/ECDSA private key (`error reading private key file <f>: …`).
 */
export async function privateKeyFromFile(file: string): Promise<KeyObject> {
  const data = await readFile(file, 'utf8');
  try {
    return parsePrivateKeyPEM(data);
  } catch (err) {
    throw new Error(`error reading private key file ${file}: ${(err as Error).message}`, { cause: err });
  }
}
