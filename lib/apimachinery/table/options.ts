/**
 * The Table request options (upstream `metav1.TableOptions`): only `includeObject` is a query
 * parameter — `None`, `Metadata` (the default, also for an empty value) or `Object`. Anything
 * else is a 400 with upstream's message (spec 000 § Table representation).
 */
import { fieldErrorString, notSupported } from '../field-errors.js';
import type { IncludeObject } from './types.js';

const INCLUDE_OBJECT_VALUES: readonly IncludeObject[] = ['Metadata', 'None', 'Object'];

/** An unusable Table option; upstream answers 400 BadRequest with `message`. */
export class TableOptionsError extends Error {
  override readonly name = 'TableOptionsError';
}

/**
 * Reads the `includeObject` query value: absent or empty → `Metadata`.
 * @throws TableOptionsError `Unable to convert to Table as requested: includeObject:
 *   Unsupported value: "x": supported values: "Metadata", "None", "Object"`.
 */
export function parseIncludeObject(value: string | null | undefined): IncludeObject {
  if (value === undefined || value === null || value === '') return 'Metadata';
  if ((INCLUDE_OBJECT_VALUES as readonly string[]).includes(value)) return value as IncludeObject;
  const err = notSupported('includeObject', value, INCLUDE_OBJECT_VALUES);
  throw new TableOptionsError(`Unable to convert to Table as requested: ${fieldErrorString(err)}`);
}
