/**
 * The static token file (`--token-auth-file`): CSV rows `token,user,uid[,"group1,group2"]`, read
 * once at start (spec 001 § Methods: Static token file).
 */
import { readFile } from 'node:fs/promises';
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

/**
 * Authenticates tokens listed in the file: one hash-map lookup per token, as upstream's map of
 * tokens, so the cost does not depend on how many tokens the file has. Keyed by the token itself:
 * hashing it with SHA-256 on every request cost about a twentieth of a cached GET's CPU (profile
 * of 2026-12-01) and protected nothing that the file on disk does not already hold.
 */
export class TokenFileAuthenticator implements TokenAuthenticator {
  private constructor(
    /** Token → its user. */
    private readonly users: Map<string, UserInfo>,
  ) {}

  /** Reads `path`; throws TokenFileError on malformed content. */
  static async fromFile(path: string): Promise<TokenFileAuthenticator> {
    return new TokenFileAuthenticator(parseTokenFile(await readFile(path, 'utf8'), path));
  }

  /** The user of a listed token (a copy), null for any other token. */
  async authenticateToken(token: string): Promise<AuthResult | null> {
    const user = this.users.get(token);
    return user ? { user: { ...user, groups: [...user.groups] } } : null;
  }
}
