/**
 * HTTP/1.1 chunks of a watch response (RFC 9112 § 7.1: the size in hex, CRLF, the data, CRLF),
 * written straight to the socket by watch-writer.ts.
 *
 * A frame shared by every watcher of one event (watch-encoder.ts) is made inside its own chunk:
 * {@link chunkedFrame} lays out the size line, the frame and the CRLF in one buffer and returns the
 * frame as a view of it, and {@link chunkOf} gives that chunk back. A turn that writes one frame
 * (the common case: one event fanned out to many clients) writes the same chunk to every socket,
 * with no allocation or copy per client and a few bytes more per frame.
 */

const CRLF = Buffer.from('\r\n');

/** The chunk around each frame made by {@link chunkedFrame}: a view of the same memory, collected with the frame. */
const chunks = new WeakMap<Buffer, Buffer>();

/**
 * A frame of `length` bytes placed inside its own chunk: `write(buffer, offset)` writes the frame's
 * bytes at `offset` of `buffer` (and must write exactly `length`). Returns the frame (a view: the
 * chunk's memory is its own, never a slice of Node's shared pool, which a kept frame would pin).
 */
export function chunkedFrame(length: number, write: (buffer: Buffer, offset: number) => void): Buffer {
  const size = `${length.toString(16)}\r\n`;
  const chunk = Buffer.allocUnsafeSlow(size.length + length + 2);
  chunk.write(size, 0, 'latin1');
  write(chunk, size.length);
  CRLF.copy(chunk, size.length + length);
  const frame = chunk.subarray(size.length, size.length + length);
  chunks.set(frame, chunk);
  return frame;
}

/** The chunk carrying `frame` alone: the one it was made in ({@link chunkedFrame}), else a new one. */
export function chunkOf(frame: Buffer): Buffer {
  return chunks.get(frame) ?? httpChunk([frame], 0, 1, frame.length);
}

/** One chunk carrying `frames[from…to)` (`bytes` in all): the size line, the frames, CRLF, in one buffer. */
export function httpChunk(frames: readonly Buffer[], from: number, to: number, bytes: number): Buffer {
  const size = `${bytes.toString(16)}\r\n`;
  const out = Buffer.allocUnsafe(size.length + bytes + 2);
  let at = out.write(size, 0, 'latin1');
  for (let i = from; i < to; i++) at += frames[i]!.copy(out, at);
  CRLF.copy(out, at);
  return out;
}
