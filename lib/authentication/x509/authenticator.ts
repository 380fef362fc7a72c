/**
 * Client-certificate authentication: a certificate that chains up to a CA of `--client-ca-file`
 * gives username = subject CN and one group per O (spec 001 § Methods). A certificate the TLS
 * listener accepted only because another method trusts its CA (the authenticating proxy's
 * `--requestheader-client-ca-file`) is rejected here, as upstream.
 * The verdict is computed once per TLS connection (keep-alive connections carry many
 * requests); the certificate's expiry is still checked on every request.
 */
import type { X509Certificate } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { type AuthResult, AuthenticationError, type RequestAuthenticator } from '../interface.js';
import { verifyPeer } from './verify.js';

function asList(v: string | string[] | undefined): string[] {
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

/** The verdict of one connection: a user (until `notAfter`), no certificate, or a rejection. */
type Verdict = { user: AuthResult['user']; notAfter: number } | { none: true } | { error: string };

/** Authenticates TLS client certificates. */
export class X509Authenticator implements RequestAuthenticator {
  private readonly verdicts = new WeakMap<TLSSocket, Verdict>();

  /** @param roots the CAs of `--client-ca-file` (parse them with `parseCertificateBundle`). */
  constructor(private readonly roots: readonly X509Certificate[]) {}

  private verdict(socket: TLSSocket): Verdict {
    let v = this.verdicts.get(socket);
    if (v) return v;
    const peer = verifyPeer(socket, this.roots);
    if ('leaf' in peer) {
      const cert = peer.leaf;
      const cn = asList(cert.subject?.CN)[0] ?? '';
      v = cn ? { user: { name: cn, groups: asList(cert.subject?.O) }, notAfter: Date.parse(cert.valid_to) } : { none: true };
    } else {
      v = peer;
    }
    this.verdicts.set(socket, v);
    return v;
  }

  async authenticateRequest(req: IncomingMessage): Promise<AuthResult | null> {
    const socket = req.socket as TLSSocket;
    if (typeof socket.getPeerCertificate !== 'function') return null;
    const v = this.verdict(socket);
    if ('none' in v) return null;
    if ('error' in v) throw new AuthenticationError(v.error);
    if (Date.now() > v.notAfter) throw new AuthenticationError('x509: certificate has expired or is not yet valid');
    return { user: { name: v.user.name, groups: [...v.user.groups] } };
  }
}
