/**
 * The bearer-token request method (spec 001 § Methods: Bearer token): reads
 * `Authorization: Bearer <token>` and asks the token authenticator (the cached union of the
 * configured token methods) for the audiences asked; a present token nobody accepts is
 * rejected (401), as upstream. The authentication filter removes the header once the request is
 * authenticated (lib/endpoints/filters/authentication.ts).
 */
import type { IncomingMessage } from 'node:http';
import { type AuthResult, type AuthenticateRequestOptions, AuthenticationError, type RequestAuthenticator, type TokenAuthenticator } from './interface.js';

/** Upstream's warning for `Bearer  <token>` (two spaces): the header is ignored. */
export const EXTRA_SPACE_WARNING = 'the provided Authorization header contains extra space before the bearer token, and is ignored';

/** Leading and trailing ASCII white space (what Go's `strings.TrimSpace` removes from header bytes). */
const ASCII_SPACE_AROUND = /^[\t\n\v\f\r ]+|[\t\n\v\f\r ]+$/g;

/** Whether a UTF-16 code unit is ASCII white space (tab, LF, VT, FF, CR, space). */
const isASCIISpace = (c: number) => c === 32 || (c >= 9 && c <= 13);

/** `s` without leading and trailing ASCII white space; no regular expression for the common case of none. */
function trimASCIISpace(s: string): string {
  if (s === '' || (!isASCIISpace(s.charCodeAt(0)) && !isASCIISpace(s.charCodeAt(s.length - 1)))) return s;
  return s.replace(ASCII_SPACE_AROUND, '');
}

/**
 * Reads a bearer token from the Authorization header, as upstream: the header, trimmed of white space, split at
 * single spaces into at most three parts, scheme `bearer` in any case, the token the second
 * part (so `Bearer x y` has the token `x`). `token` is '' when there is none; `extraSpace` tells
 * the `Bearer  x` case (two spaces: an empty token followed by more), which upstream ignores
 * with a warning. Duplicate headers: the first one counts (Node keeps the first
 * `Authorization`, as Go's `Header.Get`).
 */
export function parseBearer(req: IncomingMessage): { token: string; extraSpace: boolean } {
  const h = trimASCIISpace(req.headers.authorization ?? '');
  if (!h) return { token: '', extraSpace: false };
  const first = h.indexOf(' ');
  if (first < 0 || h.slice(0, first).toLowerCase() !== 'bearer') return { token: '', extraSpace: false };
  const second = h.indexOf(' ', first + 1);
  if (second < 0) return { token: h.slice(first + 1), extraSpace: false };
  return { token: h.slice(first + 1, second), extraSpace: second === first + 1 };
}

/** The bearer token of a request ('' when there is none); see {@link parseBearer}. */
export function bearerToken(req: IncomingMessage): string {
  return parseBearer(req).token;
}

/** Authenticates bearer tokens with one token authenticator (in the server: the cached token union). */
export class BearerTokenAuthenticator implements RequestAuthenticator {
  constructor(private readonly tokens: TokenAuthenticator) {}

  /**
   * null when the request has no bearer token (after a warning for the two-spaces case).
   * @throws AuthenticationError `invalid bearer token` when nobody knows the token, or the
   *   token authenticator's own rejection.
   */
  async authenticateRequest(req: IncomingMessage, opts: AuthenticateRequestOptions): Promise<AuthResult | null> {
    const { token, extraSpace } = parseBearer(req);
    if (!token) {
      if (extraSpace) opts.warn(EXTRA_SPACE_WARNING);
      return null;
    }
    const res = await this.tokens.authenticateToken(token, opts.audiences);
    if (!res) throw new AuthenticationError('invalid bearer token');
    return res;
  }
}
