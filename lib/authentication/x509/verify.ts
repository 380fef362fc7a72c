/**
 * Client-certificate verification against one set of CAs. The TLS listener asks for client
 * certificates signed by any CA some method trusts (`--client-ca-file` for users,
 * `--requestheader-client-ca-file` for the authenticating proxy) and verifies them against all
 * of them at once; each method then checks that the connection's certificate chains up to ITS
 * OWN CAs, so a proxy certificate is no user certificate and the other way round (as upstream,
 * where each method verifies with its own root pool).
 */
import { X509Certificate } from 'node:crypto';
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/**
 * The certificates of a PEM bundle, in order.
 * @throws Error naming `source` when the bundle holds no certificate or one does not parse.
 */
export function parseCertificateBundle(pem: string, source: string): X509Certificate[] {
  const blocks = pem.match(PEM_CERTIFICATE) ?? [];
  if (blocks.length === 0) throw new Error(`error loading certs from ${source}: data does not contain any valid RSA or ECDSA certificates`);
  return blocks.map((block) => {
    try {
      return new X509Certificate(block);
    } catch (err) {
      throw new Error(`error loading certs from ${source}: ${(err as Error).message}`, { cause: err });
    }
  });
}

/**
 * The client certificate of a TLS connection checked against `roots`: none presented, the
 * presented (leaf) certificate when it chains up to one of `roots`, or why not (upstream's
 * `verifying certificate SN=…, SKID=, AKID= failed: x509: …`).
 */
export type PeerVerdict = { none: true } | { leaf: DetailedPeerCertificate } | { error: string };

/**
 * Checks the connection's client certificate against `roots`. The TLS layer has already
 * verified the chain (signatures, validity, client usage) against the listener's CAs; this
 * walks the chain it built, leaf first, checking each link's signature, until a certificate that
 * is one of `roots` or is signed by one of them.
 */
export function verifyPeer(socket: TLSSocket, roots: readonly X509Certificate[]): PeerVerdict {
  const leaf = socket.getPeerCertificate(true);
  if (!leaf || !leaf.raw) return { none: true };
  const failed = (reason: string): PeerVerdict => ({ error: `verifying certificate SN=${leaf.serialNumber}, SKID=, AKID= failed: x509: ${reason}` });
  if (!socket.authorized) return failed(String(socket.authorizationError ?? 'certificate signed by unknown authority'));
  let node = leaf;
  let cert = new X509Certificate(node.raw);
  for (let depth = 0; depth < 16; depth++) {
    if (roots.some((r) => r.raw.equals(cert.raw) || (cert.checkIssued(r) && cert.verify(r.publicKey)))) return { leaf };
    const next = node.issuerCertificate;
    if (!next || !next.raw || next.raw.equals(node.raw)) break;
    const issuer = new X509Certificate(next.raw);
    if (!cert.checkIssued(issuer) || !cert.verify(issuer.publicKey)) break;
    node = next;
    cert = issuer;
  }
  return failed('certificate signed by unknown authority');
}
