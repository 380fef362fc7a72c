/**
 * Query parameters of list and watch, parsed and checked against the resourceVersion ×
 * resourceVersionMatch × paging table of spec 000 § Resource versions; invalid combinations are
 * 400 with a message naming the rule (spec 001 § Errors).
 */
import { newBadRequest } from '../../apimachinery/errors.js';
import { type FieldError, fieldErrorString, forbidden, notSupported } from '../../apimachinery/field-errors.js';
import { FieldSelector, FieldSelectorError, checkSupportedFields, parseFieldSelector } from '../../apimachinery/fields/selector.js';
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
 * labels; anything else is 400 `field label not supported`. `watchListEnabled`: the WatchList
 * feature gate (sendInitialEvents). `fieldLabel` maps a served version's label to the stored
 * kind's (upstream field label conversion; issue #12), which the predicate evaluates.
 * `defaultFieldConversion`: the kind has no field label conversion of its own (custom
 * resources), and an unsupported label is refused in the words of upstream's default one.
 */
export function parseListParams(
  q: URLSearchParams,
  isWatch: boolean,
  supportedFields: ReadonlySet<string>,
  watchListEnabled = false,
  fieldLabel?: (label: string) => string,
  defaultFieldConversion = false,
): ListParams {
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
    checkSupportedFields(field, supportedFields, defaultFieldConversion);
    if (fieldLabel) field = FieldSelector.of(field.requirements.map((r) => ({ ...r, field: fieldLabel(r.field) })));
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
  validateListParams(p, watchListEnabled);
  return p;
}

/**
 * The rules of spec 000 § Resource versions (List and Watch semantics) and § Watch parameters
 * (sendInitialEvents needs the WatchList feature gate and resourceVersionMatch=NotOlderThan);
 * every invalid combination is 400 naming the rule (spec 001 § Errors).
 */
export function validateListParams(p: ListParams, watchListEnabled: boolean): void {
  const errs = p.watch ? watchOptionErrors(p, watchListEnabled) : listOptionErrors(p);
  if (errs.length > 0) listOptionsInvalid(errs);
  if (p.continue !== '' && p.resourceVersion !== '' && p.resourceVersion !== '0') {
    throw newBadRequest('specifying resource version is not allowed when using continue');
  }
}

/** Upstream ValidateListOptions for a list: every broken rule, in upstream's order and wording. */
function listOptionErrors(p: ListParams): FieldError[] {
  const errs: FieldError[] = [];
  const rvm = p.resourceVersionMatch as string;
  if (rvm !== '') {
    if (p.resourceVersion === '') errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    if (p.continue !== '') errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    if (rvm !== 'Exact' && rvm !== 'NotOlderThan') errs.push(notSupported('resourceVersionMatch', rvm, ['Exact', 'NotOlderThan', '']));
    if (rvm === 'Exact' && p.resourceVersion === '0') errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
  }
  if (p.sendInitialEvents !== undefined) errs.push(forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  return errs;
}

function watchOptionErrors(p: ListParams, watchListEnabled: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const rvm = p.resourceVersionMatch as string;
  if (p.sendInitialEvents !== undefined) {
    if (rvm !== 'NotOlderThan') errs.push(forbidden('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
    if (!watchListEnabled) errs.push(forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled'));
  }
  if (rvm !== '') {
    if (p.sendInitialEvents === undefined) errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
    if (rvm !== 'NotOlderThan') errs.push(notSupported('resourceVersionMatch', rvm, ['NotOlderThan']));
    if (p.continue !== '') errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
  }
  return errs;
}
