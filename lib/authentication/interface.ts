/**
 * Authentication: each method reads credentials from the request and returns the user, "not
 * mine" (null), or throws to reject (spec 001 § Authentication).
 */
import type { IncomingMessage } from 'node:http';
import type { UserInfo } from '../request/user.js';

/** A successful authentication. */
export interface AuthResult {
  user: UserInfo;
  /**
   * The audiences the credential was found valid for (a subset of the audiences asked for;
   * spec 001 § Webhook token authentication, issue #10 item 9); absent: valid for the API server itself.
   */
  audiences?: string[];
}

/** Thrown by an authenticator that recognizes a credential and rejects it (→ 401). */
export class AuthenticationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuthenticationError';
  }
}

/** What a request authenticator is told besides the request itself. */
export interface AuthenticateRequestOptions {
  /**
   * The audiences the credential must be valid for: the API audiences (`--api-audiences`) for an
   * API request, a TokenReview's `spec.audiences` (or the API audiences when it names none).
   * Empty: none asked (upstream: no audiences in the request context).
   */
  audiences: readonly string[];
  /** Adds a warning for the client (a `Warning: 299` header of the response). */
  warn(text: string): void;
}

/** One authentication method. */
export interface RequestAuthenticator {
  /** null = this method found no credential of its kind; throws AuthenticationError to reject. */
  authenticateRequest(req: IncomingMessage, opts: AuthenticateRequestOptions): Promise<AuthResult | null>;
}

/** A method that checks bearer tokens (static file, service accounts, webhooks…). */
export interface TokenAuthenticator {
  /**
   * `audiences`: those the token must be valid for — the server's `--api-audiences` for an API
   * request, a TokenReview's `spec.audiences` (or the API audiences when it names none).
   * Returns null for a token this method does not know; throws AuthenticationError for a known
   * but invalid one.
   */
  authenticateToken(token: string, audiences: readonly string[]): Promise<AuthResult | null>;
}
