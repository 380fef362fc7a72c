/**
 * A list document as compact JSON in bounded chunks rather than one string (issue #17 item 5;
 * upstream 1.33 streams JSON collections the same way, `runtime/serializer/json/collections.go`):
 * the list's other properties, then `items` a few dozen at a time, each item's JSON computed once
 * per object (json-cache.ts, as UTF-8 bytes). Concatenated, the chunks are exactly `encodeJSON(list)` (spec 000
 * § Content negotiation and encoding): `JSON.stringify(list)` and a newline, properties in the
 * list's own order.
 */
import { cachedJSON } from './json-cache.js';

/** Target size of one chunk in bytes (a few dozen typical objects; under V8's large-object size, so chunks die young). */
export const JSON_CHUNK_BYTES = 64 * 1024;

/** A document whose `items` is an array: a `<Kind>List`, a PartialObjectMetadataList. */
export type ListDocument = Record<string, unknown> & { items: unknown[] };

const COMMA = Buffer.from(',');

/** The JSON of one element of `items`, as JSON.stringify writes array elements, in UTF-8. */
function itemJSON(item: unknown): Buffer {
  if (typeof item === 'object' && item !== null) return cachedJSON(item);
  return Buffer.from(JSON.stringify(item) ?? 'null', 'utf8');
}

/**
 * The chunks of `list` as compact JSON (UTF-8) with a trailing newline; each chunk holds about
 * `chunkBytes` bytes (an item larger than that makes a chunk of its own size). Items are encoded as
 * the chunks are taken, so a consumer that stops early leaves the rest unencoded.
 */
export function* jsonListChunks(list: ListDocument, chunkBytes = JSON_CHUNK_BYTES): Generator<Buffer, void, undefined> {
  /** Bytes taken but not yet yielded, and their total length. */
  const parts: Buffer[] = [];
  let size = 0;
  let out = '{';
  let comma = '';
  for (const key of Object.keys(list)) {
    if (key !== 'items') {
      const value = JSON.stringify(list[key]);
      if (value === undefined) continue;
      out += `${comma}${JSON.stringify(key)}:${value}`;
      comma = ',';
      continue;
    }
    const head = Buffer.from(`${out}${comma}"items":[`, 'utf8');
    comma = ',';
    parts.push(head);
    size = head.length;
    const items = list.items;
    for (let i = 0; i < items.length; i++) {
      const b = itemJSON(items[i]);
      if (i > 0) {
        parts.push(COMMA);
        size++;
      }
      parts.push(b);
      size += b.length;
      if (size >= chunkBytes) {
        yield Buffer.concat(parts, size);
        parts.length = 0;
        size = 0;
      }
    }
    out = ']';
  }
  const tail = Buffer.from(`${out}}\n`, 'utf8');
  parts.push(tail);
  yield Buffer.concat(parts, size + tail.length);
}
