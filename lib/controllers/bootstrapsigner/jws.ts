/**
 * Detached JWS signatures of the `cluster-info` kubeconfig (spec 001 § Bootstrap tokens; RFC 7515
 * Appendix F; upstream cluster-bootstrap `token/jws`): a compact HS256 JWS with protected header
 * `{"alg":"HS256","kid":"<token-id>"}` whose payload part is removed, leaving
 * `<header>..<signature>`.
 *
 * The HMAC key is the full token `<token-id>.<token-secret>`, as spec 001 § Bootstrap tokens states
 * it ("The full token is the shared secret"). Upstream's signer (and kubeadm, its joining client)
 * uses the token secret alone; where the spec is explicit it wins, so a joining client of the
 * upstream system does not verify our signatures (README § Bootstrap tokens says so). The
 * primitive takes any key: upstream pads keys shorter than 32 bytes with zero bytes, which HMAC
 * does for every key shorter than its block anyway, so the signature is the same either way.
 */
import { CompactSign } from 'jose';

/**
 * The detached signature of `content` under the HMAC key `secret` with key id `tokenID`:
 * byte-for-byte what upstream's primitive computes for the same key.
 */
export async function computeDetachedSignature(content: string, tokenID: string, secret: string): Promise<string> {
  const key = Buffer.alloc(Math.max(32, Buffer.byteLength(secret)));
  key.write(secret, 'utf8');
  const jws = await new CompactSign(new TextEncoder().encode(content)).setProtectedHeader({ alg: 'HS256', kid: tokenID }).sign(key);
  const [header, , signature] = jws.split('.');
  return `${header}..${signature}`;
}
