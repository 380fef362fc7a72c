/**
 * Query parameters of modifying requests: `dryRun`, `fieldValidation`, `fieldManager`, `force`
 * (spec 000 § Modifying-request query parameters, § Field validation levels), validated as
 * upstream validates CreateOptions, UpdateOptions and PatchOptions: every problem is collected
 * into one 422 Invalid of the options kind in the meta group (issue #9 item 2).
 */
import { newInvalid } from '../../apimachinery/errors.js';
import { type FieldError, forbidden, goStringSlice, invalid, notSupported, required, tooLong } from '../../apimachinery/field-errors.js';
import { META_GROUP } from '../../apis/vendor.js';
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

/** The options kind a write verb validates its parameters as (named in the 422 answer). */
export type OptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions' | 'DeleteOptions';

const FIELD_VALIDATIONS: readonly FieldValidation[] = ['Ignore', 'Strict', 'Warn'];
/** The values upstream lists as supported ('' is the default, Warn). */
const SUPPORTED_FIELD_VALIDATIONS = ['', ...FIELD_VALIDATIONS];

/** Throws the 422 Invalid of `kind` listing `errs`, when there are any. */
export function throwIfInvalidOptions(kind: OptionsKind, errs: FieldError[]): void {
  if (errs.length > 0) throw newInvalid({ group: META_GROUP, kind }, '', errs);
}

/**
 * `dryRun` values: absent → false; `All`, or valueless (the spec allows `?dryRun`) → true.
 * Anything else adds upstream's error to `errs` (`dryRun: Unsupported value: []string{"x"}: …`).
 */
export function parseDryRun(values: string[], errs: FieldError[]): boolean {
  if (values.some((v) => v !== 'All' && v !== '')) errs.push(notSupported('dryRun', goStringSlice(values), ['All']));
  return values.length > 0;
}

/** Longest fieldManager, in bytes (upstream FieldManagerMaxLength). */
const FIELD_MANAGER_MAX_BYTES = 128;
/** Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** Upstream ValidateFieldManager: at most 128 bytes, printable characters only. */
function fieldManagerErrors(fm: string): FieldError[] {
  if (Buffer.byteLength(fm) > FIELD_MANAGER_MAX_BYTES) return [tooLong('fieldManager', fm, FIELD_MANAGER_MAX_BYTES)];
  let offset = 0;
  for (const ch of fm) {
    if (!PRINTABLE.test(ch)) {
      const code = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
      return [invalid('fieldManager', fm, `invalid character U+${code} (at position ${offset})`)];
    }
    offset += Buffer.byteLength(ch);
  }
  return [];
}

/**
 * Parses and validates the modifying-request parameters of `q` for `kind`; for PatchOptions,
 * `isApply` adds the patch rules (fieldManager required for apply, `force` only with apply).
 * @throws StatusError 422 Invalid of `kind` (group META_GROUP) listing every problem in upstream order.
 */
export function parseWriteOptions(q: URLSearchParams, kind: Exclude<OptionsKind, 'DeleteOptions'>, isApply = false): WriteOptions {
  const errs: FieldError[] = [];
  const fieldManager = q.get('fieldManager') ?? '';
  const force = q.get('force');
  if (kind === 'PatchOptions') {
    if (isApply && !fieldManager) errs.push(required('fieldManager', 'is required for apply patch'));
    if (!isApply && force !== null) errs.push(forbidden('force', 'may not be specified for non-apply patch'));
  }
  errs.push(...fieldManagerErrors(fieldManager));
  const dryRun = parseDryRun(q.getAll('dryRun'), errs);
  const fv = q.get('fieldValidation') ?? '';
  if (fv !== '' && !FIELD_VALIDATIONS.includes(fv as FieldValidation)) errs.push(notSupported('fieldValidation', fv, SUPPORTED_FIELD_VALIDATIONS));
  throwIfInvalidOptions(kind, errs);
  return { dryRun, fieldValidation: (fv || 'Warn') as FieldValidation, fieldManager, force: queryBool(force) };
}
