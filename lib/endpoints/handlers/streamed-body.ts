/**
 * A response body from an encoder's chunks (issue #17 item 5: a large list is never held whole,
 * let alone twice): the chunks are taken until they reach the gzip threshold; a body that ends
 * before is answered as one buffer (with Content-Length, as any small answer), a larger one as a
 * stream (chunked transfer encoding, no Content-Length, as upstream's streamed collections) that
 * takes the next chunk only when the socket has taken the last (stream backpressure: Koa pipes
 * it to the response, which waits for 'drain'), in writes of about WRITE_BYTES, yields to the
 * event loop between them, and stops the encoder when the client goes away (Koa destroys the
 * body, which returns the encoder).
 */
import { Readable } from 'node:stream';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { GZIP_THRESHOLD_BYTES } from './compression.js';

/**
 * Bytes of one write to the response (the encoder's chunks joined): each write waits for the
 * socket's 'drain', one turn of the event loop, so the 64 KiB chunks of a list of 60,000 Pods
 * (180 MB) took about 2,800 turns, tens of seconds on a loaded server (issue #24 item 3); in
 * writes of 1 MiB, about 180. Also the bytes between two yields to the event loop.
 */
export const WRITE_BYTES = 1024 * 1024;

/** What an encoder produces: text (written as UTF-8) or bytes. */
type Chunk = string | Uint8Array;

function toBuffer(c: Chunk): Buffer {
  return typeof c === 'string' ? Buffer.from(c, 'utf8') : Buffer.from(c.buffer, c.byteOffset, c.byteLength);
}

/** The joined bytes of `parts` (`size` in all; the one part itself when alone). */
const joined = (parts: Buffer[], size: number): Buffer => (parts.length === 1 ? parts[0]! : Buffer.concat(parts, size));

/**
 * The already-taken `head`, then the rest of `chunks`, joined into writes of at least
 * {@link WRITE_BYTES} (the last one shorter); the encoder is returned however this ends.
 */
async function* rest(head: Buffer[], chunks: AsyncIterator<Chunk> | Iterator<Chunk>): AsyncGenerator<Buffer, void, undefined> {
  try {
    let parts = head;
    let size = head.reduce((n, b) => n + b.length, 0);
    for (;;) {
      const r = await chunks.next();
      if (r.done) break;
      const b = toBuffer(r.value);
      parts.push(b);
      size += b.length;
      if (size >= WRITE_BYTES) {
        yield joined(parts, size);
        parts = [];
        size = 0;
        await yieldToLoop();
      }
    }
    if (size > 0) yield joined(parts, size);
  } finally {
    await chunks.return?.();
  }
}

/**
 * The body of an encoder's `chunks` (sync or async): a Buffer when they total at most
 * GZIP_THRESHOLD_BYTES, else a Readable of their bytes in order (see the file comment). An
 * encoder error before the threshold is thrown here (the answer is still an error Status);
 * after it, the stream fails and the connection is cut, as upstream's.
 */
export async function streamedBody(chunks: AsyncIterable<Chunk> | Iterable<Chunk>): Promise<Buffer | Readable> {
  const it = Symbol.asyncIterator in chunks ? chunks[Symbol.asyncIterator]() : chunks[Symbol.iterator]();
  const head: Buffer[] = [];
  let size = 0;
  while (size <= GZIP_THRESHOLD_BYTES) {
    const r = await it.next();
    if (r.done) return head.length === 1 ? head[0]! : Buffer.concat(head, size);
    const b = toBuffer(r.value);
    head.push(b);
    size += b.length;
  }
  return Readable.from(rest(head, it), { objectMode: false });
}
