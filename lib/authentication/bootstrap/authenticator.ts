/**
 * The bootstrap token authenticator (`--enable-bootstrap-token-auth`; spec 001 § Bootstrap
 * tokens; upstream plugin/pkg/auth/authenticator/token/bootstrap). A bearer token of the form
 * `<id>.<secret>` is looked up as the Secret `bootstrap-token-<id>` in the system namespace,
 * read from an informer's cache (never a storage round trip per request).
 *
 * As upstream, every reason a well-formed token fails — no such Secret, being deleted, wrong
 * type, wrong secret or ID, expired, not marked for authentication, a bad extra group — answers
 * "not mine" (null) with the reason logged, not an error: the bearer authenticator then rejects
 * the request (401) because no method accepted its token.
 */
import { timingSafeEqual } from 'node:crypto';
import {
  BOOTSTRAP_TOKEN_KEY,
  BOOTSTRAP_TOKEN_SECRET_PREFIX,
  BOOTSTRAP_TOKEN_SECRET_TYPE,
  BOOTSTRAP_USER_PREFIX,
  bootstrapGroups,
  parseBootstrapToken,
  secretValue,
  tokenExpiration,
} from '../../apimachinery/bootstrap-token.js';
import type { AuthResult, TokenAuthenticator } from '../interface.js';

/** A stored object (JSON). */
type Obj = Record<string, unknown>;

/** Reads Secrets of the system namespace by name from a cache; undefined when there is none. */
export interface SecretLister {
  get(name: string): Obj | undefined;
}

/** Why a well-formed token was not accepted (for a debug log line); never contains the token secret. */
export type RejectionLogger = (reason: string) => void;

/** Authenticates bootstrap tokens against their Secrets. */
export class BootstrapTokenAuthenticator implements TokenAuthenticator {
  /**
   * @param secrets the system namespace's Secrets (an informer's cache).
   * @param logRejection told why a well-formed token was not accepted (upstream logs at V(3)).
   * @param now the clock, epoch milliseconds.
   */
  constructor(
    private readonly secrets: SecretLister,
    private readonly logRejection: RejectionLogger = () => {},
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Returns user `system:bootstrap:<id>` in `system:bootstrappers` plus the Secret's
   * `auth-extra-groups` (sorted, deduplicated), or null for any token it does not accept.
   * Bootstrap tokens carry no audience: the result is valid for the API server itself.
   */
  async authenticateToken(token: string): Promise<AuthResult | null> {
    const parsed = parseBootstrapToken(token);
    if (!parsed) return null;
    const name = `${BOOTSTRAP_TOKEN_SECRET_PREFIX}${parsed.id}`;
    const secret = this.secrets.get(name);
    if (!secret) {
      this.logRejection(`No secret of name ${name} to match bootstrap bearer token`);
      return null;
    }
    const reject = (why: string): null => {
      const meta = (secret.metadata ?? {}) as Obj;
      this.logRejection(`Bootstrap secret ${meta.namespace as string}/${meta.name as string} matching bearer token ${why}`);
      return null;
    };
    if ((secret.metadata as Obj | undefined)?.deletionTimestamp) return reject('is deleted and awaiting removal');
    if (secret.type !== BOOTSTRAP_TOKEN_SECRET_TYPE || !secret.data) return reject(`has invalid type, expected ${BOOTSTRAP_TOKEN_SECRET_TYPE}.`);
    const stored = Buffer.from(secretValue(secret, BOOTSTRAP_TOKEN_KEY.tokenSecret));
    const given = Buffer.from(parsed.secret);
    if (stored.length !== given.length || !timingSafeEqual(stored, given)) return reject(`has invalid value for key ${BOOTSTRAP_TOKEN_KEY.tokenSecret}.`);
    const id = secretValue(secret, BOOTSTRAP_TOKEN_KEY.tokenID);
    if (id !== parsed.id) return reject(`has invalid value for key ${BOOTSTRAP_TOKEN_KEY.tokenID}, expected ${parsed.id}.`);
    if (tokenExpiration(secret, this.now()).expired) return reject('has expired.');
    if (secretValue(secret, BOOTSTRAP_TOKEN_KEY.usageAuthentication) !== 'true') return reject(`not marked ${BOOTSTRAP_TOKEN_KEY.usageAuthentication}=true.`);
    let groups: string[];
    try {
      groups = bootstrapGroups(secret);
    } catch (err) {
      return reject(`has invalid value for key ${BOOTSTRAP_TOKEN_KEY.extraGroups}: ${(err as Error).message}.`);
    }
    return { user: { name: `${BOOTSTRAP_USER_PREFIX}${id}`, groups } };
  }
}
