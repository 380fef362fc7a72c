/**
 * Bootstrap tokens (spec 001 § Bootstrap tokens): the token format, the Secret that holds one
 * (name, keys, usages) and the readings of it that Secret validation, the authenticator and the
 * bootstrap controllers share — upstream's standalone `cluster-bootstrap` library (`token/api`,
 * `util/secrets`, `util/tokens`), hence here at the bottom layer. Pure code.
 */
import { BOOTSTRAP_TOKEN_SECRET_TYPE } from '../apis/vendor.js';
import { goRFC3339Millis } from './go-time.js';

/** A Secret as stored (JSON object; `data` values base64). */
type Obj = Record<string, unknown>;

export { BOOTSTRAP_TOKEN_SECRET_TYPE };

/** Name prefix of a token's Secret: `bootstrap-token-<token-id>`. */
export const BOOTSTRAP_TOKEN_SECRET_PREFIX = 'bootstrap-token-';

/** The Secret's data keys (spec 001 § Bootstrap tokens, table). */
export const BOOTSTRAP_TOKEN_KEY = {
  tokenID: 'token-id',
  tokenSecret: 'token-secret',
  description: 'description',
  expiration: 'expiration',
  usageAuthentication: 'usage-bootstrap-authentication',
  usageSigning: 'usage-bootstrap-signing',
  extraGroups: 'auth-extra-groups',
} as const;

/** Username prefix: a token authenticates as `system:bootstrap:<token-id>`. */
export const BOOTSTRAP_USER_PREFIX = 'system:bootstrap:';
/** The group every bootstrap token authenticates in. */
export const BOOTSTRAP_DEFAULT_GROUP = 'system:bootstrappers';

/** The full token: 6 and 16 lower-case alphanumerics joined by a dot (upstream `BootstrapTokenPattern`). */
export const BOOTSTRAP_TOKEN_PATTERN = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
/** A token ID alone. */
export const BOOTSTRAP_TOKEN_ID_PATTERN = /^[a-z0-9]{6}$/;
/** A token secret alone. */
export const BOOTSTRAP_TOKEN_SECRET_PATTERN = /^[a-z0-9]{16}$/;
/** An extra group, as upstream's `BootstrapGroupPattern` (shown in messages in Go's `\A…\z` spelling). */
const GROUP_PATTERN = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;
const GROUP_PATTERN_TEXT = '\\Asystem:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]\\z';
/** The Secret's name (upstream `secretNameRe`). */
const SECRET_NAME_PATTERN = /^bootstrap-token-([a-z0-9]{6})$/;

/** Splits a bearer token into ID and secret; undefined when it is not a bootstrap token. */
export function parseBootstrapToken(token: string): { id: string; secret: string } | undefined {
  const m = BOOTSTRAP_TOKEN_PATTERN.exec(token);
  return m ? { id: m[1]!, secret: m[2]! } : undefined;
}

/** The token ID a Secret name carries (`bootstrap-token-<id>`), or undefined. */
export function tokenIDFromSecretName(name: string): string | undefined {
  return SECRET_NAME_PATTERN.exec(name)?.[1];
}

/** Whether `secret` is of the bootstrap token type. */
export function isBootstrapTokenSecret(secret: Obj): boolean {
  return secret.type === BOOTSTRAP_TOKEN_SECRET_TYPE;
}

/**
 * The decoded value of a data key (the stored form is base64), '' when absent, as upstream
 * `GetData`.
 */
export function secretValue(secret: Obj, key: string): string {
  const v = ((secret.data as Record<string, unknown> | undefined) ?? {})[key];
  return typeof v === 'string' ? Buffer.from(v, 'base64').toString('utf8') : '';
}

/**
 * How long the token has left (upstream `GetExpiration`): no `expiration` key → never expires
 * (`{ expired: false }`); an unparseable one counts as expired; otherwise expired once the time
 * is reached, else `remainingMs` > 0 milliseconds are left.
 */
export function tokenExpiration(secret: Obj, now: number): { expired: boolean; remainingMs?: number } {
  const text = secretValue(secret, BOOTSTRAP_TOKEN_KEY.expiration);
  if (text === '') return { expired: false };
  const at = goRFC3339Millis(text);
  if (at === undefined) return { expired: true };
  const remainingMs = at - now;
  return remainingMs <= 0 ? { expired: true } : { expired: false, remainingMs };
}

/** Why `group` is not a valid extra group (upstream `ValidateBootstrapGroupName`'s message), or undefined. */
export function bootstrapGroupError(group: string): string | undefined {
  return GROUP_PATTERN.test(group) ? undefined : `bootstrap group ${JSON.stringify(group)} is invalid (must match ${GROUP_PATTERN_TEXT})`;
}

/**
 * The groups the token authenticates in (upstream `GetGroups`): `system:bootstrappers` plus each
 * comma-separated `auth-extra-groups` entry, deduplicated and sorted.
 * @throws Error with upstream's message for the first extra group that is not valid.
 */
export function bootstrapGroups(secret: Obj): string[] {
  const groups = new Set([BOOTSTRAP_DEFAULT_GROUP]);
  const extra = secretValue(secret, BOOTSTRAP_TOKEN_KEY.extraGroups);
  if (extra !== '') {
    for (const g of extra.split(',')) {
      const problem = bootstrapGroupError(g);
      if (problem) throw new Error(problem);
      groups.add(g);
    }
  }
  return [...groups].sort();
}
