/**
 * A `<Kind>List` (or PartialObjectMetadataList) in the protobuf envelope, produced in bounded
 * chunks rather than one buffer (issue #17 item 5; upstream 1.33 streams protobuf collections the
 * same way, `runtime/serializer/protobuf/collections.go`). The envelope carries the list message's
 * length before it, so every item's message is encoded (or taken from the per-object cache) before
 * the first chunk; the chunks then copy those messages out a slice at a time. Concatenated, the
 * chunks are exactly `encodeProtobuf(list, kind)` (spec 000 § Protobuf envelope): the list's
 * fields by ascending number, `items` as one length-delimited field per item.
 */
import { type ListSchema, type StructSchema, structFields } from '../../schema/types.js';
import { envelopeFraming, type ProtobufKind } from './envelope.js';
import { encodeMessage } from './writer.js';

type Obj = Record<string, unknown>;

/** Awaited between slices of work that produce no output yet (encoding the items), so a caller can yield to the event loop. */
export type Pause = () => Promise<void>;

/** Target size of one chunk in bytes (a few dozen typical objects). */
export const PROTOBUF_CHUNK_BYTES = 64 * 1024;

/** Items encoded between pauses. */
const PAUSE_ITEMS = 256;

const LENGTH_DELIMITED = 2;
const EMPTY = new Uint8Array(0);

/**
 * Item messages by object. Objects handed out by storage are never mutated (the watch cache
 * shares them between requests), so a message stays valid for the object's lifetime; the WeakMap
 * lets it go with the object.
 */
const itemMessages = new WeakMap<object, Uint8Array>();

function itemMessage(schema: StructSchema, item: unknown): Uint8Array {
  if (item === null || item === undefined) return EMPTY;
  const o = item as Obj;
  let msg = itemMessages.get(o);
  if (msg === undefined) {
    msg = encodeMessage(schema, o);
    itemMessages.set(o, msg);
  }
  return msg;
}

/** Bytes of `n` as a protobuf varint. */
function varintSize(n: number): number {
  let size = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 128);
    size++;
  }
  return size;
}

/** Writes `n` as a varint at `pos`; returns the position after it. */
function writeVarint(buf: Buffer, pos: number, n: number): number {
  while (n >= 0x80) {
    buf[pos++] = (n & 0x7f) | 0x80;
    n = Math.floor(n / 128);
  }
  buf[pos++] = n;
  return pos;
}

/** One chunk of `size` bytes: `lead`, the items `messages[from..to)` each as field `tag`, then `trail`. */
function assemble(size: number, lead: Uint8Array, tag: number, messages: Uint8Array[], from: number, to: number, trail: Uint8Array): Buffer {
  const buf = Buffer.allocUnsafe(size);
  buf.set(lead, 0);
  let pos = lead.length;
  for (let i = from; i < to; i++) {
    const msg = messages[i]!;
    pos = writeVarint(buf, writeVarint(buf, pos, tag), msg.length);
    buf.set(msg, pos);
    pos += msg.length;
  }
  buf.set(trail, pos);
  return buf;
}

/** The list's fields other than `items`, as one message-level byte string, split at `items`' number. */
function otherFields(schema: StructSchema, itemsNumber: number, list: Obj): { before: Uint8Array; after: Uint8Array } {
  const before: Obj = {};
  const after: Obj = {};
  for (const [json, f] of Object.entries(structFields(schema))) {
    if (json === 'items' || f.proto === 0 || list[json] === undefined) continue;
    (f.proto < itemsNumber ? before : after)[json] = list[json];
  }
  return { before: encodeMessage(schema, before), after: encodeMessage(schema, after) };
}

/** The struct schema of `kind`'s items and their field number; undefined when `items` is not a list of messages. */
function itemsField(kind: ProtobufKind): { schema: StructSchema; number: number } | undefined {
  const f = structFields(kind.schema).items;
  const element = f?.schema.type === 'list' ? (f.schema as ListSchema).items : undefined;
  return f && element?.type === 'struct' ? { schema: element, number: f.proto } : undefined;
}

/** True when `kind` is a list kind: its `items` a list of messages, so protobufListChunks can encode it. */
export function isMessageList(kind: ProtobufKind): boolean {
  return itemsField(kind) !== undefined;
}

/**
 * The chunks of `list` (a list document whose `items` is an array) in the protobuf envelope of
 * `kind` (its `schema` a list schema: `metadata` and `items`). Every item is encoded before the
 * first chunk is produced, awaiting `pause` every few hundred items; each chunk then holds about
 * `chunkBytes` (an item larger than that makes a chunk of its own size).
 * @throws ProtobufError `Unencodable` (before any chunk) when an item does not fit the schema;
 *   Error when `kind` is not a list kind (see isMessageList).
 */
export async function* protobufListChunks(list: Obj & { items: unknown[] }, kind: ProtobufKind, pause: Pause, chunkBytes = PROTOBUF_CHUNK_BYTES): AsyncGenerator<Uint8Array, void, undefined> {
  const items = itemsField(kind);
  if (!items) throw new Error(`${kind.apiVersion}/${kind.kind} has no list of messages in 'items'`);
  const itemsTag = ((items.number << 3) | LENGTH_DELIMITED) >>> 0;
  const tagSize = varintSize(itemsTag);
  const { before, after } = otherFields(kind.schema, items.number, list);
  const messages: Uint8Array[] = new Array<Uint8Array>(list.items.length);
  let rawLength = before.length + after.length;
  for (let i = 0; i < list.items.length; i++) {
    if (i > 0 && i % PAUSE_ITEMS === 0) await pause();
    const msg = itemMessage(items.schema, list.items[i]);
    messages[i] = msg;
    rawLength += tagSize + varintSize(msg.length) + msg.length;
  }
  const framing = envelopeFraming(kind.apiVersion, kind.kind, rawLength);
  let lead: Uint8Array = Buffer.concat([framing.prefix, before]);
  let from = 0;
  let size = lead.length;
  for (let i = 0; i < messages.length; i++) {
    const len = messages[i]!.length;
    size += tagSize + varintSize(len) + len;
    if (size >= chunkBytes) {
      yield assemble(size, lead, itemsTag, messages, from, i + 1, EMPTY);
      lead = EMPTY;
      from = i + 1;
      size = 0;
    }
  }
  const trail = Buffer.concat([after, framing.suffix]);
  yield assemble(size + trail.length, lead, itemsTag, messages, from, messages.length, trail);
}
