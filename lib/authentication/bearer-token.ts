/**
 * The bearer-token request method: reads `Authorization: Bearer <token>` and asks token
 * authenticators in order; a present token nobody accepts is rejected (401), as upstream.
 */
import type { IncomingMessage } from 'node:http';
import { type AuthResult, AuthenticationError, type RequestAuthenticator, type TokenAuthenticator } from './interface.js';

/** Reads a bearer token from the Authorization header ('' when there is none). */
export function bearerToken(req: IncomingMessage): string {
  const h = req.headers.authorization;
  if (!h) return '';
  const m = /^\s*bearer\s+(\S+)\s*$/i.exec(h);
  return m ? m[1]! : '';
}

/** Authenticates bearer tokens with the given token authenticators. */
export class BearerTokenAuthenticator implements RequestAuthenticator {
  constructor(private readonly tokens: readonly TokenAuthenticator[]) {}

  async authenticateRequest(req: IncomingMessage): Promise<AuthResult | null> {
    const token = bearerToken(req);
    if (!token) return null;
    for (const t of this.tokens) {
      const res = await t.authenticateToken(token);
      if (res) return res;
    }
    throw new AuthenticationError('invalid bearer token');
  }
}
