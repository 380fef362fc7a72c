/**
 * The static token file (`--token-auth-file`): CSV rows `token,user,uid[,"group1,group2"]`, read
 * once at start (spec 001 § Methods: Static token file).
 */
import { readFile } from 'node:fs/promises';
import { timingSafeEqual } from 'node:crypto';
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

/** Authenticates tokens listed in the file. */
export class TokenFileAuthenticator implements TokenAuthenticator {
  /** Each token's bytes, encoded once, beside its user. */
  private readonly entries: { token: Buffer; user: UserInfo }[];

  private constructor(users: Map<string, UserInfo>) {
    this.entries = [...users].map(([token, user]) => ({ token: Buffer.from(token), user }));
  }

  /** Reads `path`; throws TokenFileError on malformed content. */
  static async fromFile(path: string): Promise<TokenFileAuthenticator> {
    return new TokenFileAuthenticator(parseTokenFile(await readFile(path, 'utf8'), path));
  }

  async authenticateToken(token: string): Promise<AuthResult | null> {
    const a = Buffer.from(token);
    for (const { token: b, user } of this.entries) {
      if (a.length === b.length && timingSafeEqual(a, b)) return { user: { ...user, groups: [...user.groups] } };
    }
    return null;
  }
}
