/**
 * Audiences (issue #10 item 9): which audiences a credential is valid for, and the wrapping that
 * lets methods which never look at audiences (static tokens, bootstrap tokens, the
 * authenticating proxy) answer for the API audiences only, as upstream's audience-agnostic
 * authenticators do.
 */
import type { IncomingMessage } from 'node:http';
import type { AuthResult, AuthenticateRequestOptions, RequestAuthenticator, TokenAuthenticator } from './interface.js';

/** The members of `a` that are also in `b`, in the order of `a` (upstream `Audiences.Intersect`). */
export function intersectAudiences(a: readonly string[], b: readonly string[]): string[] {
  return a.filter((x) => b.includes(x));
}

/**
 * Whether a credential found valid for `found` may be used for a request to a server with API
 * audiences `api`: always when either list is empty (no audiences configured, or the method
 * does not report audiences), else when they share one (upstream `audiencesAreAcceptable`).
 */
export function audiencesAreAcceptable(api: readonly string[], found: readonly string[] | undefined): boolean {
  if (api.length === 0 || !found || found.length === 0) return true;
  return intersectAudiences(api, found).length > 0;
}

/**
 * Runs `authenticate` for a method that does not check audiences: with no audiences asked it
 * answers as it is; otherwise its credentials are valid for the API audiences only, so when the
 * asked audiences do not include one of them the credential is not this method's (null) and
 * the method is not even asked; a success reports the shared audiences.
 */
async function audienceAgnostic(
  apiAudiences: readonly string[],
  asked: readonly string[],
  authenticate: () => Promise<AuthResult | null>,
): Promise<AuthResult | null> {
  if (asked.length === 0) return authenticate();
  const audiences = intersectAudiences(apiAudiences, asked);
  if (audiences.length === 0) return null;
  const res = await authenticate();
  return res && { ...res, audiences };
}

/**
 * Wraps a token authenticator that does not check audiences (static token file, bootstrap
 * tokens): its tokens are valid for `apiAudiences` (`--api-audiences`) and nothing else
 * (upstream `WrapAudienceAgnosticToken`).
 */
export function audienceAgnosticToken(apiAudiences: readonly string[], inner: TokenAuthenticator): TokenAuthenticator {
  return {
    authenticateToken: (token, audiences) => audienceAgnostic(apiAudiences, audiences, () => inner.authenticateToken(token, audiences)),
  };
}

/**
 * Wraps a request authenticator that does not check audiences (the authenticating proxy): its
 * identities are valid for `apiAudiences` and nothing else (upstream `WrapAudienceAgnosticRequest`).
 */
export function audienceAgnosticRequest(apiAudiences: readonly string[], inner: RequestAuthenticator): RequestAuthenticator {
  return {
    authenticateRequest: (req: IncomingMessage, opts: AuthenticateRequestOptions) =>
      audienceAgnostic(apiAudiences, opts.audiences, () => inner.authenticateRequest(req, opts)),
  };
}
