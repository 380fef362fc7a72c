/**
 * Authentication: each method reads credentials from the request and returns the user, "not
 * mine" (null), or throws to reject (spec 001 § Authentication).
 */
import type { IncomingMessage } from 'node:http';
import type { UserInfo } from '../request/user.js';

/** A successful authentication. */
export interface AuthResult {
  user: UserInfo;
  audiences?: string[];
}

/** Thrown by an authenticator that recognizes a credential and rejects it (→ 401). */
export class AuthenticationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuthenticationError';
  }
}

/** One authentication method. */
export interface RequestAuthenticator {
  /** null = this method found no credential of its kind; throws AuthenticationError to reject. */
  authenticateRequest(req: IncomingMessage): Promise<AuthResult | null>;
}

/** A method that checks bearer tokens (static file, service accounts, webhooks…). */
export interface TokenAuthenticator {
  /** null = unknown token; throws AuthenticationError for a known but invalid one. */
  authenticateToken(token: string): Promise<AuthResult | null>;
}
