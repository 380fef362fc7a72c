/**
 * Validation of container environment (`env`, `envFrom`) and of the downward API selectors shared
 * with downwardAPI volumes, with the upstream paths and messages.
 */
import { type FieldError, type FieldPath, invalid, notSupported, required } from '../../../apimachinery/field-errors.js';
import { Quantity } from '../../../apimachinery/quantity.js';
import { isConfigMapKey, isEnvVarName } from '../../../apimachinery/validation/formats.js';
import { checkName, isDNS1123Subdomain, isQualifiedName } from '../../../apimachinery/validation/names.js';
import { obj, objs, str, type Obj } from './obj-access.js';
import { parseQuantity } from './resources-validation.js';

/** Pod fields an environment variable may reference. */
export const ENV_FIELD_PATHS = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.serviceAccountName',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
];
/** Pod fields a downwardAPI volume file may reference. */
export const VOLUME_FIELD_PATHS = ['metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid'];
/** Container resources the downward API may expose (plus `requests.hugepages-*`, `limits.hugepages-*`). */
export const RESOURCE_FIELD_PATHS = ['limits.cpu', 'limits.ephemeral-storage', 'limits.memory', 'requests.cpu', 'requests.ephemeral-storage', 'requests.memory'];

/** Field labels the v1 pod conversion accepts (upstream ConvertDownwardAPIFieldLabel). */
const CONVERTIBLE_LABELS = new Set([
  'metadata.annotations',
  'metadata.labels',
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.serviceAccountName',
  'spec.schedulerName',
  'status.phase',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
]);

/** `metadata.labels['k']` → ['metadata.labels', 'k']; undefined when not subscripted. */
function splitSubscript(fieldPath: string): [string, string] | undefined {
  if (!fieldPath.endsWith("']")) return undefined;
  const s = fieldPath.slice(0, -2);
  const at = s.indexOf("['");
  if (at <= 0) return undefined;
  return [s.slice(0, at), s.slice(at + 2)];
}

/** Converts a v1 field label to the internal one, or throws the upstream conversion message. */
function convertFieldLabel(apiVersion: string, label: string): string {
  if (apiVersion !== 'v1') throw new Error(`unsupported pod version: ${apiVersion}`);
  const sub = splitSubscript(label);
  if (sub) {
    if (sub[0] === 'metadata.annotations' || sub[0] === 'metadata.labels') return label;
    throw new Error(`field label does not support subscript: ${label}`);
  }
  if (CONVERTIBLE_LABELS.has(label)) return label;
  if (label === 'spec.host') return 'spec.nodeName';
  throw new Error(`field label not supported: ${label}`);
}

/** A downward API field reference against the allowed `expressions`. */
export function validateObjectFieldSelector(fs: Obj, expressions: readonly string[], path: FieldPath): FieldError[] {
  const apiVersion = str(fs.apiVersion);
  const fieldPath = str(fs.fieldPath);
  if (!apiVersion) return [required(path.child('apiVersion'))];
  if (!fieldPath) return [];
  let internal: string;
  try {
    internal = convertFieldLabel(apiVersion, fieldPath);
  } catch (err) {
    return [invalid(path.child('fieldPath'), fieldPath, `error converting fieldPath: ${(err as Error).message}`)];
  }
  const sub = splitSubscript(internal);
  if (sub) {
    const [p, key] = sub;
    if (p === 'metadata.annotations') return isQualifiedName(key.toLowerCase()).map((m) => invalid(path, key.toLowerCase(), m));
    if (p === 'metadata.labels') return isQualifiedName(key).map((m) => invalid(path, key, m));
    return [invalid(path, p, 'does not support subscript')];
  }
  return expressions.includes(internal) ? [] : [notSupported(path.child('fieldPath'), internal, expressions)];
}

/** The divisors of byte-sized resources (memory, ephemeral storage, hugepages). */
const BYTE_DIVISORS = ['1', '1k', '1M', '1G', '1T', '1P', '1E', '1Ki', '1Mi', '1Gi', '1Ti', '1Pi', '1Ei'];
const byteDivisorsOnly = (what: string): string => `only divisor's values ${BYTE_DIVISORS.join(', ')} are supported with the ${what} resource`;

