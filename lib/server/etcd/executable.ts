/** Locating an executable the way a shell does: a path as given, a bare name through PATH. */

import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';

/**
 * The path of `name` if it is executable: `name` itself when it contains a slash, otherwise
 * the first match in the directories of `PATH`; undefined when there is none.
 */
export async function findExecutable(name: string, searchPath = process.env.PATH ?? ''): Promise<string | undefined> {
  const candidates = name.includes('/') ? [name] : searchPath.split(path.delimiter).filter((d) => d !== '').map((d) => path.join(d, name));
  for (const candidate of candidates) {
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here; try the next directory
    }
  }
  return undefined;
}
