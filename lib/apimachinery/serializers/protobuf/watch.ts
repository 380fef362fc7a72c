/**
 * Protobuf watch streams (`PROTOBUF_MEDIA_TYPE;stream=watch`; spec 000 § Watch event document,
 * § Protobuf envelope), framed as upstream frames them:
 *
 *   frame = uint32 big-endian length ‖ WatchEvent message (length bytes)
 *   WatchEvent = { type = 1: "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK" | "ERROR",
 *                  object = 2: RawExtension { raw = 1: the enveloped object (magic + Unknown) } }
 *
 * Upstream writes the WatchEvent itself with its stream serializer (the raw protobuf serializer:
 * no magic, no Unknown) through the length-delimited framer, and the event's object with the
 * embedded (full) serializer, so only the inner object carries the magic and the envelope.
 */
import { type DecodedProtobuf, encodeProtobuf, decodeProtobuf, type ProtobufKind, type ProtobufResolver } from './envelope.js';
import { ProtobufError } from './errors.js';
import { WatchEvent } from './meta-types.js';
import type { Message } from './scalars.js';

/** Watch event types (spec 000 § Watch event document). */
export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** A decoded watch event: its type and the enveloped object (apiVersion, kind, JSON object). */
export interface DecodedWatchEvent extends DecodedProtobuf {
  type: string;
}

/** Largest frame the reader accepts unless told otherwise (upstream's stream decoder limit, 16 MiB). */
export const DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;

const LENGTH_BYTES = 4;

/**
 * One watch frame around an already enveloped object (`encodeProtobuf` output), so a server can
 * envelope an event's object once and frame it for every watcher.
 */
export function encodeWatchFrame(type: WatchEventType, envelope: Uint8Array): Buffer {
  const event = WatchEvent.encode({ type, object: { raw: envelope } }).finish();
  const frame = Buffer.allocUnsafe(LENGTH_BYTES + event.length);
  frame.writeUInt32BE(event.length, 0);
  frame.set(event, LENGTH_BYTES);
  return frame;
}

/**
 * One watch frame for a JSON object of the given kind (the event's object; a `Status` with
 * STATUS_KIND for ERROR events).
 * @throws ProtobufError `Unencodable` when the object does not fit the schema.
 */
export function encodeWatchEvent(type: WatchEventType, obj: Record<string, unknown>, kind: ProtobufKind): Buffer {
  return encodeWatchFrame(type, encodeProtobuf(obj, kind));
}

/**
 * Decodes the body of one frame (without its length prefix) into the event type and object.
 * @throws ProtobufError `Malformed` (not a WatchEvent, or no object), and every error of
 *   decodeProtobuf for the inner envelope.
 */
export function decodeWatchEvent(frame: Uint8Array, resolve: ProtobufResolver): DecodedWatchEvent {
  let event: Message;
  try {
    event = WatchEvent.decode(frame) as unknown as Message;
  } catch (err) {
    throw new ProtobufError('Malformed', `malformed protobuf watch event: ${(err as Error).message}`, { cause: err });
  }
  const raw = (event.object as Message | null)?.raw as Uint8Array | undefined;
  if (!raw || raw.length === 0) throw new ProtobufError('Malformed', 'malformed protobuf watch event: no object');
  return { type: (event.type as string | undefined) ?? '', ...decodeProtobuf(raw, resolve) };
}

/**
 * Splits a byte stream into watch frame bodies, whatever the chunking: `push` returns the
 * frames completed by a chunk, `end` checks the stream stopped between frames. Linear in the
 * bytes read (a frame is joined once, when complete).
 */
export class WatchFrameReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** Total bytes (length prefix included) of the frame being read, once its prefix is known. */
  private needed: number | undefined;

  constructor(private readonly maxFrameBytes = DEFAULT_MAX_FRAME_BYTES) {}

  /**
   * Adds a chunk; returns the bodies of the frames it completes, in order.
   * @throws ProtobufError `BadFrame` when a frame announces more than maxFrameBytes.
   */
  push(chunk: Uint8Array): Buffer[] {
    if (chunk.length > 0) {
      this.chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      this.buffered += chunk.length;
    }
    const frames: Buffer[] = [];
    while (this.buffered >= LENGTH_BYTES) {
      if (this.needed === undefined) {
        const length = this.joined().readUInt32BE(0);
        if (length > this.maxFrameBytes) {
          throw new ProtobufError('BadFrame', `watch frame of ${length} bytes exceeds the limit of ${this.maxFrameBytes} bytes`);
        }
        this.needed = LENGTH_BYTES + length;
      }
      if (this.buffered < this.needed) break;
      const data = this.joined();
      frames.push(data.subarray(LENGTH_BYTES, this.needed));
      const rest = data.subarray(this.needed);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.buffered = rest.length;
      this.needed = undefined;
    }
    return frames;
  }

  /**
   * Ends the stream.
   * @throws ProtobufError `BadFrame` when it ended inside a frame.
   */
  end(): void {
    if (this.buffered > 0) throw new ProtobufError('BadFrame', `watch stream ended inside a frame (${this.buffered} bytes left over)`);
  }

  private joined(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks, this.buffered)];
    return this.chunks[0]!;
  }
}
