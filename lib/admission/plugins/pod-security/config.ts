/**
 * The PodSecurity plugin's configuration (upstream v1.30 `PodSecurityConfiguration`, apiVersion
 * `pod-security.admission.config.<vendor>/v1`, also v1beta1 and v1alpha1; the upstream group
 * spelling is accepted): the default policy of namespaces without labels and the exemptions by
 * username, runtime class and namespace (spec 001 § Admission control).
 *
 *   defaults: {enforce, enforce-version, audit, audit-version, warn, warn-version}   default privileged / latest
 *   exemptions: {usernames: [], runtimeClasses: [], namespaces: []}
 */
import { aggregateMessage } from '../../../apimachinery/errors.js';
import { type FieldError, FieldPath, duplicate, fieldErrorString, invalid, required } from '../../../apimachinery/field-errors.js';
import { ConfigDecodeError, decodeConfigDocument } from '../../../apimachinery/serializers/config-document.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../../apimachinery/validation/names.js';
import type { Obj } from '../../../apis/core/v1/obj-access.js';
import { POD_SECURITY_CONFIG_GROUP, canonicalGroup } from '../../../apis/vendor.js';
import { type Policy, parseLevel, parseVersion } from './api.js';

/** The plugin's effective configuration. */
export interface PodSecurityConfig {
  defaults: Policy;
  exemptions: {
    usernames: ReadonlySet<string>;
    runtimeClasses: ReadonlySet<string>;
    namespaces: ReadonlySet<string>;
  };
}

/** privileged / latest in every mode, no exemptions: what a server without configuration uses. */
export function defaultPodSecurityConfig(): PodSecurityConfig {
  const lv = () => ({ level: 'privileged' as const, version: 'latest' as const });
  return { defaults: { enforce: lv(), audit: lv(), warn: lv() }, exemptions: { usernames: new Set(), runtimeClasses: new Set(), namespaces: new Set() } };
}

/** The modes in upstream's validation order. */
const MODES = ['enforce', 'warn', 'audit'] as const;

/** A string field, '' when absent; anything else is a type error. */
function stringField(o: Obj, key: string, path: string, errs: FieldError[]): string {
  const v = o[key];
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  errs.push(invalid(path, v, 'must be a string'));
  return '';
}

/** A list of strings, validated item by item (`check` gives the problems of one value); duplicates rejected. */
function stringList(o: Obj, key: string, check: (v: string) => FieldError | undefined, errs: FieldError[]): Set<string> {
  const path = FieldPath.of('exemptions', key);
  const out = new Set<string>();
  const v = o[key];
  if (v === undefined || v === null) return out;
  if (!Array.isArray(v)) {
    errs.push(invalid(path, v, 'must be a list of strings'));
    return out;
  }
  v.forEach((item, i) => {
    if (typeof item !== 'string') {
      errs.push(invalid(path.index(i), item, 'must be a string'));
      return;
    }
    const problem = check(item);
    if (problem) errs.push({ ...problem, field: path.index(i).toString() });
    else if (out.has(item)) errs.push(duplicate(path.index(i), item));
    else out.add(item);
  });
  return out;
}

const nameCheck = (validate: (v: string) => string[]) => (v: string) => {
  const problems = validate(v);
  return problems.length > 0 ? invalid('', v, problems.join(', ')) : undefined;
};

/**
 * Reads and validates the configuration object of `--admission-control-config-file` (undefined:
 * the defaults). Empty levels default to privileged and empty versions to latest.
 * @throws Error `PodSecurity configuration error: <decoder message>` for a wrong apiVersion or kind,
 *   or `PodSecurity invalid: <field errors>` (upstream's wording) for bad values.
 */
export function loadPodSecurityConfig(raw: Obj | undefined): PodSecurityConfig {
  if (raw === undefined) return defaultPodSecurityConfig();
  try {
    decodeConfigDocument(JSON.stringify(raw), { kind: 'PodSecurityConfiguration', group: POD_SECURITY_CONFIG_GROUP, versions: ['v1', 'v1beta1', 'v1alpha1'], canonicalGroup });
  } catch (err) {
    if (err instanceof ConfigDecodeError) throw new Error(`PodSecurity configuration error: ${err.message}`, { cause: err });
    throw err;
  }
  const errs: FieldError[] = [];
  const config = defaultPodSecurityConfig();
  const defaults = (raw.defaults ?? {}) as Obj;
  if (typeof defaults !== 'object' || Array.isArray(defaults)) errs.push(invalid('defaults', defaults, 'must be an object'));
  else {
    for (const mode of MODES) {
      const level = stringField(defaults, mode, `defaults.${mode}`, errs) || 'privileged';
      const version = stringField(defaults, `${mode}-version`, `defaults.${mode}-version`, errs) || 'latest';
      const l = parseLevel(level);
      const v = parseVersion(version);
      if (l.error) errs.push(invalid(`defaults.${mode}`, level, l.error));
      if (v.error) errs.push(invalid(`defaults.${mode}-version`, version, v.error));
      config.defaults[mode] = { level: l.level, version: v.version };
    }
  }
  const exemptions = (raw.exemptions ?? {}) as Obj;
  if (typeof exemptions !== 'object' || Array.isArray(exemptions)) errs.push(invalid('exemptions', exemptions, 'must be an object'));
  else {
    config.exemptions = {
      namespaces: stringList(exemptions, 'namespaces', nameCheck(isDNS1123Label), errs),
      runtimeClasses: stringList(exemptions, 'runtimeClasses', nameCheck(isDNS1123Subdomain), errs),
      usernames: stringList(exemptions, 'usernames', (v) => (v === '' ? required('') : undefined), errs),
    };
  }
  if (errs.length > 0) throw new Error(`PodSecurity invalid: ${aggregateMessage(errs.map(fieldErrorString))}`);
  return config;
}
