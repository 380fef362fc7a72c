/**
 * The static token file (`--token-auth-file`): CSV rows `token,user,uid[,"group1,group2"]`, read
 * once at start (spec 001 § Methods: Static token file).
 */
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import type { AuthResult, TokenAuthenticator } from '../interface.js';
import type { UserInfo } from '../../request/user.js';
import { parseCSV } from './csv.js';

/** Thrown for a malformed token file (the server refuses to start). */
export class TokenFileError extends Error {}

/** Parses token file content into token → user. */
export function parseTokenFile(text: string, source = 'token file'): Map<string, UserInfo> {
  const users = new Map<string, UserInfo>();
  parseCSV(text).forEach((rec, i) => {
    if (rec.length < 3) throw new TokenFileError(`${source}: line ${i + 1}: token file entries must have at least 3 columns, found ${rec.length}`);
    const [token, name, uid, groups] = rec.map((f) => f.trim());
    if (!token) throw new TokenFileError(`${source}: line ${i + 1}: empty token`);
    if (users.has(token!)) throw new TokenFileError(`${source}: line ${i + 1}: duplicate token`);
    const user: UserInfo = { name: name!, uid: uid!, groups: groups ? groups.split(',').map((g) => g.trim()).filter((g) => g) : [] };
    users.set(token!, user);
  });
  return users;
}

/** The lookup key of a token: its SHA-256 (the file's tokens are not kept as they are). */
function digestOf(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('base64');
}

/**
 * Authenticates tokens listed in the file: one hash-map lookup per token (as upstream's map), by
 * the token's SHA-256, so neither the cost nor the timing depends on how many tokens the file has
 * or on how much of a token matches one of them.
 */
export class TokenFileAuthenticator implements TokenAuthenticator {
  /** SHA-256 of each token → its user. */
  private readonly users: Map<string, UserInfo>;

  private constructor(users: Map<string, UserInfo>) {
    this.users = new Map([...users].map(([token, user]) => [digestOf(token), user]));
  }

  /** Reads `path`; throws TokenFileError on malformed content. */
  static async fromFile(path: string): Promise<TokenFileAuthenticator> {
    return new TokenFileAuthenticator(parseTokenFile(await readFile(path, 'utf8'), path));
  }

  /** The user of a listed token (a copy), null for any other token. */
  async authenticateToken(token: string): Promise<AuthResult | null> {
    const user = this.users.get(digestOf(token));
    return user ? { user: { ...user, groups: [...user.groups] } } : null;
  }
}
