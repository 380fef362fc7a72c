/**
 * Loading and validating the audit Policy file (`--audit-policy-file`; upstream
 * pkg/audit/policy/reader.go and pkg/apis/audit/validation): YAML or JSON, `apiVersion`
 * `audit.<vendor>/v1` or its upstream alias `audit.k8s.io/v1`, `kind: Policy`.
 */
import { readFile } from 'node:fs/promises';
import { parse as parseYAML } from 'yaml';
import { type FieldError, FieldPath, fieldErrorString, goStringSlice, invalid, notSupported } from '../apimachinery/field-errors.js';
import { isDNS1123Subdomain } from '../apimachinery/validation/names.js';
import { AUDIT_GROUP, AUDIT_UPSTREAM_GROUP } from '../apis/vendor.js';
import { type GroupResources, LEVELS, type Level, type Policy, type PolicyRule, STAGES, type Stage } from './types.js';

const API_VERSIONS = new Set([`${AUDIT_GROUP}/v1`, `${AUDIT_UPSTREAM_GROUP}/v1`]);

/** A policy file that cannot be used; the message is upstream's wording. */
export class PolicyError extends Error {
  override readonly name = 'PolicyError';
}

function stringList(v: unknown, path: string): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new PolicyError(`failed decoding: ${path}: expected a list of strings`);
  return v as string[];
}

function optionalBool(v: unknown, path: string): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw new PolicyError(`failed decoding: ${path}: expected a boolean`);
  return v;
}

function objectAt(v: unknown, path: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new PolicyError(`failed decoding: ${path}: expected an object`);
  return v as Record<string, unknown>;
}

function decodeRule(raw: unknown, i: number): PolicyRule {
  const o = objectAt(raw, `rules[${i}]`);
  const p = (k: string) => `rules[${i}].${k}`;
  const resources = o.resources === undefined || o.resources === null ? undefined : o.resources;
  if (resources !== undefined && !Array.isArray(resources)) throw new PolicyError(`failed decoding: ${p('resources')}: expected a list`);
  return {
    level: (typeof o.level === 'string' ? o.level : '') as Level,
    users: stringList(o.users, p('users')),
    userGroups: stringList(o.userGroups, p('userGroups')),
    verbs: stringList(o.verbs, p('verbs')),
    resources: resources?.map((g, j): GroupResources => {
      const go = objectAt(g, `${p('resources')}[${j}]`);
      return {
        group: typeof go.group === 'string' ? go.group : '',
        resources: stringList(go.resources, `${p('resources')}[${j}].resources`),
        resourceNames: stringList(go.resourceNames, `${p('resources')}[${j}].resourceNames`),
      };
    }),
    namespaces: stringList(o.namespaces, p('namespaces')),
    nonResourceURLs: stringList(o.nonResourceURLs, p('nonResourceURLs')),
    omitStages: stringList(o.omitStages, p('omitStages')) as Stage[] | undefined,
    omitManagedFields: optionalBool(o.omitManagedFields, p('omitManagedFields')),
  };
}

function validateOmitStages(stages: readonly string[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  (stages ?? []).forEach((s, i) => {
    if (!(STAGES as readonly string[]).includes(s)) errs.push(invalid(path.index(i), s, `allowed stages are ${STAGES.join(',')}`));
  });
  return errs;
}

function validateRule(r: PolicyRule, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (!(LEVELS as readonly string[]).includes(r.level)) errs.push(notSupported(path.child('level'), r.level, LEVELS));
  const urls = r.nonResourceURLs ?? [];
  if (urls.length > 0 && ((r.resources ?? []).length > 0 || (r.namespaces ?? []).length > 0)) {
    errs.push(invalid(path.child('nonResourceURLs'), goStringSlice(urls), 'rules cannot apply to both regular resources and non-resource URLs'));
  }
  urls.forEach((url, i) => {
    const p = path.child('nonResourceURLs').index(i);
    if (url === '*') return;
    if (!url.startsWith('/')) errs.push(invalid(p, url, "non-resource URL rules must begin with a '/' character"));
    if (url !== '' && url.slice(0, -1).includes('*')) errs.push(invalid(p, url, "non-resource URL wildcards '*' must be the final character of the rule"));
  });
  (r.resources ?? []).forEach((g, i) => {
    const p = path.child('resources').index(i);
    if (g.group) {
      const problems = isDNS1123Subdomain(g.group);
      if (problems.length > 0) errs.push(invalid(p.child('group'), g.group, problems.join(',')));
    }
    if ((g.resourceNames ?? []).length > 0 && (g.resources ?? []).length === 0) {
      errs.push(invalid(p.child('resourceNames'), goStringSlice(g.resourceNames!), 'using resourceNames requires at least one resource'));
    }
  });
  errs.push(...validateOmitStages(r.omitStages, path.child('omitStages')));
  return errs;
}

/** Upstream ValidatePolicy: the field errors of a decoded policy (empty when valid). */
export function validatePolicy(p: Policy): FieldError[] {
  const errs = validateOmitStages(p.omitStages, FieldPath.of('omitStages'));
  p.rules.forEach((r, i) => errs.push(...validateRule(r, FieldPath.of('rules').index(i))));
  return errs;
}

/**
 * Parses and validates a policy document (YAML or JSON text).
 * @throws PolicyError with upstream's wording: `failed decoding: …`, `unknown group version field
 * <gv>, Kind=<kind> in policy`, the field errors (`rules[0].level: Unsupported value: "X":
 * supported values: …`; several as `[a, b]`), `loaded illegal policy with 0 rules`.
 */
export function parsePolicy(text: string): Policy {
  let doc: unknown;
  try {
    doc = parseYAML(text);
  } catch (err) {
    throw new PolicyError(`failed decoding: ${(err as Error).message}`);
  }
  const o = objectAt(doc ?? {}, 'policy');
  const apiVersion = typeof o.apiVersion === 'string' ? o.apiVersion : '';
  const kind = typeof o.kind === 'string' ? o.kind : '';
  if (kind === '') throw new PolicyError(`failed decoding: Object 'Kind' is missing in '${JSON.stringify(o)}'`);
  if (!API_VERSIONS.has(apiVersion) || kind !== 'Policy') throw new PolicyError(`unknown group version field ${apiVersion}, Kind=${kind} in policy`);
  const rules = o.rules === undefined || o.rules === null ? [] : o.rules;
  if (!Array.isArray(rules)) throw new PolicyError('failed decoding: rules: expected a list');
  const policy: Policy = {
    rules: rules.map(decodeRule),
    omitStages: stringList(o.omitStages, 'omitStages') as Stage[] | undefined,
    omitManagedFields: optionalBool(o.omitManagedFields, 'omitManagedFields'),
  };
  const errs = validatePolicy(policy);
  if (errs.length === 1) throw new PolicyError(fieldErrorString(errs[0]!));
  if (errs.length > 1) throw new PolicyError(`[${errs.map(fieldErrorString).join(', ')}]`);
  if (policy.rules.length === 0) throw new PolicyError('loaded illegal policy with 0 rules');
  return policy;
}

/**
 * Reads and parses `--audit-policy-file`.
 * @throws PolicyError `failed to read file path "<file>": <error>` or `<parse error>: from file <file>`.
 */
export async function loadPolicyFile(file: string): Promise<Policy> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new PolicyError(`failed to read file path ${JSON.stringify(file)}: ${(err as Error).message}`);
  }
  try {
    return parsePolicy(text);
  } catch (err) {
    throw new PolicyError(`${(err as Error).message}: from file ${file}`);
  }
}
