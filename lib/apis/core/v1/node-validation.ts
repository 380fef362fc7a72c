/**
 * Node validation with the upstream paths and messages (upstream core validation `ValidateNode`,
 * `ValidateNodeUpdate`, `validateNodeTaints`, `ValidateNodeResources`). Upstream reports taint
 * errors under `metadata.taints[i]` (not `spec.taints`); we keep its paths. Empty required fields
 * (taint key/effect, config source names) are reported by the schema as `Required value`.
 */
import { duplicate, type FieldError, FieldPath, forbidden, internalError, invalid, notSupported, required } from '../../../apimachinery/field-errors.js';
import { deepEqual } from '../../../apimachinery/deep-equal.js';
import { Quantity } from '../../../apimachinery/quantity.js';
import { isConfigMapKey } from '../../../apimachinery/validation/formats.js';
import { isDualStackCIDRs, parseCIDR, validateCIDR } from '../../../apimachinery/validation/ip.js';
import { validateLabelName } from '../../../apimachinery/validation/label-map.js';
import { isDNS1123Label, isDNS1123Subdomain, isValidLabelValue } from '../../../apimachinery/validation/names.js';
import type { Obj } from '../../define.js';
import { TAINT_EFFECTS } from './affinity.js';
import { isExtendedResourceName, parseQuantity } from './resources-validation.js';

const INTEGER_RESOURCES = new Set([
  'pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets', 'configmaps',
  'persistentvolumeclaims', 'services.nodeports', 'services.loadbalancers',
]);

const list = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);
const strings = (v: unknown): string[] => (Array.isArray(v) ? (v as string[]) : []);
const specOf = (n: Obj): Obj => (n.spec as Obj | undefined) ?? {};
const statusOf = (n: Obj): Obj => (n.status as Obj | undefined) ?? {};

/** Extended resources (`example.com/gpu`) and the counted object resources take integer amounts. */
function isIntegerResource(name: string): boolean {
  return INTEGER_RESOURCES.has(name) || isExtendedResourceName(name);
}

function validateResources(node: Obj): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['capacity', 'allocatable']) {
    for (const [name, raw] of Object.entries((statusOf(node)[key] as Obj | undefined) ?? {})) {
      const path = FieldPath.of('status', key, name);
      // Unparsable amounts are the schema's error.
      const q = parseQuantity(raw, path);
      if (!(q instanceof Quantity)) continue;
      if (q.sign() < 0) errs.push(invalid(path, q.toString(), 'must be greater than or equal to 0'));
      if (isIntegerResource(name) && q.milliValue() % 1000n !== 0n) errs.push(invalid(path, q.toString(), 'must be an integer'));
    }
  }
  return errs;
}

function validateTaints(node: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  list(specOf(node).taints).forEach((t, i) => {
    const path = FieldPath.of('metadata', 'taints').index(i);
    const key = (t.key as string | undefined) ?? '';
    const effect = (t.effect as string | undefined) ?? '';
    if (key !== '') errs.push(...validateLabelName(key, path.child('key')));
    const valueErrs = isValidLabelValue((t.value as string | undefined) ?? '');
    if (valueErrs.length > 0) errs.push(invalid(path.child('value'), t.value, valueErrs.join(';')));
    if (effect !== '' && !TAINT_EFFECTS.includes(effect)) errs.push(notSupported(path.child('effect'), effect, TAINT_EFFECTS));
    const id = JSON.stringify([effect, key]);
    if (seen.has(id)) errs.push({ type: 'Duplicate', field: path.toString(), badValue: t, detail: 'taints must be unique by key and effect pair' });
    seen.add(id);
  });
  return errs;
}

function validatePodCIDRs(node: Obj): FieldError[] {
  const cidrs = strings(specOf(node).podCIDRs);
  const path = FieldPath.of('spec', 'podCIDRs');
  const errs = cidrs.flatMap((c, i) => validateCIDR(path.index(i), c));
  if (cidrs.length > 1) {
    const bad = cidrs.find((c) => !parseCIDR(c));
    if (bad !== undefined) errs.push(internalError(path, `invalid PodCIDRs. failed to check with dual stack with error:invalid CIDR address: ${bad}`));
    if (!isDualStackCIDRs(cidrs) || cidrs.length > 2) errs.push(invalid(path, cidrs, 'may specify no more than one CIDR for each IP family'));
    const seen = new Set<string>();
    cidrs.forEach((c, i) => {
      if (seen.has(c)) errs.push(duplicate(path.index(i), c));
      seen.add(c);
    });
  }
  return errs;
}

