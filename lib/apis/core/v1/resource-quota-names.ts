/**
 * Resource names and amounts as ResourceQuota and LimitRange validate them (upstream v1.30
 * `pkg/apis/core/helper` sets and `validateResourceName`, `validateContainerResourceName`,
 * `ValidateResourceQuotaResourceName`, `ValidateResourceQuantityValue`): standard, quota,
 * container and extended names; non-negative amounts, whole numbers for countable resources.
 */
import { type FieldError, type FieldPath, invalid } from '../../../apimachinery/field-errors.js';
import type { Quantity } from '../../../apimachinery/quantity.js';
import { isQualifiedName } from '../../../apimachinery/validation/names.js';
import { VENDOR_DOMAIN } from '../../vendor.js';

const COUNTED = ['pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets', 'configmaps', 'persistentvolumeclaims', 'services.nodeports', 'services.loadbalancers'];
const COMPUTE = ['cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage', 'limits.cpu', 'limits.memory', 'limits.ephemeral-storage'];
const CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
const QUOTA_RESOURCES = new Set([...COMPUTE, 'requests.storage', ...COUNTED]);
const STANDARD_RESOURCES = new Set([...QUOTA_RESOURCES, 'storage']);
const INTEGER_RESOURCES = new Set(COUNTED);

const isHugePages = (name: string): boolean => name.startsWith('hugepages-');
const isQuotaHugePages = (name: string): boolean => isHugePages(name) || name.startsWith('requests.hugepages-');
/** Unprefixed, or in the vendor's own domain (upstream `IsNativeResource`: its own domain). */
export const isNative = (name: string): boolean => !name.includes('/') || name.includes(`${VENDOR_DOMAIN}/`);
/** A prefixed, non-native name that stays a qualified name with a `requests.` prefix (upstream `IsExtendedResourceName`). */
export const isExtended = (name: string): boolean => !isNative(name) && !name.startsWith('requests.') && isQualifiedName(`requests.${name}`).length === 0;

/** Native resources other than hugepages may be overcommitted (upstream `IsOvercommitAllowed`). */
export const isOvercommitAllowed = (name: string): boolean => isNative(name) && !isHugePages(name);

/** A resource the quota system tracks (upstream `IsStandardQuotaResourceName`). */
export const isStandardQuotaResource = (name: string): boolean => QUOTA_RESOURCES.has(name) || isQuotaHugePages(name);

/** Any resource name: qualified, and standard unless prefixed (upstream `validateResourceName`). */
export function validateResourceName(name: string, path: FieldPath): FieldError[] {
  const errs = isQualifiedName(name).map((m) => invalid(path, name, m));
  if (errs.length > 0) return errs;
  if (!name.includes('/') && !STANDARD_RESOURCES.has(name) && !isQuotaHugePages(name)) errs.push(invalid(path, name, 'must be a standard resource type or fully qualified'));
  return errs;
}

/** A container resource name: standard for containers, native or extended (upstream `validateContainerResourceName`). */
export function validateContainerResourceName(name: string, path: FieldPath): FieldError[] {
  const errs = validateResourceName(name, path);
  if (!name.includes('/')) {
    if (!CONTAINER_RESOURCES.has(name) && !isHugePages(name)) errs.push(invalid(path, name, 'must be a standard resource for containers'));
  } else if (!isNative(name) && !isExtended(name)) {
    errs.push(invalid(path, name, "doesn't follow extended resource name standard"));
  }
  return errs;
}

/** A resource name a quota may list (upstream `ValidateResourceQuotaResourceName`). */
export function validateQuotaResourceName(name: string, path: FieldPath): FieldError[] {
  const errs = validateResourceName(name, path);
  if (!name.includes('/') && !isStandardQuotaResource(name)) errs.push(invalid(path, name, 'must be a standard resource for quota'));
  return errs;
}

/** An amount of `name`: not negative; whole for countable and extended resources (upstream `ValidateResourceQuantityValue`). */
export function validateQuantityValue(name: string, q: Quantity, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (q.sign() < 0) errs.push(invalid(path, q.toString(), 'must be greater than or equal to 0'));
  if ((INTEGER_RESOURCES.has(name) || isExtended(name)) && q.milliValue() % 1000n !== 0n) errs.push(invalid(path, q.toString(), 'must be an integer'));
  return errs;
}

/** The resources that pod-selecting scopes may limit: pod count and compute (upstream `IsResourceQuotaScopeValidForResource`). */
export function scopeAppliesToResource(scope: string, name: string): boolean {
  const podResources = ['pods', 'cpu', 'memory', 'limits.cpu', 'limits.memory', 'requests.cpu', 'requests.memory'];
  switch (scope) {
    case 'Terminating':
    case 'NotTerminating':
    case 'NotBestEffort':
    case 'PriorityClass':
    case 'CrossNamespacePodAffinity':
      return podResources.includes(name);
    case 'BestEffort':
      return name === 'pods';
    default:
      return true;
  }
}
