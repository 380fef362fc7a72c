/**
 * Query parameters of modifying requests: `dryRun`, `fieldValidation`, `fieldManager`, `force`
 * (spec 000 § Modifying-request query parameters, § Field validation levels). Invalid values are 400.
 */
import { newBadRequest } from '../../apimachinery/errors.js';
import { fieldErrorString, invalid, notSupported, tooLong } from '../../apimachinery/field-errors.js';
import { queryBool } from '../../request/request-info.js';

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

/** Parsed write parameters. */
export interface WriteOptions {
  dryRun: boolean;
  fieldValidation: FieldValidation;
  /** Explicit `fieldManager`, or '' when absent. */
  fieldManager: string;
  force: boolean;
}

const FIELD_VALIDATIONS: readonly FieldValidation[] = ['Ignore', 'Strict', 'Warn'];
/** The values upstream lists as supported ('' is the default, Warn). */
const SUPPORTED_FIELD_VALIDATIONS = ['', ...FIELD_VALIDATIONS];

/** `dryRun` values: absent → false; `All` or valueless → true; anything else 400. */
export function parseDryRun(values: string[]): boolean {
  if (values.length === 0) return false;
  for (const v of values) {
    if (v !== 'All' && v !== '') throw newBadRequest(fieldErrorString(notSupported('dryRun', v, ['All'])));
  }
  return true;
}

/** Longest fieldManager, in bytes (upstream FieldManagerMaxLength). */
const FIELD_MANAGER_MAX_BYTES = 128;
/** Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** Upstream ValidateFieldManager: at most 128 bytes, printable characters only (400 otherwise). */
function checkFieldManager(fm: string): void {
  if (Buffer.byteLength(fm) > FIELD_MANAGER_MAX_BYTES) throw newBadRequest(fieldErrorString(tooLong('fieldManager', fm, FIELD_MANAGER_MAX_BYTES)));
  let offset = 0;
  for (const ch of fm) {
    if (!PRINTABLE.test(ch)) {
      const code = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
      throw newBadRequest(fieldErrorString(invalid('fieldManager', fm, `invalid character U+${code} (at position ${offset})`)));
    }
    offset += Buffer.byteLength(ch);
  }
}

/** Parses the modifying-request parameters of `q`. */
export function parseWriteOptions(q: URLSearchParams): WriteOptions {
  const fv = q.get('fieldValidation') ?? '';
  if (fv !== '' && !FIELD_VALIDATIONS.includes(fv as FieldValidation)) {
    throw newBadRequest(fieldErrorString(notSupported('fieldValidation', fv, SUPPORTED_FIELD_VALIDATIONS)));
  }
  const fieldManager = q.get('fieldManager') ?? '';
  checkFieldManager(fieldManager);
  return {
    dryRun: parseDryRun(q.getAll('dryRun')),
    fieldValidation: (fv || 'Warn') as FieldValidation,
    fieldManager,
    force: queryBool(q.get('force')),
  };
}
