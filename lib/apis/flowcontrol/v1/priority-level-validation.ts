/**
 * PriorityLevelConfiguration validation with upstream's paths and messages (v1.30
 * `ValidatePriorityLevelConfiguration` with zero limited shares allowed, as the v1.30 strategy
 * passes; `ValidatePriorityLevelConfigurationStatusUpdate`): type `Exempt` exactly for the level
 * named `exempt`, `limited` exactly for `Limited`, shares and percents in range, `Queue` with a
 * queuing configuration whose hand fits its queues and upstream's shuffle-sharding entropy limit,
 * the fixed spec of the mandatory levels (`spec.exempt` of `exempt` excepted), the v1beta3
 * round-trip annotation forbidden, unique condition types. ObjectMeta is checked by the caller.
 */
import { type FieldError, FieldPath, forbidden, invalid, notSupported, required } from '../../../apimachinery/field-errors.js';
import { num, obj, str } from '../../core/v1/obj-access.js';
import type { Obj } from '../../define.js';
import { APF_PRESERVE_ZERO_SHARES_ANNOTATIONS } from '../../vendor.js';
import { mandatorySpec } from './bootstrap.js';
import { validateConditions } from './flow-schema-validation.js';
import { specsEqual } from './semantic.js';
import { EXEMPT } from './types.js';

/** Upstream `priorityLevelConfigurationQueuingMaxQueues` (10^7) and shuffle sharding's `MaxHashBits`. */
export const MAX_QUEUES = 10_000_000;
export const MAX_HASH_BITS = 60;

/** Bits of hash a shuffle-sharding deal of `handSize` cards from `deckSize` consumes (upstream `RequiredEntropyBits`). */
export function requiredEntropyBits(deckSize: number, handSize: number): number {
  return Math.ceil(Math.log2(deckSize) * handSize);
}

const outOfPercent = (v: number | undefined) => v !== undefined && !(v >= 0 && v <= 100);

function validateQueuing(q: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const queues = num(q.queues) ?? 0;
  const handSize = num(q.handSize) ?? 0;
  const queueLengthLimit = num(q.queueLengthLimit) ?? 0;
  if (queueLengthLimit <= 0) errs.push(invalid(path.child('queueLengthLimit'), queueLengthLimit, 'must be positive'));
  if (queues <= 0) errs.push(invalid(path.child('queues'), queues, 'must be positive'));
  else if (queues > MAX_QUEUES) errs.push(invalid(path.child('queues'), queues, `must not be greater than ${MAX_QUEUES}`));
  const handPath = path.child('handSize');
  if (handSize <= 0) errs.push(invalid(handPath, handSize, 'must be positive'));
  else if (handSize > queues) errs.push(invalid(handPath, handSize, `should not be greater than queues (${queues})`));
  else if (requiredEntropyBits(queues, handSize) > MAX_HASH_BITS)
    errs.push(invalid(handPath, handSize, `required entropy bits of deckSize ${queues} and handSize ${handSize} should not be greater than ${MAX_HASH_BITS}`));
  return errs;
}

function validateLimitResponse(lr: Obj, path: FieldPath): FieldError[] {
  const type = str(lr.type);
  const queuing = obj(lr.queuing);
  if (type === 'Reject') return queuing ? [forbidden(path.child('queuing'), 'must be nil if limited.limitResponse.type is not Limited')] : [];
  if (type === 'Queue') return queuing ? validateQueuing(queuing, path.child('queuing')) : [required(path.child('queuing'), 'must not be empty if limited.limitResponse.type is Limited')];
  return [notSupported(path.child('type'), type, ['Queue', 'Reject'])];
}

