/**
 * The two-stage stop of the command's processes (upstream's SetupSignalHandler): the first SIGINT
 * or SIGTERM runs the graceful stop once and exits 0 after it; a second one exits 1 at once.
 */
import type { Logger } from '../server/logging.js';

/**
 * Installs the SIGINT and SIGTERM handlers that run `stop` (logged as `message`), and returns a
 * trigger that starts the same stop without a signal (ignored once stopping).
 */
export function handleStopSignals(log: Logger, message: string, stop: () => Promise<void>): () => void {
  let stopping = false;
  const begin = (signal: string) => {
    if (stopping) {
      log.warn({ signal }, 'second signal: exiting immediately');
      process.exit(1);
    }
    stopping = true;
    log.info({ signal }, message);
    void (async () => {
      await stop();
      log.flush();
      process.exit(0);
    })();
  };
  process.on('SIGINT', () => begin('SIGINT'));
  process.on('SIGTERM', () => begin('SIGTERM'));
  return () => {
    if (!stopping) begin('primary');
  };
}
