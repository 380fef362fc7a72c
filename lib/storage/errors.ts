/**
 * Storage-level errors, independent of HTTP. The registry translates them into API Status
 * errors (lib/registry/generic/storage-errors.ts).
 */

export type StorageErrorCode =
  | 'KeyNotFound'
  | 'KeyExists'
  | 'ResourceVersionConflicts'
  | 'InvalidObj'
  | 'Unreachable'
  | 'Timeout'
  | 'RequestTooLarge'
  | 'Alarm'
  | 'InvalidPreconditions'
  | 'Compacted'
  | 'TooLargeResourceVersion'
  | 'InvalidContinue'
  | 'InvalidResourceVersion';

/** An error of the storage layer, with the key it concerns. */
export class StorageError extends Error {
  constructor(
    readonly code: StorageErrorCode,
    readonly key: string,
    message: string,
    /**
     * `revision`: for Compacted, the oldest revision still available; for TooLargeResourceVersion,
     * the current one. `requested`: the revision asked for. `continueToken`: for a compacted paged
     * list, a token that continues inconsistently at the newest revision.
     */
    readonly info: { revision?: string; requested?: string; continueToken?: string } = {},
  ) {
    super(message);
    this.name = 'StorageError';
  }
}

export const keyNotFound = (key: string) => new StorageError('KeyNotFound', key, `key not found: ${key}`);
export const keyExists = (key: string) => new StorageError('KeyExists', key, `key exists: ${key}`);
export const conflict = (key: string, detail: string) => new StorageError('ResourceVersionConflicts', key, detail);
export const invalidObj = (key: string, detail: string) => new StorageError('InvalidObj', key, detail);
export const unreachable = (key: string, detail: string) => new StorageError('Unreachable', key, detail);
/**
 * A write sent to etcd whose outcome is unknown (a timeout, a connection lost after sending, a
 * leader change during the proposal): it may have been applied (upstream storage ErrCodeTimeout).
 */
export const writeTimeout = (key: string, detail: string) => new StorageError('Timeout', key, detail);
/** etcd refused a request past its size limit (`etcdserver: request is too large`): nothing was written. */
export const requestTooLarge = (key: string, detail: string) => new StorageError('RequestTooLarge', key, detail);
/**
 * etcd answered with an alarm's error (`etcdserver: mvcc: database space exceeded`), told to the
 * client as it is: the write that raised the alarm was applied, every later one refused.
 */
export const alarmRaised = (key: string, detail: string) => new StorageError('Alarm', key, detail);
export const invalidPreconditions = (key: string, detail: string) => new StorageError('InvalidPreconditions', key, detail);
export const compacted = (key: string, requested: string, oldest: string) =>
  new StorageError('Compacted', key, `too old resource version: ${requested} (${oldest})`, { revision: oldest, requested });
export const compactedContinue = (key: string, continueToken: string) =>
  new StorageError('Compacted', key, 'continue revision compacted', { continueToken });
export const tooLargeResourceVersion = (key: string, requested: string, current: string) =>
  new StorageError('TooLargeResourceVersion', key, `Too large resource version: ${requested}, current: ${current}`, {
    revision: current,
    requested,
  });
export const invalidContinue = (detail: string) => new StorageError('InvalidContinue', '', detail);
export const invalidResourceVersion = (rv: string) =>
  new StorageError('InvalidResourceVersion', '', `invalid resource version: ${rv}`);

/** True when `err` is a StorageError with `code`. */
export function isStorageError(err: unknown, code: StorageErrorCode): err is StorageError {
  return err instanceof StorageError && err.code === code;
}
