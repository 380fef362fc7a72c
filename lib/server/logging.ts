/**
 * The server's structured logger (pino, JSON lines on stderr). `--v` raises verbosity:
 * 0 = info, 1..3 = debug, 4+ = trace.
 */
import { pino, type Logger } from 'pino';

export type { Logger };

/** Creates the process logger. */
export function newLogger(verbosity = 0, destination: number = 2): Logger {
  const level = verbosity >= 4 ? 'trace' : verbosity >= 1 ? 'debug' : 'info';
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, pino.destination({ fd: destination, sync: false }));
}
