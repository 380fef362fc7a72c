/**
 * A response body from an encoder's chunks (issue #17 item 5: a large list is never held whole,
 * let alone twice): the chunks are taken until they reach the gzip threshold; a body that ends
 * before is answered as one buffer (with Content-Length, as any small answer), a larger one as a
 * stream (chunked transfer encoding, no Content-Length, as upstream's streamed collections) that
 * takes the next chunk only when the socket has taken the last (stream backpressure: Koa pipes
 * it to the response, which waits for 'drain'), yields to the event loop every YIELD_BYTES, and
 * stops the encoder when the client goes away (Koa destroys the body, which returns the encoder).
 */
import { Readable } from 'node:stream';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { GZIP_THRESHOLD_BYTES } from './compression.js';

/** Bytes streamed between yields to the event loop. */
const YIELD_BYTES = 1024 * 1024;

/** What an encoder produces: text (written as UTF-8) or bytes. */
type Chunk = string | Uint8Array;

function toBuffer(c: Chunk): Buffer {
  return typeof c === 'string' ? Buffer.from(c, 'utf8') : Buffer.from(c.buffer, c.byteOffset, c.byteLength);
}

/** The already-taken `head`, then the rest of `chunks`; the encoder is returned however this ends. */
async function* rest(head: Buffer[], chunks: AsyncIterator<Chunk> | Iterator<Chunk>): AsyncGenerator<Buffer, void, undefined> {
  try {
    yield* head;
    head.length = 0;
    let since = 0;
    for (;;) {
      const r = await chunks.next();
      if (r.done) return;
      const b = toBuffer(r.value);
      yield b;
      since += b.length;
      if (since >= YIELD_BYTES) {
        since = 0;
        await yieldToLoop();
      }
    }
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
