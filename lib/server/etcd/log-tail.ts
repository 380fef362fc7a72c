/** Reading the end of a log file for error messages. */

import { open } from 'node:fs/promises';

/** At most this many bytes are read from the end of the log. */
const TAIL_BYTES = 16 * 1024;

/**
 * The last `lines` lines written to `file` at or after byte `fromOffset` (the size when the
 * process of interest started), or `(log unavailable: …)` when the file cannot be read.
 */
export async function logTail(file: string, fromOffset: number, lines = 20): Promise<string> {
  try {
    const handle = await open(file, 'r');
    try {
      const { size } = await handle.stat();
      const start = Math.max(fromOffset, size - TAIL_BYTES);
      const buffer = Buffer.alloc(Math.max(0, size - start));
      await handle.read(buffer, 0, buffer.length, start);
      const text = buffer.toString('utf8').trimEnd();
      return text === '' ? '(log is empty)' : text.split('\n').slice(-lines).join('\n');
    } finally {
      await handle.close();
    }
  } catch (err) {
    return `(log unavailable: ${(err as Error).message})`;
  }
}
