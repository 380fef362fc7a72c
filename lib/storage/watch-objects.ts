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

/** A BOOKMARK event: its object has only metadata.resourceVersion (and the end-of-initial-events annotation). */
export function bookmarkEvent(rv: number | string, initialEventsEnd = false): WatchEvent {
  const metadata: Record<string, unknown> = { resourceVersion: String(rv) };
  if (initialEventsEnd) metadata.annotations = { [INITIAL_EVENTS_END_ANNOTATION]: 'true' };
  return { type: 'BOOKMARK', object: { metadata } };
}