function validateLimited(l: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const shares = num(l.nominalConcurrencyShares) ?? 0;
  if (shares < 0) errs.push(invalid(path.child('nominalConcurrencyShares'), shares, 'must be a non-negative integer'));
  errs.push(...validateLimitResponse(obj(l.limitResponse) ?? {}, path.child('limitResponse')));
  const lendable = num(l.lendablePercent);
  if (outOfPercent(lendable)) errs.push(invalid(path.child('lendablePercent'), lendable, 'must be between 0 and 100, inclusive'));
  const borrowing = num(l.borrowingLimitPercent);
  if (borrowing !== undefined && borrowing < 0) errs.push(invalid(path.child('borrowingLimitPercent'), borrowing, 'if specified, must be a non-negative integer'));
  return errs;
}

function validateExempt(e: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const shares = num(e.nominalConcurrencyShares);
  if (shares !== undefined && shares < 0) errs.push(invalid(path.child('nominalConcurrencyShares'), shares, 'must be a non-negative integer'));
  const lendable = num(e.lendablePercent);
  if (outOfPercent(lendable)) errs.push(invalid(path.child('lendablePercent'), lendable, 'must be between 0 and 100, inclusive'));
  return errs;
}

function validateSpec(name: string, spec: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(spec.type);
  if ((name === EXEMPT) !== (type === 'Exempt')) errs.push(invalid(path.child('type'), type, "type must be 'Exempt' if and only if name is 'exempt'"));
  const limited = obj(spec.limited);
  const exempt = obj(spec.exempt);
  if (type === 'Exempt') {
    if (limited) errs.push(forbidden(path.child('limited'), 'must be nil if the type is not Limited'));
    if (exempt) errs.push(...validateExempt(exempt, path.child('exempt')));
  } else if (type === 'Limited') {
    if (exempt) errs.push(forbidden(path.child('exempt'), 'must be nil if the type is Limited'));
    if (limited) errs.push(...validateLimited(limited, path.child('limited')));
    else errs.push(required(path.child('limited'), 'must not be empty when type is Limited'));
  } else {
    errs.push(notSupported(path.child('type'), type, ['Exempt', 'Limited']));
  }
  return errs;
}

/** The fixed spec of a mandatory level; of `exempt`, everything but `spec.exempt` (upstream `ValidateIfMandatoryPriorityLevelConfigurationObject`). */
function validateMandatory(name: string, spec: Obj): FieldError[] {
  const fixed = mandatorySpec('PriorityLevelConfiguration', name);
  if (!fixed) return [];
  if (name === EXEMPT) {
    return specsEqual({ ...spec, exempt: fixed.exempt }, fixed) ? [] : [invalid('spec', spec, `spec of '${name}' except the 'spec.exempt' field must equal the fixed value`)];
  }
  return specsEqual(spec, fixed) ? [] : [invalid('spec', spec, `spec of '${name}' must equal the fixed value`)];
}

/**
 * Create and update: the v1beta3 round-trip annotation in either spelling (a v1beta3 write has it
 * removed by conversion, so only a v1 write can carry it: forbidden, as upstream), the spec, the
 * mandatory levels, the status.
 */
export function validatePriorityLevelConfiguration(pl: Obj): FieldError[] {
  const meta = obj(pl.metadata) ?? {};
  const name = str(meta.name);
  const spec = obj(pl.spec) ?? {};
  const errs: FieldError[] = [];
  const annotations = obj(meta.annotations) ?? {};
  for (const key of APF_PRESERVE_ZERO_SHARES_ANNOTATIONS)
    if (Object.hasOwn(annotations, key)) errs.push(forbidden(FieldPath.of('metadata', 'annotations'), `annotation '${key}' is forbidden`));
  errs.push(...validateSpec(name, spec, FieldPath.of('spec')));
  errs.push(...validateMandatory(name, spec));
  errs.push(...validateConditions(pl.status));
  return errs;
}

/** A status write (upstream `ValidatePriorityLevelConfigurationStatusUpdate`): the conditions only. */
export function validatePriorityLevelConfigurationStatusUpdate(pl: Obj): FieldError[] {
  return validateConditions(pl.status);
}
