/** File helpers for key material: atomic writes with explicit modes, tolerant reads. */

import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Mode of private key and kubeconfig files: owner read/write only. */
export const PRIVATE_FILE_MODE = 0o600;
/** Mode of certificate files. */
export const PUBLIC_FILE_MODE = 0o644;

/**
 * Writes `data` to `file` atomically (temporary file in the same directory, then rename) with
 * `mode`, creating the directory (mode 0700) if needed. A reader sees the old or the new
 * content, never a partial file.
 */
export async function writeFileAtomic(file: string, data: string, mode: number): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, data, { mode });
    await chmod(temporary, mode);
    await rename(temporary, file);
  } catch (err) {
    await rm(temporary, { force: true });
    throw err;
  }
}

/** The file's UTF-8 text, or undefined when it does not exist. @throws other read errors. */
export async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
