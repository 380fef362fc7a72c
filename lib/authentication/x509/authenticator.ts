/**
 * Client-certificate authentication: a certificate verified by the TLS layer against
 * `--client-ca-file` gives username = subject CN and one group per O (spec 001 § Methods).
 * The verdict is computed once per TLS connection (keep-alive connections carry many
 * requests); the certificate's expiry is still checked on every request.
 */
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { type AuthResult, AuthenticationError, type RequestAuthenticator } from '../interface.js';

function asList(v: string | string[] | undefined): string[] {
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

/** The verdict of one connection: a user (until `notAfter`), no certificate, or a rejection. */
type Verdict = { user: AuthResult['user']; notAfter: number } | { none: true } | { error: string };

/** Authenticates TLS client certificates. */
export class X509Authenticator implements RequestAuthenticator {
  private readonly verdicts = new WeakMap<TLSSocket, Verdict>();

  private verdict(socket: TLSSocket): Verdict {
    let v = this.verdicts.get(socket);
    if (v) return v;
    const cert = socket.getPeerCertificate();
    if (!cert || Object.keys(cert).length === 0) v = { none: true };
    else if (!socket.authorized) {
      v = { error: `verifying certificate SN=${cert.serialNumber}, SKID=, AKID= failed: x509: ${socket.authorizationError ?? 'certificate signed by unknown authority'}` };
    } else {
      const cn = asList(cert.subject?.CN)[0] ?? '';
      v = cn ? { user: { name: cn, groups: asList(cert.subject?.O) }, notAfter: Date.parse(cert.valid_to) } : { none: true };
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
