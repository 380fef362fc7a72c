/**
 * Streams a large list as JSON without blocking the event loop: the envelope, then the items in
 * batches (each item's JSON computed once per object, see json-cache.ts), yielding to the loop
 * between batches. The bytes are exactly `JSON.stringify(list)` plus a newline.
 */
import { Readable } from 'node:stream';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { cachedJSON } from './json-cache.js';

/** Items per chunk (about a few hundred kilobytes for typical objects). */
const BATCH = 256;

/** A readable stream of `list` as JSON; `list.items` must be the last key. */
export function jsonListStream(list: { items: object[] } & Record<string, unknown>): Readable {
  const { items, ...head } = list;
  const prefix = JSON.stringify(head);
  return Readable.from(
    (async function* () {
      yield `${prefix.slice(0, -1)}${prefix.length > 2 ? ',' : ''}"items":[`;
      for (let i = 0; i < items.length; i += BATCH) {
        const parts: string[] = [];
        for (let j = i; j < Math.min(i + BATCH, items.length); j++) parts.push(cachedJSON(items[j]!));
        yield (i > 0 ? ',' : '') + parts.join(',');
        if (i + BATCH < items.length) await yieldToLoop();
      }
      yield ']}\n';
    })(),
    { objectMode: false },
  );
}
