/**
 * Query parameters of modifying requests: `dryRun`, `fieldValidation`, `fieldManager`, `force`
 * (spec 000 § Modifying-request query parameters, § Field validation levels). Invalid values are 400.
 */
import { newBadRequest } from '../../apimachinery/errors.js';
import { fieldErrorString, notSupported } from '../../apimachinery/field-errors.js';

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

/** Parses the modifying-request parameters of `q`. */
export function parseWriteOptions(q: URLSearchParams): WriteOptions {
  const fv = q.get('fieldValidation') ?? '';
  if (fv !== '' && !FIELD_VALIDATIONS.includes(fv as FieldValidation)) {
    throw newBadRequest(fieldErrorString(notSupported('fieldValidation', fv, SUPPORTED_FIELD_VALIDATIONS)));
  }
  const fieldManager = q.get('fieldManager') ?? '';
  if (fieldManager.length > 128) throw newBadRequest('fieldManager: Too long: may not be more than 128 bytes');
  const force = q.get('force');
  return {
    dryRun: parseDryRun(q.getAll('dryRun')),
    fieldValidation: (fv || 'Warn') as FieldValidation,
    fieldManager,
    force: force === 'true' || force === '1',
  };
}
