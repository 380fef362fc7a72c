/**
 * RSA key generation for the bootstrap PKI. Keys are made by `node:crypto` on the libuv thread
 * pool (≈0.2 s per 2048-bit key here, several in parallel, not blocking the event loop; forge's
 * own generator takes ≈0.3 s on the main thread) and imported into node-forge for signing.
 */

import { generateKeyPair as generateKeyPairCallback } from 'node:crypto';
import { promisify } from 'node:util';
import forge from 'node-forge';

const generateKeyPair = promisify(generateKeyPairCallback);

/** RSA modulus size of every generated key, in bits. */
export const RSA_KEY_BITS = 2048;

/** A generated or loaded RSA key in the two forms the PKI code needs. */
export interface RsaKey {
  /** PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`), as written to `*.key` files. */
  privateKeyPem: string;
  /** The private key as node-forge uses it for signing. */
  forgePrivateKey: forge.pki.rsa.PrivateKey;
  /** The matching public key, for a certificate's subject key. */
  forgePublicKey: forge.pki.rsa.PublicKey;
}

/** Generates a fresh RSA key of {@link RSA_KEY_BITS} bits. */
export async function generateRsaKey(): Promise<RsaKey> {
  const { privateKey } = await generateKeyPair('rsa', { modulusLength: RSA_KEY_BITS });
  return rsaKeyFromPem(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
}

/**
 * Imports an RSA private key PEM (PKCS#8 or PKCS#1).
 * @throws Error when the PEM is not an RSA private key.
 */
export function rsaKeyFromPem(privateKeyPem: string): RsaKey {
  const forgePrivateKey = forge.pki.privateKeyFromPem(privateKeyPem) as forge.pki.rsa.PrivateKey;
  const forgePublicKey = forge.pki.setRsaPublicKey(forgePrivateKey.n, forgePrivateKey.e);
  return { privateKeyPem, forgePrivateKey, forgePublicKey };
}