/** Which resources each divisor rule applies to, the divisors it allows, and its message. */
const DIVISORS: [test: (r: string) => boolean, allowed: string[], detail: string][] = [
  [(r) => r === 'limits.cpu' || r === 'requests.cpu', ['1m', '1'], "only divisor's values 1m and 1 are supported with the cpu resource"],
  [(r) => r === 'limits.memory' || r === 'requests.memory', BYTE_DIVISORS, byteDivisorsOnly('memory')],
  [(r) => r.endsWith('ephemeral-storage'), BYTE_DIVISORS, byteDivisorsOnly('local ephemeral storage')],
  [(r) => r.startsWith('requests.hugepages-') || r.startsWith('limits.hugepages-'), BYTE_DIVISORS, byteDivisorsOnly('hugepages')],
];

function validateDivisor(resource: string, divisor: unknown, path: FieldPath): FieldError[] {
  if (divisor === undefined) return [];
  const q = parseQuantity(divisor, path.child('divisor'));
  if (!(q instanceof Quantity)) return [q];
  if (q.isZero()) return [];
  const text = q.toString();
  return DIVISORS.filter(([test, allowed]) => test(resource) && !allowed.includes(text)).map(([, , detail]) => invalid(path.child('divisor'), resource, detail));
}

/** A downward API resource reference; in a volume the container name is required. */
export function validateResourceFieldSelector(fs: Obj, path: FieldPath, inVolume: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const resource = str(fs.resource);
  if (inVolume && !str(fs.containerName)) errs.push(required(path.child('containerName')));
  else if (resource && !RESOURCE_FIELD_PATHS.includes(resource) && !/^(requests|limits)\.hugepages-/.test(resource))
    errs.push(notSupported(path.child('resource'), resource, RESOURCE_FIELD_PATHS));
  errs.push(...validateDivisor(resource, fs.divisor, path));
  return errs;
}

/** A ConfigMap or Secret key reference: object name (DNS subdomain) and key. */
function validateKeySelector(s: Obj, path: FieldPath): FieldError[] {
  const name = str(s.name);
  const errs = isDNS1123Subdomain(name).map((m) => invalid(path.child('name'), name, m));
  const key = str(s.key);
  if (key) errs.push(...isConfigMapKey(key).map((m) => invalid(path.child('key'), key, m)));
  return errs;
}

function validateValueFrom(ev: Obj, path: FieldPath): FieldError[] {
  const from = obj(ev.valueFrom);
  if (!from) return [];
  const errs: FieldError[] = [];
  let sources = 0;
  const fieldRef = obj(from.fieldRef);
  if (fieldRef) {
    sources++;
    errs.push(...validateObjectFieldSelector(fieldRef, ENV_FIELD_PATHS, path.child('fieldRef')));
  }
  const resourceFieldRef = obj(from.resourceFieldRef);
  if (resourceFieldRef) {
    sources++;
    errs.push(...validateResourceFieldSelector(resourceFieldRef, path.child('resourceFieldRef'), false));
  }
  for (const key of ['configMapKeyRef', 'secretKeyRef']) {
    const sel = obj(from[key]);
    if (!sel) continue;
    sources++;
    errs.push(...validateKeySelector(sel, path.child(key)));
  }
  if (sources === 0) errs.push(invalid(path, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
  else if (str(ev.value) !== '') errs.push(invalid(path, '', 'may not be specified when `value` is not empty'));
  else if (sources > 1) errs.push(invalid(path, '', 'may not have more than one field specified at a time'));
  return errs;
}

/** Validates a container's `env` list at `path`. */
export function validateEnv(env: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  objs(env).forEach((ev, i) => {
    const p = path.index(i);
    const name = str(ev.name);
    if (name) errs.push(...isEnvVarName(name).map((m) => invalid(p.child('name'), name, m)));
    errs.push(...validateValueFrom(ev, p.child('valueFrom')));
  });
  return errs;
}

/** Validates a container's `envFrom` list at `path`. */
export function validateEnvFrom(envFrom: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  objs(envFrom).forEach((ev, i) => {
    const p = path.index(i);
    const prefix = str(ev.prefix);
    if (prefix) errs.push(...isEnvVarName(prefix).map((m) => invalid(p.child('prefix'), prefix, m)));
    let sources = 0;
    for (const key of ['configMapRef', 'secretRef']) {
      const ref = obj(ev[key]);
      if (!ref) continue;
      sources++;
      const name = str(ref.name);
      if (!name) errs.push(required(p.child(key, 'name')));
      else errs.push(...checkName('dns1123Subdomain', name, true).map((m) => invalid(p.child(key, 'name'), name, m)));
    }
    if (sources === 0) errs.push(invalid(path, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (sources > 1) errs.push(invalid(path, '', 'may not have more than one field specified at a time'));
  });
  return errs;
}
