/**
 * LimitRange validation with the upstream paths and messages (v1.30 `ValidateLimitRange`): each
 * item has a standard or qualified type, used once; resource names are container resources for
 * `Pod` and `Container` items; `Pod` items have no defaults; claim items bound the storage; per
 * resource min ≤ defaultRequest ≤ default ≤ max, ratios at least 1 and within max/min, and
 * resources that cannot be overcommitted have equal default and defaultRequest. ObjectMeta (DNS
 * subdomain names) is checked by the caller.
 */
import { duplicate, type FieldError, FieldPath, forbidden, invalid, required } from '../../../apimachinery/field-errors.js';
import { Quantity } from '../../../apimachinery/quantity.js';
import { isQualifiedName } from '../../../apimachinery/validation/names.js';
import type { Obj } from '../../define.js';
import { obj, objs, str } from './obj-access.js';
import { isOvercommitAllowed, validateContainerResourceName, validateResourceName } from './resource-quota-names.js';
import { parseQuantity } from './resources-validation.js';

const LIMIT_TYPES = ['Pod', 'Container', 'PersistentVolumeClaim'];
/** Upstream `resource.MaxMilliValue`: above it, milli-values overflow int64. */
const MAX_MILLI_VALUE = ((1n << 63n) - 1n) / 1000n;

function validateTypeName(type: string, path: FieldPath): FieldError[] {
  const errs = isQualifiedName(type).map((m) => invalid(path, type, m));
  if (errs.length === 0 && !type.includes('/') && !LIMIT_TYPES.includes(type)) errs.push(invalid(path, type, 'must be a standard limit type or fully qualified'));
  return errs;
}

/**
 * Checks the names of one resource list of an item and returns its quantities by name (values
 * that do not parse are reported and left out).
 */
function readList(item: Obj, key: string, path: FieldPath, errs: FieldError[]): Map<string, Quantity> {
  const type = str(item.type);
  const out = new Map<string, Quantity>();
  for (const [name, value] of Object.entries(obj(item[key]) ?? {})) {
    const p = path.child(key).key(name);
    errs.push(...(type === 'Pod' || type === 'Container' ? validateContainerResourceName(name, p) : validateResourceName(name, p)));
    const q = parseQuantity(value, p);
    if (q instanceof Quantity) out.set(name, q);
    else errs.push(q);
  }
  return out;
}

/** Go's `%f`: six decimals. */
const goFloat = (v: number): string => v.toFixed(6);

/** The ratio rules of one resource: at least 1, at most max/min. */
function validateRatio(ratio: Quantity, min: Quantity | undefined, max: Quantity | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (ratio.cmp(Quantity.parse('1')) < 0) errs.push(invalid(path, ratio.toString(), `ratio ${ratio.toString()} is less than 1`));
  if (!min || !max) return errs;
  let ratioValue = Number(ratio.value());
  let minValue = min.value();
  let maxValue = max.value();
  if (ratio.value() < MAX_MILLI_VALUE && minValue < MAX_MILLI_VALUE && maxValue < MAX_MILLI_VALUE) {
    ratioValue = Number(ratio.milliValue()) / 1000;
    minValue = min.milliValue();
    maxValue = max.milliValue();
  }
  const limit = Number(maxValue) / Number(minValue);
  if (ratioValue > limit) errs.push(invalid(path, ratio.toString(), `ratio ${ratio.toString()} is greater than max/min = ${goFloat(limit)}`));
  return errs;
}

/** The ordering rules between min, defaultRequest, default and max of one resource. */
function validateOrdering(name: string, lists: Record<string, Map<string, Quantity>>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const min = lists.min!.get(name);
  const max = lists.max!.get(name);
  const def = lists.default!.get(name);
  const defReq = lists.defaultRequest!.get(name);
  const ratio = lists.maxLimitRequestRatio!.get(name);
  const s = (q: Quantity): string => q.toString();
  if (min && max && min.cmp(max) > 0) errs.push(invalid(path.child('min').key(name), s(min), `min value ${s(min)} is greater than max value ${s(max)}`));
  if (defReq && min && min.cmp(defReq) > 0) errs.push(invalid(path.child('defaultRequest').key(name), s(defReq), `min value ${s(min)} is greater than default request value ${s(defReq)}`));
  if (defReq && max && defReq.cmp(max) > 0) errs.push(invalid(path.child('defaultRequest').key(name), s(defReq), `default request value ${s(defReq)} is greater than max value ${s(max)}`));
  if (defReq && def && defReq.cmp(def) > 0) errs.push(invalid(path.child('defaultRequest').key(name), s(defReq), `default request value ${s(defReq)} is greater than default limit value ${s(def)}`));
  if (def && min && min.cmp(def) > 0) errs.push(invalid(path.child('default').key(name), s(min), `min value ${s(min)} is greater than default value ${s(def)}`));
  if (def && max && def.cmp(max) > 0) errs.push(invalid(path.child('default').key(name), s(max), `default value ${s(def)} is greater than max value ${s(max)}`));
  if (ratio) errs.push(...validateRatio(ratio, min, max, path.child('maxLimitRequestRatio').key(name)));
  if (!isOvercommitAllowed(name) && def && defReq && def.cmp(defReq) !== 0)
    errs.push(invalid(path.child('defaultRequest').key(name), s(defReq), `default value ${s(def)} must equal to defaultRequest value ${s(defReq)} in ${name}`));
  return errs;
}

function validateItem(item: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(item.type);
  const lists: Record<string, Map<string, Quantity>> = {
    max: readList(item, 'max', path, errs),
    min: readList(item, 'min', path, errs),
    default: new Map(),
    defaultRequest: new Map(),
  };
  if (type === 'Pod') {
    if (Object.keys(obj(item.default) ?? {}).length > 0) errs.push(forbidden(path.child('default'), "may not be specified when `type` is 'Pod'"));
    if (Object.keys(obj(item.defaultRequest) ?? {}).length > 0) errs.push(forbidden(path.child('defaultRequest'), "may not be specified when `type` is 'Pod'"));
  } else {
    lists.default = readList(item, 'default', path, errs);
    lists.defaultRequest = readList(item, 'defaultRequest', path, errs);
  }
  if (type === 'PersistentVolumeClaim' && !lists.min.has('storage') && !lists.max.has('storage'))
    errs.push(required(path.child('limits'), 'either minimum or maximum storage value is required, but neither was provided'));
  lists.maxLimitRequestRatio = readList(item, 'maxLimitRequestRatio', path, errs);
  const names = new Set(Object.values(lists).flatMap((m) => [...m.keys()]));
  for (const name of [...names].sort()) errs.push(...validateOrdering(name, lists, path));
  return errs;
}

/** Create and update: the items of a LimitRange (upstream `ValidateLimitRange`). */
export function validateLimitRange(lr: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const path = FieldPath.of('spec', 'limits');
  const types = new Set<string>();
  objs(obj(lr.spec)?.limits).forEach((item, i) => {
    const p = path.index(i);
    const type = str(item.type);
    errs.push(...validateTypeName(type, p.child('type')));
    if (types.has(type)) errs.push(duplicate(p.child('type'), type));
    types.add(type);
    errs.push(...validateItem(item, p));
  });
  return errs;
}
