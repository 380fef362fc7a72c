/**
 * A list document as compact JSON in bounded chunks rather than one string (issue #17 item 5;
 * upstream 1.33 streams JSON collections the same way, `runtime/serializer/json/collections.go`):
 * the list's other properties, then `items` a few dozen at a time, each item's JSON computed once
 * per object (json-cache.ts). Concatenated, the chunks are exactly `encodeJSON(list)` (spec 000
 * § Content negotiation and encoding): `JSON.stringify(list)` and a newline, properties in the
 * list's own order.
 */
import { cachedJSON } from './json-cache.js';

/** Target size of one chunk in UTF-16 code units (a few dozen typical objects; under V8's large-object size, so chunks die young). */
export const JSON_CHUNK_CHARS = 64 * 1024;

/** A document whose `items` is an array: a `<Kind>List`, a PartialObjectMetadataList. */
export type ListDocument = Record<string, unknown> & { items: unknown[] };

/** The JSON of one element of `items`, as JSON.stringify writes array elements. */
function itemJSON(item: unknown): string {
  if (typeof item === 'object' && item !== null) return cachedJSON(item);
  return JSON.stringify(item) ?? 'null';
}

/**
 * The chunks of `list` as compact JSON with a trailing newline; each chunk holds about
 * `chunkChars` code units (an item larger than that makes a chunk of its own size). Items are
 * encoded as the chunks are taken, so a consumer that stops early leaves the rest unencoded.
 */
export function* jsonListChunks(list: ListDocument, chunkChars = JSON_CHUNK_CHARS): Generator<string, void, undefined> {
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
    out += `${comma}"items":[`;
    comma = ',';
    const parts: string[] = [out];
    let size = out.length;
    const items = list.items;
    for (let i = 0; i < items.length; i++) {
      const s = itemJSON(items[i]);
      parts.push(i > 0 ? `,${s}` : s);
      size += s.length;
      if (size >= chunkChars) {
        yield parts.join('');
        parts.length = 0;
        size = 0;
      }
    }
    out = `${parts.join('')}]`;
  }
  yield `${out}}\n`;
}
