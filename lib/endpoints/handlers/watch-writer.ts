/**
 * Writes a watch stream to its HTTP response with backpressure (issue #19 item 1): once the
 * socket's buffer passes its high-water mark (`res.write` returns false), the next frame waits for
 * 'drain', so Node never buffers more than about one frame beyond the mark for a client that does
 * not read; the events wait in the watcher's bounded buffer instead (lib/storage/cacher/
 * cache-watcher.ts), which closes the watch when it stays full. The wait also ends when the watch
 * stops on the server's side (`Watcher.done`), so the handler can end the response of a closed
 * watcher whose client does not read (as upstream, after the frames already handed to the socket).
 */
import type { ServerResponse } from 'node:http';

/** The writer of one watch response. */
export class WatchStreamWriter {
  private stopped = false;
  private wake: (() => void) | null = null;

  /** `done`: resolves when the watch stops (optional: a watcher without it is only waited on for 'drain'). */
  constructor(
    private readonly res: ServerResponse,
    done: Promise<void> | undefined,
  ) {
    void done?.then(() => {
      this.stopped = true;
      this.wake?.();
    });
  }

  /**
   * Writes one frame. Resolves true when the caller may go on (the socket drained, or the watch
   * stopped meanwhile: the caller then finds its end), false when the response is gone (the
   * socket closed).
   */
  async write(frame: string | Buffer): Promise<boolean> {
    const res = this.res;
    if (res.destroyed) return false;
    if (res.write(frame)) return true;
    return new Promise((resolve) => {
      const finish = (ok: boolean) => {
        res.off('drain', onDrain);
        res.off('close', onClose);
        this.wake = null;
        resolve(ok);
      };
      const onDrain = () => finish(true);
      const onClose = () => finish(false);
      res.on('drain', onDrain);
      res.on('close', onClose);
      if (!this.stopped) this.wake = () => finish(true);
    });
  }
}