/** Create: taints, resource quantities and `spec.podCIDRs` (syntax, one per IP family, no duplicates). */
export function validateNode(node: Obj): FieldError[] {
  return [...validateTaints(node), ...validateResources(node), ...validatePodCIDRs(node)];
}

function configMapSourceErrors(cm: Obj, path: FieldPath, inStatus: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const s = (k: string) => (cm[k] as string | undefined) ?? '';
  if (inStatus) {
    if (s('uid') === '') errs.push(required(path.child('uid'), 'uid must be set in status'));
    if (s('resourceVersion') === '') errs.push(required(path.child('resourceVersion'), 'resourceVersion must be set in status'));
  } else {
    if (s('uid') !== '') errs.push(forbidden(path.child('uid'), 'uid must not be set in spec'));
    if (s('resourceVersion') !== '') errs.push(forbidden(path.child('resourceVersion'), 'resourceVersion must not be set in spec'));
  }
  if (s('namespace') !== '') errs.push(...isDNS1123Label(s('namespace')).map((m) => invalid(path.child('namespace'), s('namespace'), m)));
  if (s('name') !== '') errs.push(...isDNS1123Subdomain(s('name')).map((m) => invalid(path.child('name'), s('name'), m)));
  if (s('kubeletConfigKey') !== '')
    errs.push(...isConfigMapKey(s('kubeletConfigKey')).map((m) => invalid(path.child('kubeletConfigKey'), s('kubeletConfigKey'), m)));
  return errs;
}

function configSourceErrors(source: Obj, path: FieldPath, inStatus: boolean): FieldError[] {
  if (!source.configMap) return [invalid(path, source, 'exactly one reference subfield must be non-nil')];
  return configMapSourceErrors(source.configMap as Obj, path.child('configMap'), inStatus);
}

/**
 * Update, beyond `validateNode`: no duplicate `status.addresses`; `spec.podCIDRs`,
 * `spec.providerID` fixed once set, `spec.externalID` fixed; config source references well formed.
 */
export function validateNodeUpdate(node: Obj, old: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const seen: Obj[] = [];
  list(statusOf(node).addresses).forEach((a, i) => {
    if (seen.some((s) => deepEqual(s, a))) errs.push(duplicate(FieldPath.of('status', 'addresses').index(i), a));
    seen.push(a);
  });
  const oldCIDRs = strings(specOf(old).podCIDRs);
  const newCIDRs = strings(specOf(node).podCIDRs);
  const cidrMsg = 'node updates may not change podCIDR except from "" to valid';
  if (oldCIDRs.length > 0) {
    if (oldCIDRs.length !== newCIDRs.length) errs.push(forbidden(FieldPath.of('spec', 'podCIDRs'), cidrMsg));
    else for (const [i, c] of oldCIDRs.entries()) if (c !== newCIDRs[i]) errs.push(forbidden(FieldPath.of('spec', 'podCIDRs'), cidrMsg));
  }
  const oldProvider = (specOf(old).providerID as string | undefined) ?? '';
  if (oldProvider !== '' && oldProvider !== ((specOf(node).providerID as string | undefined) ?? ''))
    errs.push(forbidden(FieldPath.of('spec', 'providerID'), 'node updates may not change providerID except from "" to valid'));
  const configSource = specOf(node).configSource as Obj | undefined;
  if (configSource) errs.push(...configSourceErrors(configSource, FieldPath.of('spec', 'configSource'), false));
  const config = statusOf(node).config as Obj | undefined;
  for (const k of ['assigned', 'active', 'lastKnownGood']) {
    const source = config?.[k] as Obj | undefined;
    if (source) errs.push(...configSourceErrors(source, FieldPath.of('status', 'config', k), true));
  }
  if (((specOf(node).externalID as string | undefined) ?? '') !== ((specOf(old).externalID as string | undefined) ?? ''))
    errs.push(forbidden(FieldPath.of('spec', 'externalID'), 'may not be updated'));
  return errs;
}

/** Status write: upstream checks a status write with the full update rules (taints, resources included). */
export function validateNodeStatusUpdate(node: Obj, old: Obj): FieldError[] {
  return [...validateTaints(node), ...validateResources(node), ...validateNodeUpdate(node, old)];
}
