/**
 * Query parameters of list and watch, parsed and checked against the resourceVersion ×
 * resourceVersionMatch × paging table of spec 000 § Resource versions; invalid combinations are
 * 400 with a message naming the rule (spec 001 § Errors).
 */
import { newBadRequest } from '../../apimachinery/errors.js';
import { type FieldError, fieldErrorString, forbidden, notSupported } from '../../apimachinery/field-errors.js';
import { FieldSelectorError, checkSupportedFields, parseFieldSelector, type FieldSelector } from '../../apimachinery/fields/selector.js';
import { SelectorParseError, parseLabelSelector, type LabelSelector } from '../../apimachinery/labels/selector.js';
import { queryBool } from '../../request/request-info.js';

/** Parsed list/watch parameters. */
export interface ListParams {
  label: LabelSelector;
  field: FieldSelector;
  resourceVersion: string;
  resourceVersionMatch: '' | 'Exact' | 'NotOlderThan';
  limit: number;
  continue: string;
  watch: boolean;
  allowWatchBookmarks: boolean;
  sendInitialEvents: boolean | undefined;
  /** Seconds; 0 = server default. */
  timeoutSeconds: number;
}

function parseIntParam(q: URLSearchParams, name: string): number {
  const v = q.get(name);
  if (v === null || v === '') return 0;
  if (!/^-?\d+$/.test(v)) throw newBadRequest(`invalid value for ${name}: strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
  return Number(v);
}

function listOptionsInvalid(errs: FieldError[]): never {
  throw newBadRequest(`ListOptions is invalid: ${errs.length === 1 ? fieldErrorString(errs[0]!) : `[${errs.map(fieldErrorString).join(', ')}]`}`, errs.map((e) => ({ reason: `FieldValue${e.type}`, message: fieldErrorString(e).slice(e.field.length + 2), field: e.field })));
}

/**
 * Parses and validates list/watch parameters. `supportedFields` are the kind's field-selector
 * labels; anything else is 400 `field label not supported`.
 */
export function parseListParams(q: URLSearchParams, isWatch: boolean, supportedFields: ReadonlySet<string>): ListParams {
  let label: LabelSelector;
  let field: FieldSelector;
  try {
    label = parseLabelSelector(q.get('labelSelector') ?? '');
  } catch (err) {
    if (err instanceof SelectorParseError) throw newBadRequest(err.message);
    throw err;
  }
  try {
    field = parseFieldSelector(q.get('fieldSelector') ?? '');
    checkSupportedFields(field, supportedFields);
  } catch (err) {
    if (err instanceof FieldSelectorError) throw newBadRequest(err.message);
    throw err;
  }
  const rvm = q.get('resourceVersionMatch') ?? '';
  const p: ListParams = {
    label,
    field,
    resourceVersion: q.get('resourceVersion') ?? '',
    resourceVersionMatch: rvm as ListParams['resourceVersionMatch'],
    limit: Math.max(0, parseIntParam(q, 'limit')),
    continue: q.get('continue') ?? '',
    watch: isWatch,
    allowWatchBookmarks: queryBool(q.get('allowWatchBookmarks')),
    sendInitialEvents: q.has('sendInitialEvents') ? queryBool(q.get('sendInitialEvents')) : undefined,
    timeoutSeconds: Math.max(0, parseIntParam(q, 'timeoutSeconds')),
  };
  validateListParams(p);
  return p;
}

/** The rules of spec 000 § Resource versions (List and Watch semantics, sendInitialEvents). */
export function validateListParams(p: ListParams): void {
  const errs: FieldError[] = [];
  const rvm = p.resourceVersionMatch as string;
  if (rvm !== '' && rvm !== 'Exact' && rvm !== 'NotOlderThan') {
    errs.push(notSupported('resourceVersionMatch', rvm, ['Exact', 'NotOlderThan', '']));
  } else if (rvm !== '') {
    if (p.watch && p.sendInitialEvents === undefined) errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch'));
    if (p.resourceVersion === '') errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    if (p.continue !== '') errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    if (rvm === 'Exact' && p.resourceVersion === '0') errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
  }
  if (p.sendInitialEvents !== undefined) {
    if (!p.watch) errs.push(forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
    else if (p.sendInitialEvents && rvm !== 'NotOlderThan') errs.push(forbidden('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
    else if (!p.sendInitialEvents && rvm !== '') errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
    if (p.sendInitialEvents && p.watch && !p.allowWatchBookmarks) errs.push(forbidden('allowWatchBookmarks', 'sendInitialEvents requires setting allowWatchBookmarks to true'));
  }
  if (errs.length > 0) listOptionsInvalid(errs);
  if (p.continue !== '' && p.resourceVersion !== '' && p.resourceVersion !== '0') {
    throw newBadRequest('specifying resource version is not allowed when using continue');
  }
}
