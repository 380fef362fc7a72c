/**
 * The bearer-token request method: reads `Authorization: Bearer <token>` and asks token
 * authenticators in order; a present token nobody accepts is rejected (401), as upstream.
 */
import type { IncomingMessage } from 'node:http';
import { type AuthResult, AuthenticationError, type RequestAuthenticator, type TokenAuthenticator } from './interface.js';

/**
 * Reads a bearer token from the Authorization header ('' when there is none), as upstream: the
 * trimmed header split at single spaces, scheme `bearer` in any case, the token the second part
 * (so `Bearer  x`, with two spaces, has an empty token, and `Bearer x y` the token `x`).
 */
export function bearerToken(req: IncomingMessage): string {
  const h = (req.headers.authorization ?? '').trim();
  if (!h) return '';
  const parts = h.split(' ');
  if (parts.length < 2 || parts[0]!.toLowerCase() !== 'bearer') return '';
  return parts[1]!;
}

/** Authenticates bearer tokens with the given token authenticators, for the API audiences (`--api-audiences`). */
export class BearerTokenAuthenticator implements RequestAuthenticator {
  constructor(
    private readonly tokens: readonly TokenAuthenticator[],
    private readonly apiAudiences: readonly string[] = [],
  ) {}

  async authenticateRequest(req: IncomingMessage): Promise<AuthResult | null> {
    const token = bearerToken(req);
    if (!token) return null;
    for (const t of this.tokens) {
      const res = await t.authenticateToken(token, this.apiAudiences);
      if (res) {
        // As upstream: once accepted, the token leaves the request so nothing later can use it.
        delete req.headers.authorization;
        return res;
      }
    }
    throw new AuthenticationError('invalid bearer token');
  }
}
