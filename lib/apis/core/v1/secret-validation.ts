/**
 * Secret validation with the upstream paths and messages (upstream core validation
 * `ValidateSecret`, `ValidateSecretUpdate`). Runs after `mergeStringData`, so only `data` is
 * checked. ObjectMeta (DNS subdomain names) is checked by the caller.
 */
import { type FieldError, FieldPath, invalid, required, tooLong } from '../../../apimachinery/field-errors.js';
import { isConfigMapKey } from '../../../apimachinery/validation/formats.js';
import { jsonObjectError } from '../../../apimachinery/validation/json-object.js';
import type { Obj } from '../../define.js';
import { validateBootstrapTokenSecret } from './bootstrap-token-validation.js';
import { MAX_DATA_SIZE, validateImmutableData } from './data-keys.js';
import { SECRET_KEY, SECRET_TYPE, SERVICE_ACCOUNT_NAME_ANNOTATION } from './secret-types.js';

const dataPath = FieldPath.of('data');

function decodedData(secret: Obj): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const [k, v] of Object.entries((secret.data as Record<string, unknown> | undefined) ?? {})) {
    out.set(k, Buffer.from(typeof v === 'string' ? v : '', 'base64'));
  }
  return out;
}

function typeRules(secret: Obj, data: Map<string, Buffer>): FieldError[] {
  const requireKey = (key: string) => (data.has(key) ? [] : [required(dataPath.key(key))]);
  const jsonKey = (key: string): FieldError[] => {
    const bytes = data.get(key);
    if (!bytes) return requireKey(key);
    const problem = jsonObjectError(bytes);
    return problem ? [invalid(dataPath.key(key), '<secret contents redacted>', problem)] : [];
  };
  switch (secret.type) {
    case SECRET_TYPE.serviceAccountToken: {
      const annotations = ((secret.metadata as Obj | undefined)?.annotations ?? {}) as Record<string, string>;
      return annotations[SERVICE_ACCOUNT_NAME_ANNOTATION] ? [] : [required(FieldPath.of('metadata', 'annotations').key(SERVICE_ACCOUNT_NAME_ANNOTATION))];
    }
    case SECRET_TYPE.dockercfg:
      return jsonKey(SECRET_KEY.dockercfg);
    case SECRET_TYPE.dockerConfigJson:
      return jsonKey(SECRET_KEY.dockerConfigJson);
    case SECRET_TYPE.basicAuth:
      if (data.has(SECRET_KEY.username) || data.has(SECRET_KEY.password)) return [];
      return [required(dataPath.key(SECRET_KEY.username)), required(dataPath.key(SECRET_KEY.password))];
    case SECRET_TYPE.sshAuth:
      return (data.get(SECRET_KEY.sshPrivateKey)?.length ?? 0) > 0 ? [] : [required(dataPath.key(SECRET_KEY.sshPrivateKey))];
    case SECRET_TYPE.tls:
      return [...requireKey(SECRET_KEY.tlsCert), ...requireKey(SECRET_KEY.tlsKey)];
    case SECRET_TYPE.bootstrapToken:
      return validateBootstrapTokenSecret(secret, data);
    default:
      return [];
  }
}

/**
 * Create (and every update): data keys are config keys (`data[<key>]`), the decoded values total
 * at most 1 MiB, and typed Secrets carry their required keys or annotation.
 */
export function validateSecret(secret: Obj): FieldError[] {
  const data = decodedData(secret);
  const errs: FieldError[] = [];
  let total = 0;
  for (const [k, v] of data) {
    for (const m of isConfigMapKey(k)) errs.push(invalid(dataPath.key(k), k, m));
    total += v.length;
  }
  if (total > MAX_DATA_SIZE) errs.push(tooLong(dataPath, '', MAX_DATA_SIZE));
  errs.push(...typeRules(secret, data));
  return errs;
}

/** Update: `type` never changes; with `immutable: true` stored, `data` and the flag are frozen. */
export function validateSecretUpdate(secret: Obj, old: Obj): FieldError[] {
  const errs: FieldError[] = [];
  if ((secret.type ?? '') !== (old.type ?? '')) errs.push(invalid(FieldPath.of('type'), secret.type ?? '', 'field is immutable'));
  errs.push(...validateImmutableData(secret, old, ['data']));
  return errs;
}
