/**
 * Writes one watch stream to its HTTP response (issue #17 item 3, issue #19 item 1). Events are
 * taken from the watcher as soon as it has them (synchronously, while the socket accepts more),
 * and written in turns given by a shared scheduler (watch-scheduler.ts), so that one event fanned
 * out to many watchers is written as many short pieces of work between which the event loop
 * handles requests. A turn writes the events taken for this client, up to {@link SLICE_BYTES},
 * as one socket write: a client whose turn came late gets its backlog in few large writes
 * instead of one write per event (upstream's watch server likewise flushes only when no more
 * events are waiting).
 *
 * The response's headers are sent (`flushHeaders`) before the writer starts; the writer then
 * writes each turn's frames as one HTTP/1.1 chunk of its own making straight to the socket, one
 * socket write, where `res.write` would make four (size line, data, CRLF, and the copy joining
 * them): a fifth of the cost of a small write. A turn of one shared frame writes the chunk the
 * frame was made in (http-chunk.ts), the same bytes for every client. `res.end()` still writes
 * the last chunk. A response not yet given its socket (a request pipelined behind another) is
 * written once it is.
 *
 * Backpressure: once the socket's buffer passes its high-water mark (`socket.write` returns false),
 * nothing more is taken or written until 'drain', so Node buffers at most one slice beyond the
 * mark for a client that does not read; the events wait in the watcher's bounded buffer instead
 * (lib/storage/cacher/cache-watcher.ts), which closes the watch when it stays full. Only a client
 * that does not read fills it: while the socket accepts writes everything is taken, however late
 * the server's own turns come (issue #17 item 3: a watcher closed is one whose client does not
 * read, not one the loop was too busy to write to). The wait for
 * 'drain' also ends when the watch stops on the server's side (`Watcher.done`, e.g. a watcher
 * closed for not keeping up): the response ends after the frames already handed to the socket,
 * as upstream.
 */
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Watcher } from '../../storage/interface.js';
import type { WatchEventRecorder } from '../endpoint-metrics.js';
import { chunkOf, httpChunk } from './http-chunk.js';
import type { WatchFrameEncoder } from './watch-encoder.js';
import { type FlushScheduler, type Flushable, watchFlushes } from './watch-scheduler.js';

/** Most bytes taken for one socket write (the default high-water mark of a socket); a larger frame goes alone. */
export const SLICE_BYTES = 16 * 1024;

/** Options of a {@link WatchStreamWriter}. */
export interface WatchStreamOptions {
  /** Records each frame written (`apiserver_watch_events_*`). */
  record?: WatchEventRecorder;
  /** The scheduler of the turns (default: the process's). */
  scheduler?: FlushScheduler;
  /** Called once when the stream has ended (the response ended and the watcher stopped). */
  onEnd?: () => void;
}

/** The writer of one watch response. */
export class WatchStreamWriter implements Flushable {
  queued = false;
  /** Frames of the events taken from the watcher, not written yet (from `head`). */
  private taken: Buffer[] = [];
  private head = 0;
  /** The watcher has ended: once `taken` is written, so does the response. */
  private last = false;
  /** An event that could not be encoded: the stream ends on the next turn, which rethrows it. */
  private failure: { err: unknown } | null = null;
  private draining = false;
  /** The socket waited on for 'drain' while draining. */
  private socket: Socket | null = null;
  private ended = false;
  private readonly scheduler: FlushScheduler;

  /** `res`: the response, headers sent; `encode`: the frame of one event. Call {@link start} to begin. */
  constructor(
    private readonly res: ServerResponse,
    private readonly watcher: Watcher,
    private readonly encode: WatchFrameEncoder,
    private readonly opts: WatchStreamOptions = {},
  ) {
    this.scheduler = opts.scheduler ?? watchFlushes;
  }

  /** True once the stream has ended. */
  get isEnded(): boolean {
    return this.ended;
  }

  /** Starts writing: what the watcher holds now, then every event as it comes, until the watch or the response ends. */
  start(): void {
    this.res.on('close', this.closed);
    if (!this.res.socket) this.res.once('socket', this.readable);
    this.watcher.onReadable(this.readable);
    void this.watcher.done?.then(this.stopped);
    this.readable();
  }

  /** Writes one slice of the frames taken; ends the response once the watcher has ended and all is written. */
  flush(): void {
    if (this.ended || this.draining) return;
    if (this.failure) {
      this.end();
      throw this.failure.err;
    }
    if (this.res.destroyed) {
      this.end();
      return;
    }
    const socket = this.res.socket;
    if (!socket) return;
    this.take();
    const taken = this.taken;
    const start = this.head;
    let bytes = 0;
    while (this.head < taken.length && bytes < SLICE_BYTES) {
      const frame = taken[this.head++]!;
      bytes += frame.length;
      this.opts.record?.(frame.length);
    }
    const end = this.head;
    if (end === taken.length) {
      this.taken = [];
      this.head = 0;
    }
    if (end > start && !socket.write(end - start === 1 ? chunkOf(taken[start]!) : httpChunk(taken, start, end, bytes))) {
      this.draining = true;
      this.socket = socket;
      socket.once('drain', this.drained);
    }
    if (!this.draining) this.take();
    if (this.head < this.taken.length) {
      if (!this.draining) this.scheduler.schedule(this);
    } else if (this.last) {
      this.end();
    }
  }

  /**
   * Takes and encodes all the watcher holds (called only while the socket accepts writes), and
   * notes its end. What waits for a turn costs a reference per event: the frames are shared.
   */
  private take(): void {
    while (!this.failure) {
      const ev = this.watcher.take();
      if (ev === undefined) return;
      if (ev === null) {
        this.last = true;
        return;
      }
      try {
        const frame = this.encode(ev);
        this.taken.push(frame);
      } catch (err) {
        this.failure = { err };
      }
    }
  }

  /** The watcher may have something new: take it unless the socket is full, and ask for a turn. */
  private readonly readable = (): void => {
    if (this.draining || this.ended) return;
    this.take();
    this.scheduler.schedule(this);
  };

  private readonly drained = (): void => {
    this.draining = false;
    this.socket = null;
    this.readable();
  };

  /**
   * The watch stopped on the server's side. A client that is not reading (the socket is full) is
   * let go at once, without what was taken and not written (as upstream ends the response of a
   * closed watcher, dropping what its channel held); otherwise what is left is taken and written.
   */
  private readonly stopped = (): void => {
    if (this.draining) this.end();
    else this.readable();
  };

  /** The response closed (the client left, or the server ended it). */
  private readonly closed = (): void => {
    this.end();
  };

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    this.res.off('close', this.closed);
    this.res.off('socket', this.readable);
    this.socket?.off('drain', this.drained);
    this.watcher.stop();
    this.res.end();
    this.opts.onEnd?.();
  }
}
