/**
 * Client-certificate authentication: a certificate verified by the TLS layer against
 * `--client-ca-file` gives username = subject CN and one group per O (spec 001 § Methods).
 */
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { type AuthResult, AuthenticationError, type RequestAuthenticator } from '../interface.js';

function asList(v: string | string[] | undefined): string[] {
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

/** Authenticates TLS client certificates. */
export class X509Authenticator implements RequestAuthenticator {
  async authenticateRequest(req: IncomingMessage): Promise<AuthResult | null> {
    const socket = req.socket as TLSSocket;
    if (typeof socket.getPeerCertificate !== 'function') return null;
    const cert = socket.getPeerCertificate();
    if (!cert || Object.keys(cert).length === 0) return null;
    if (!socket.authorized) {
      throw new AuthenticationError(`verifying certificate SN=${cert.serialNumber}, SKID=, AKID= failed: x509: ${socket.authorizationError ?? 'certificate signed by unknown authority'}`);
    }
    const cn = asList(cert.subject?.CN)[0] ?? '';
    if (!cn) return null;
    return { user: { name: cn, groups: asList(cert.subject?.O) } };
  }
}
