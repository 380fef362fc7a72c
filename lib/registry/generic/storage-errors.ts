/**
 * Translation of storage errors into API Status errors for one resource (upstream
 * `storage/errors` interpretation), with the upstream messages.
 */
import {
  type GroupResource,
  StatusError,
  newAlreadyExists,
  newBadRequest,
  newConflict,
  newInternalError,
  newNotFound,
  newResourceExpired,
  newServerTimeout,
  newTooLargeResourceVersion,
} from '../../apimachinery/errors.js';
import { StorageError } from '../../storage/errors.js';

/** Message of a 410 for a continue token whose revision was compacted (spec 000 § Chunked list parameters). */
export const INCONSISTENT_CONTINUE_MESSAGE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

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
      return newServerTimeout(gr, verb, 2);
    case 'InvalidObj':
      return newInternalError(err.message);
  }
}
