/**
 * The authenticator union of our server, built from the Authentication flags: which methods run
 * and in which order (spec 001 § Authentication, § Methods, § Anonymous requests).
 */
import { BearerTokenAuthenticator } from '../authentication/bearer-token.js';
import type { RequestAuthenticator, TokenAuthenticator } from '../authentication/interface.js';
import { TokenFileAuthenticator } from '../authentication/token-file/authenticator.js';
import { UnionAuthenticator } from '../authentication/union.js';
import { X509Authenticator } from '../authentication/x509/authenticator.js';
import type { AuthenticationOptions } from '../server/options/authentication-options.js';

/** The built authentication: the union the handler chain runs. */
export interface Authentication {
  authenticator: UnionAuthenticator;
}

/**
 * Builds the authenticator union from `opts`: client certificates first, then bearer tokens
 * (static file, …).
 * @throws Error when a configured file cannot be read or parsed (a start-up error).
 */
export async function buildAuthentication(opts: AuthenticationOptions): Promise<Authentication> {
  const tokenAuthenticators: TokenAuthenticator[] = [];
  if (opts.tokenAuthFile) tokenAuthenticators.push(await TokenFileAuthenticator.fromFile(opts.tokenAuthFile));
  const methods: RequestAuthenticator[] = [new X509Authenticator(), new BearerTokenAuthenticator(tokenAuthenticators)];
  return { authenticator: new UnionAuthenticator(methods, { anonymous: opts.anonymousAuth }) };
}
