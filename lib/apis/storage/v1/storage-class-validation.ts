/**
 * StorageClass validation with the upstream paths and messages (upstream storage validation
 * `ValidateStorageClass` / `ValidateStorageClassUpdate` of v1.30). ObjectMeta and the required
 * `provisioner` are checked by the caller (declarative walk).
 */
import { duplicate, type FieldError, FieldPath, forbidden, invalid, notSupported, required, tooLong } from '../../../apimachinery/field-errors.js';
import { isQualifiedName } from '../../../apimachinery/validation/names.js';
import { validateLabelName } from '../../../apimachinery/validation/label-map.js';
import { list, obj, objs, str, strMap, type Obj } from '../../core/v1/obj-access.js';
import { semanticEqual } from '../../core/v1/semantic-equal.js';

/** Most provisioner parameters, and their largest total size in bytes (keys plus values). */
export const MAX_PARAMETERS = 512;
export const MAX_PARAMETERS_SIZE = 256 * 1024;

const RECLAIM_POLICIES = ['Delete', 'Retain'];
const BINDING_MODES = ['Immediate', 'WaitForFirstConsumer'];
const root = (name: string) => FieldPath.of(name);

/** `provisioner`: a qualified name once lower-cased (its absence is the declarative walk's). */
function validateProvisioner(provisioner: string): FieldError[] {
  if (provisioner === '') return [];
  const lower = provisioner.toLowerCase();
  return isQualifiedName(lower).map((m) => invalid(root('provisioner'), lower, m));
}

/** Provisioner parameters (upstream `validateParameters`): at most 512, no empty key, at most 256 KiB of keys and values. */
function validateParameters(params: unknown, path: FieldPath): FieldError[] {
  const entries = Object.entries(strMap(params));
  if (entries.length > MAX_PARAMETERS) return [tooLong(path, '', MAX_PARAMETERS)];
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of entries) {
    if (k === '') errs.push(invalid(path, k, 'field can not be empty.'));
    size += Buffer.byteLength(k) + Buffer.byteLength(v);
  }
  if (size > MAX_PARAMETERS_SIZE) errs.push(tooLong(path, '', MAX_PARAMETERS_SIZE));
  return errs;
}

/** One topology term: each requirement has values (no duplicates) and a label key; keys are unique. */
function validateTopologyTerm(term: Obj, path: FieldPath): { keys: Map<string, Set<string>>; errs: FieldError[] } {
  const errs: FieldError[] = [];
  const keys = new Map<string, Set<string>>();
  objs(term.matchLabelExpressions).forEach((req, i) => {
    const p = path.child('matchLabelExpressions').index(i);
    const values = new Set<string>();
    const raw = list(req.values).map(str);
    if (raw.length === 0) errs.push(required(p.child('values')));
    raw.forEach((v, j) => {
      if (values.has(v)) errs.push(duplicate(p.child('values').index(j), v));
      values.add(v);
    });
    const key = str(req.key);
    if (key !== '') errs.push(...validateLabelName(key, p.child('key')));
    if (keys.has(key)) errs.push(duplicate(p.child('key'), key));
    keys.set(key, values);
  });
  return { keys, errs };
}

const sameTerm = (a: Map<string, Set<string>>, b: Map<string, Set<string>>): boolean =>
  a.size === b.size && [...a].every(([k, v]) => b.has(k) && b.get(k)!.size === v.size && [...v].every((x) => b.get(k)!.has(x)));

/**
 * `allowedTopologies` (upstream `validateAllowedTopologies`): each term as above, and a term equal
 * to an earlier one is a `Duplicate value: ""` at its `matchLabelExpressions`. As upstream, the
 * comparison list starts with one empty entry per term, so a term without requirements is
 * reported once per such entry and per earlier empty term.
 */
function validateAllowedTopologies(terms: unknown): FieldError[] {
  const all = objs(terms);
  const errs: FieldError[] = [];
  const seen: Map<string, Set<string>>[] = all.map(() => new Map());
  all.forEach((term, i) => {
    const path = root('allowedTopologies').index(i);
    const { keys, errs: termErrs } = validateTopologyTerm(term, path);
    errs.push(...termErrs);
    for (const earlier of seen) if (sameTerm(keys, earlier)) errs.push(duplicate(path.child('matchLabelExpressions'), ''));
    seen.push(keys);
  });
  return errs;
}

/** Create (and update): provisioner, parameters, reclaim policy, binding mode, allowed topologies. */
export function validateStorageClass(sc: Obj): FieldError[] {
  const errs = [...validateProvisioner(str(sc.provisioner)), ...validateParameters(sc.parameters, root('parameters'))];
  const policy = str(sc.reclaimPolicy);
  if (policy !== '' && !RECLAIM_POLICIES.includes(policy)) errs.push(notSupported(root('reclaimPolicy'), policy, RECLAIM_POLICIES));
  if (sc.volumeBindingMode === undefined || sc.volumeBindingMode === null) errs.push(required(root('volumeBindingMode')));
  else if (!BINDING_MODES.includes(str(sc.volumeBindingMode))) errs.push(notSupported(root('volumeBindingMode'), sc.volumeBindingMode, BINDING_MODES));
  errs.push(...validateAllowedTopologies(sc.allowedTopologies));
  return errs;
}

/** Update: parameters, provisioner and reclaim policy may not change; the binding mode is immutable. */
export function validateStorageClassUpdate(sc: Obj, old: Obj): FieldError[] {
  const errs: FieldError[] = [];
  if (!semanticEqual(obj(sc.parameters) ?? {}, obj(old.parameters) ?? {})) errs.push(forbidden(root('parameters'), 'updates to parameters are forbidden.'));
  if (str(sc.provisioner) !== str(old.provisioner)) errs.push(forbidden(root('provisioner'), 'updates to provisioner are forbidden.'));
  if (str(sc.reclaimPolicy) !== str(old.reclaimPolicy)) errs.push(forbidden(root('reclaimPolicy'), 'updates to reclaimPolicy are forbidden.'));
  if (!semanticEqual(sc.volumeBindingMode, old.volumeBindingMode)) errs.push(invalid(root('volumeBindingMode'), sc.volumeBindingMode ?? null, 'field is immutable'));
  return errs;
}
