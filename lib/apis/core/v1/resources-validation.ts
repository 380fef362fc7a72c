/**
 * Validation of compute resource names and amounts of containers (upstream
 * `ValidateContainerResourceRequirements`): standard or extended names, non-negative and, for
 * integer resources, whole quantities, requests ≤ limits (= for resources that cannot be
 * overcommitted), hugepages only with cpu or memory, and claim references.
 */
import { duplicate, type FieldError, type FieldPath, forbidden, invalid, required } from '../../../apimachinery/field-errors.js';
import { Quantity, QuantityParseError } from '../../../apimachinery/quantity.js';
import { isQualifiedName } from '../../../apimachinery/validation/names.js';
import { VENDOR_DOMAIN } from '../../vendor.js';
import { obj, objs, str } from './obj-access.js';

const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
const STANDARD_RESOURCES = new Set([
  ...STANDARD_CONTAINER_RESOURCES,
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
  'services',
  'replicationcontrollers',
  'resourcequotas',
  'secrets',
  'persistentvolumeclaims',
  'configmaps',
  'requests.storage',
]);
const INTEGER_RESOURCES = new Set(['pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets', 'configmaps', 'persistentvolumeclaims']);
const NATIVE_PREFIX = `${VENDOR_DOMAIN}/`;

const isHugePages = (name: string): boolean => name.startsWith('hugepages-');
/** Unprefixed or in the vendor's own domain. */
const isNative = (name: string): boolean => !name.includes('/') || name.includes(NATIVE_PREFIX);
/** A prefixed, non-native name that is also valid with a `requests.` prefix. */
export const isExtendedResourceName = (name: string): boolean =>
  !isNative(name) && !name.startsWith('requests.') && isQualifiedName(`requests.${name}`).length === 0;
/** Native resources other than hugepages may be overcommitted (requests < limits). */
const isOvercommitAllowed = (name: string): boolean => isNative(name) && !isHugePages(name);
const isIntegerResource = (name: string): boolean => INTEGER_RESOURCES.has(name) || isExtendedResourceName(name);

/** A container resource name: qualified, standard for containers or an extended resource. */
function validateContainerResourceName(name: string, path: FieldPath): FieldError[] {
  const errs = isQualifiedName(name).map((m) => invalid(path, name, m));
  if (errs.length > 0) return errs;
  if (!name.includes('/')) {
    if (!STANDARD_RESOURCES.has(name) && !isHugePages(name)) errs.push(invalid(path, name, 'must be a standard resource type or fully qualified'));
    if (!STANDARD_CONTAINER_RESOURCES.has(name) && !isHugePages(name)) errs.push(invalid(path, name, 'must be a standard resource for containers'));
  } else if (!isNative(name) && !isExtendedResourceName(name)) {
    errs.push(invalid(path, name, "doesn't follow extended resource name standard"));
  }
  return errs;
}

/** Parses a quantity value (string or number); a field error when it does not parse. */
export function parseQuantity(value: unknown, path: FieldPath): Quantity | FieldError {
  try {
    return Quantity.parse(typeof value === 'number' ? String(value) : str(value));
  } catch (err) {
    if (err instanceof QuantityParseError) return invalid(path, value, err.message);
    throw err;
  }
}

/** A quantity of resource `name`: not negative; a whole number for integer resources. */
export function validateResourceQuantity(name: string, q: Quantity, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (q.sign() < 0) errs.push(invalid(path, q.toString(), 'must be greater than or equal to 0'));
  if (isIntegerResource(name) && q.milliValue() % 1000n !== 0n) errs.push(invalid(path, q.toString(), 'must be an integer'));
  return errs;
}

/** Checks each `[name, quantity]` of a resource list; returns the parsed quantities by name. */
function validateResourceList(list: unknown, path: FieldPath, errs: FieldError[]): Map<string, Quantity> {
  const parsed = new Map<string, Quantity>();
  for (const [name, value] of Object.entries(obj(list) ?? {})) {
    const p = path.key(name);
    errs.push(...validateContainerResourceName(name, p));
    const q = parseQuantity(value, p);
    if (q instanceof Quantity) {
      parsed.set(name, q);
      errs.push(...validateResourceQuantity(name, q, p));
    } else errs.push(q);
  }
  return parsed;
}

/**
 * Validates a container's `resources` at `path`; `podClaimNames` are the names in
 * `spec.resourceClaims` that `resources.claims` may reference.
 */
export function validateContainerResources(resources: unknown, podClaimNames: ReadonlySet<string>, path: FieldPath): FieldError[] {
  const r = obj(resources) ?? {};
  const errs: FieldError[] = [];
  const limPath = path.child('limits');
  const reqPath = path.child('requests');
  const limits = validateResourceList(r.limits, limPath, errs);
  const requests = validateResourceList(r.requests, reqPath, errs);
  for (const [name, q] of requests) {
    const limit = limits.get(name);
    if (limit) {
      if (!isOvercommitAllowed(name) && q.cmp(limit) !== 0)
        errs.push(invalid(reqPath, q.toString(), `must be equal to ${name} limit of ${limit.toString()}`));
      else if (q.cmp(limit) > 0) errs.push(invalid(reqPath, q.toString(), `must be less than or equal to ${name} limit of ${limit.toString()}`));
    } else if (!isOvercommitAllowed(name)) {
      errs.push(required(limPath, 'Limit must be set for non overcommitable resources'));
    }
  }
  const names = [...limits.keys(), ...requests.keys()];
  if (names.some(isHugePages) && !names.some((n) => n === 'cpu' || n === 'memory')) errs.push(forbidden(path, 'HugePages require cpu or memory'));
  errs.push(...validateClaimReferences(r.claims, podClaimNames, path.child('claims')));
  return errs;
}

function validateClaimReferences(claims: unknown, podClaimNames: ReadonlySet<string>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  objs(claims).forEach((c, i) => {
    const name = str(c.name);
    if (!name) return;
    if (seen.has(name)) errs.push(duplicate(path.index(i), name));
    seen.add(name);
    if (!podClaimNames.has(name)) {
      const known = [...podClaimNames].sort();
      const detail = `must be one of the names in pod.spec.resourceClaims${known.length === 0 ? ' which is empty' : `: ${known.join(', ')}`}`;
      errs.push({ type: 'NotFound', field: path.index(i).toString(), badValue: name, detail });
    }
  });
  return errs;
}
