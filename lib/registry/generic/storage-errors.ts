/**
 * Translation of storage errors into API Status errors for one resource (upstream
 * `storage/errors` interpretation), with the upstream messages.
 */
import {
  type GroupResource,
  StatusError,
  groupResourceString,
  newAlreadyExists,
  newBadRequest,
  newConflict,
  newInternalError,
  newNotFound,
  newRequestEntityTooLarge,
  newResourceExpired,
  newServerTimeout,
  newTimeout,
  newTooLargeResourceVersion,
  newUnknownError,
} from '../../apimachinery/errors.js';
import { StorageError } from '../../storage/errors.js';

/** Message of a 410 for a continue token whose revision was compacted (spec 000 § Chunked list parameters). */
export const INCONSISTENT_CONTINUE_MESSAGE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/** Seconds a client is told to wait after an etcd failure (upstream's NewServerTimeout(…, 2) in storage/errors). */
export const STORAGE_RETRY_AFTER_SECONDS = 2;

/**
 * 504 Timeout for a write etcd may have applied without confirming it (a timeout, a connection
 * lost after sending, a leader change during the proposal; storage code Timeout, upstream
 * storage.IsRequestTimeout): `Timeout: The <verb> operation against <resource> "<name>" was sent to
 * etcd but not confirmed; it may have succeeded: read it before retrying`, Retry-After 2.
 */
export function newWriteOutcomeUnknown(gr: GroupResource, name: string, verb: string): StatusError {
  const target = name ? `${groupResourceString(gr)} "${name}"` : groupResourceString(gr);
  return newTimeout(`The ${verb} operation against ${target} was sent to etcd but not confirmed; it may have succeeded: read it before retrying`, STORAGE_RETRY_AFTER_SECONDS);
}

/**
 * Maps an error thrown by storage for `gr`/`name` during `verb` to a StatusError. Any other error
 * (a defect, not a storage condition) is thrown on unchanged: the outermost filter logs it and
 * answers a generic 500, so no JavaScript runtime message reaches a client (issue #23 item 4).
 */
export function interpretStorageError(err: unknown, gr: GroupResource, name: string, verb: string): StatusError {
  if (err instanceof StatusError) return err;
  if (!(err instanceof StorageError)) throw err;
  switch (err.code) {
    case 'KeyNotFound':
      return newNotFound(gr, name);
    case 'KeyExists':
      return newAlreadyExists(gr, name);
    case 'ResourceVersionConflicts':
    case 'InvalidPreconditions':
      return newConflict(gr, name, err.message);
    case 'Compacted': {
      if (err.info.continueToken !== undefined) {
        const e = newResourceExpired(INCONSISTENT_CONTINUE_MESSAGE);
        e.status.metadata = { continue: err.info.continueToken };
        return e;
      }
      return newResourceExpired(err.message);
    }
    case 'TooLargeResourceVersion':
      return newTooLargeResourceVersion(err.info.requested ?? '', err.info.revision ?? '', 1);
    case 'InvalidContinue':
      return newBadRequest(`invalid continue token: ${err.message}`);
    case 'InvalidResourceVersion':
      return newBadRequest(err.message);
    case 'Unreachable':
      return newServerTimeout(gr, verb, STORAGE_RETRY_AFTER_SECONDS);
    case 'Timeout':
      return newWriteOutcomeUnknown(gr, name, verb);
    case 'Alarm':
      return newUnknownError(err.message);
    case 'RequestTooLarge':
      return newRequestEntityTooLarge(`${groupResourceString(gr)} "${name}" is larger than storage accepts (${err.message})`);
    case 'InvalidObj':
      return newInternalError(err.message);
  }
}
