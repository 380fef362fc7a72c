/**
 * The Status objects storage hands to watchers in ERROR events, from the error catalogue.
 */
import { newResourceExpired } from '../apimachinery/errors.js';
import type { StoredObject } from './interface.js';

/** The Status of an ERROR event for a start revision older than the history kept (410 Expired). */
export function expiredStatus(message: string): StoredObject {
  return newResourceExpired(message).status as unknown as StoredObject;
}
