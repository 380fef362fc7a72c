/**
 * What storage makes up for watchers: the Status of ERROR events (from the error catalogue) and
 * BOOKMARK events (spec 001 § Events).
 */
import { newResourceExpired } from '../apimachinery/errors.js';
import { INITIAL_EVENTS_END_ANNOTATION } from '../apis/vendor.js';
import type { StoredObject, WatchEvent } from './interface.js';

/** The Status of an ERROR event for a start revision older than the history kept (410 Expired). */
export function expiredStatus(message: string): StoredObject {
  return newResourceExpired(message).status as unknown as StoredObject;
}

/** The last BOOKMARK made without and with the end-of-initial-events annotation. */
const lastBookmarks: [WatchEvent | null, WatchEvent | null] = [null, null];

/**
 * A BOOKMARK event: its object has only metadata.resourceVersion (and the end-of-initial-events
 * annotation). The same event is handed out again for the same revision (events are never
 * mutated), so a round of BOOKMARKs to many watchers is one object, encoded once for all of them
 * (lib/endpoints/handlers/watch-encoder.ts).
 */
export function bookmarkEvent(rv: number | string, initialEventsEnd = false): WatchEvent {
  const i = initialEventsEnd ? 1 : 0;
  const resourceVersion = String(rv);
  const last = lastBookmarks[i];
  if (last?.object.metadata?.resourceVersion === resourceVersion) return last;
  const metadata: Record<string, unknown> = { resourceVersion };
  if (initialEventsEnd) metadata.annotations = { [INITIAL_EVENTS_END_ANNOTATION]: 'true' };
  return (lastBookmarks[i] = { type: 'BOOKMARK', object: { metadata } });
}
