/**
 * Job validation with the upstream (v1.30) paths and messages: the generated selector, counts,
 * per-index backoff, completion modes, pod failure and success policies, pod replacement policy,
 * the template and its restart policy (`ValidateJob`, `validateJobSpec`), update rules (selector,
 * template except scheduling directives of never-started suspended Jobs, completion mode,
 * policies; completions only with parallelism for Indexed Jobs) and status writes.
 */
import { deepCopy } from '../../../apimachinery/deep-equal.js';
import { duplicate, type FieldError, FieldPath, invalid, notSupported, required, tooLong, tooMany } from '../../../apimachinery/field-errors.js';
import { labelSelectorFromObject, type LabelSelector, type LabelSelectorObject } from '../../../apimachinery/labels/selector.js';
import { validateLabelSelectorObject } from '../../../apimachinery/labels/validation.js';
import { validateNonnegative } from '../../../apimachinery/validation/formats.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName } from '../../../apimachinery/validation/names.js';
import { list, num, obj, objs, str, strMap, type Obj } from '../../core/v1/obj-access.js';
import { semanticEqual } from '../../core/v1/semantic-equal.js';
import { validatePodTemplateSpec } from '../../core/v1/workloads.js';
import { validateSelectorMatchesTemplate } from '../../apps/v1/workload-validation.js';
import { CONTROLLER_UID_LABEL, JOB_NAME_LABEL, LEGACY_CONTROLLER_UID_LABEL, LEGACY_JOB_NAME_LABEL } from './job-selector.js';

const spec = FieldPath.of('spec');
const MAX_PARALLELISM_INDEXED = 100000;
const MAX_FAILED_INDEXES = 100000;
const COMPLETIONS_SOFT_LIMIT = 100000;
const HIGH_COMPLETIONS_LIMIT = 10000;
const MAX_POLICY_RULES = 20;
const MAX_EXIT_CODES = 255;
const ACTIONS = ['Count', 'FailIndex', 'FailJob', 'Ignore'];
const EXIT_OPERATORS = ['In', 'NotIn'];
const CONDITION_STATUSES = ['False', 'True', 'Unknown'];
/** `%q` of a Go string slice: `["a" "b"]`. */
const quoted = (values: string[]): string => `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;

function validateExitCodes(req: Obj, path: FieldPath, containerNames: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  const operator = str(req.operator);
  if (!operator) errs.push(required(path.child('operator'), `valid values: ${quoted(EXIT_OPERATORS)}`));
  else if (!EXIT_OPERATORS.includes(operator)) errs.push(notSupported(path.child('operator'), operator, EXIT_OPERATORS));
  if (typeof req.containerName === 'string' && !containerNames.has(req.containerName))
    errs.push(invalid(path.child('containerName'), req.containerName, 'must be one of the container or initContainer names in the pod template'));
  const values = list(req.values).map((v) => num(v) ?? 0);
  if (values.length === 0) errs.push(invalid(path.child('values'), values, 'at least one value is required'));
  else if (values.length > MAX_EXIT_CODES) errs.push(tooMany(path.child('values'), values.length, MAX_EXIT_CODES));
  const seen = new Set<number>();
  let ordered = true;
  values.forEach((v, j) => {
    if (operator === 'In' && v === 0) errs.push(invalid(path.child('values').index(j), v, 'must not be 0 for the In operator'));
    if (seen.has(v)) errs.push(duplicate(path.child('values').index(j), v));
    seen.add(v);
    if (j > 0 && values[j - 1]! > v) ordered = false;
  });
  if (!ordered) errs.push(invalid(path.child('values'), values, 'must be ordered'));
  return errs;
}

function validatePodConditionPatterns(patterns: Obj[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = patterns.length > MAX_POLICY_RULES ? [tooMany(path, patterns.length, MAX_POLICY_RULES)] : [];
  patterns.forEach((p, j) => {
    const type = str(p.type);
    errs.push(...isQualifiedName(type).map((m) => invalid(path.index(j).child('type'), type, m)));
    const status = str(p.status);
    if (!status) errs.push(required(path.index(j).child('status'), `valid values: ${quoted(CONDITION_STATUSES)}`));
    else if (!CONDITION_STATUSES.includes(status)) errs.push(notSupported(path.index(j).child('status'), status, CONDITION_STATUSES));
  });
  return errs;
}

function validatePodFailurePolicy(s: Obj, policy: Obj, path: FieldPath): FieldError[] {
  const rules = objs(policy.rules);
  const errs: FieldError[] = rules.length > MAX_POLICY_RULES ? [tooMany(path.child('rules'), rules.length, MAX_POLICY_RULES)] : [];
  const podSpec = obj(obj(s.template)?.spec) ?? {};
  const containerNames = new Set([...objs(podSpec.containers), ...objs(podSpec.initContainers)].map((c) => str(c.name)));
  rules.forEach((rule, i) => {
    const p = path.child('rules').index(i);
    const action = str(rule.action);
    if (!action) errs.push(required(p.child('action'), `valid values: ${quoted(ACTIONS)}`));
    else if (action === 'FailIndex') {
      if (s.backoffLimitPerIndex === undefined) errs.push(invalid(p.child('action'), action, 'requires the backoffLimitPerIndex to be set'));
    } else if (!ACTIONS.includes(action)) errs.push(notSupported(p.child('action'), action, ACTIONS));
    const onExitCodes = obj(rule.onExitCodes);
    const onPodConditions = objs(rule.onPodConditions);
    if (onExitCodes) errs.push(...validateExitCodes(onExitCodes, p.child('onExitCodes'), containerNames));
    if (onPodConditions.length > 0) errs.push(...validatePodConditionPatterns(onPodConditions, p.child('onPodConditions')));
    if (onExitCodes && onPodConditions.length > 0) errs.push(invalid(p, '', 'specifying both OnExitCodes and OnPodConditions is not supported'));
    if (!onExitCodes && onPodConditions.length === 0) errs.push(invalid(p, '', 'specifying one of OnExitCodes and OnPodConditions is required'));
  });
  return errs;
}

/** Parses `1,3-5,7` (increasing, below `completions`); returns the number of indexes or an error. */
export function countIndexes(text: string, completions: number): number | string {
  if (text === '') return 0;
  let last: number | undefined;
  let total = 0;
  const parse = (s: string): number | string => (/^[+-]?[0-9]+$/.test(s) ? Number.parseInt(s, 10) : `cannot convert string to integer for index: ${JSON.stringify(s)}`);
  for (const interval of text.split(',')) {
    const parts = interval.split('-');
    if (parts.length > 2) return `the fragment ${JSON.stringify(interval)} violates the requirement that an index interval can have at most two parts separated by '-'`;
    for (const [k, part] of parts.entries()) {
      const x = parse(part);
      if (typeof x === 'string') return x;
      if (x >= completions) return `too large index: ${JSON.stringify(part)}`;
      if (last !== undefined && last >= x) return `non-increasing order, previous: ${last}, current: ${x}`;
      total += k === 0 ? 1 : x - last!;
      last = x;
    }
  }
  return total;
}

function validateSuccessPolicy(s: Obj, policy: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (s.completionMode !== 'Indexed') errs.push(invalid(path, policy, 'requires indexed completion mode'));
  const rules = objs(policy.rules);
  if (rules.length === 0) errs.push(required(path.child('rules'), 'at least one rules must be specified when the successPolicy is specified'));
  if (rules.length > MAX_POLICY_RULES) errs.push(tooMany(path.child('rules'), rules.length, MAX_POLICY_RULES));
  const completions = num(s.completions) ?? 0;
  rules.forEach((rule, i) => {
    const p = path.child('rules').index(i);
    if (rule.succeededCount === undefined && rule.succeededIndexes === undefined)
      errs.push(required(p, 'at least one of succeededCount or succeededIndexes must be specified'));
    let total = 0;
    if (typeof rule.succeededIndexes === 'string') {
      const count = countIndexes(rule.succeededIndexes, completions);
      if (typeof count === 'string') errs.push(invalid(p.child('succeededIndexes'), rule.succeededIndexes, `error parsing succeededIndexes: ${count}`));
      else total = count;
    }
    const count = num(rule.succeededCount);
    if (count !== undefined) {
      errs.push(...validateNonnegative(count, p.child('succeededCount')));
      if (count > completions) errs.push(invalid(p.child('succeededCount'), count, `must be less than or equal to ${completions} (the number of specified completions)`));
      if (rule.succeededIndexes !== undefined && count > total)
        errs.push(invalid(p.child('succeededCount'), count, `must be less than or equal to ${total} (the number of indexes in the specified succeededIndexes field)`));
    }
  });
  return errs;
}

function validateManagedBy(value: string, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const slash = value.indexOf('/');
  if (slash <= 0 || slash === value.length - 1) errs.push(invalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")'));
  else {
    const host = value.slice(0, slash);
    errs.push(...isDNS1123Subdomain(host).map((m) => invalid(path, host, m)));
    const rest = value.slice(slash + 1);
    if (!/^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$/.test(rest))
      errs.push(invalid(path, rest, "Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')"));
  }
  if (value.length > 63) errs.push(tooLong(path, value, 63));
  return errs;
}

/** The JobSpec rules shared by Jobs and CronJob job templates (upstream validateJobSpec). */
export function validateJobSpecCommon(s: Obj, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const k of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished']) errs.push(...validateNonnegative(s[k], path.child(k)));
  const perIndex = num(s.backoffLimitPerIndex);
  const maxFailed = num(s.maxFailedIndexes);
  const completions = num(s.completions);
  const parallelism = num(s.parallelism);
  if (perIndex !== undefined) {
    errs.push(...validateNonnegative(perIndex, path.child('backoffLimitPerIndex')));
    if (maxFailed !== undefined) {
      errs.push(...validateNonnegative(maxFailed, path.child('maxFailedIndexes')));
      if (completions !== undefined && maxFailed > completions) errs.push(invalid(path.child('maxFailedIndexes'), maxFailed, 'must be less than or equal to completions'));
      if (maxFailed > MAX_FAILED_INDEXES) errs.push(invalid(path.child('maxFailedIndexes'), maxFailed, `must be less than or equal to ${MAX_FAILED_INDEXES}`));
    }
    if (s.completionMode !== 'Indexed') errs.push(invalid(path.child('backoffLimitPerIndex'), perIndex, 'requires indexed completion mode'));
  } else if (maxFailed !== undefined) {
    errs.push(required(path.child('backoffLimitPerIndex'), 'when maxFailedIndexes is specified'));
  }
  if (typeof s.managedBy === 'string') errs.push(...validateManagedBy(s.managedBy, path.child('managedBy')));
  if (s.completionMode === 'Indexed') {
    if (completions === undefined) errs.push(required(path.child('completions'), 'when completion mode is Indexed'));
    if (parallelism !== undefined && parallelism > MAX_PARALLELISM_INDEXED)
      errs.push(invalid(path.child('parallelism'), parallelism, `must be less than or equal to ${MAX_PARALLELISM_INDEXED} when completion mode is Indexed`));
    if (perIndex !== undefined && completions !== undefined && completions > COMPLETIONS_SOFT_LIMIT) {
      const detail = `must be less than or equal to ${HIGH_COMPLETIONS_LIMIT} when completions are above ${COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index`;
      if (parallelism !== undefined && parallelism > HIGH_COMPLETIONS_LIMIT) errs.push(invalid(path.child('parallelism'), parallelism, detail));
      if (maxFailed === undefined) errs.push(required(path.child('maxFailedIndexes'), `must be specified when completions are above ${COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index`));
      else if (maxFailed > HIGH_COMPLETIONS_LIMIT) errs.push(invalid(path.child('maxFailedIndexes'), maxFailed, detail));
    }
  }
  const failurePolicy = obj(s.podFailurePolicy);
  if (failurePolicy) errs.push(...validatePodFailurePolicy(s, failurePolicy, path.child('podFailurePolicy')));
  const successPolicy = obj(s.successPolicy);
  if (successPolicy) errs.push(...validateSuccessPolicy(s, successPolicy, path.child('successPolicy')));
  if (typeof s.podReplacementPolicy === 'string') {
    const allowed = failurePolicy ? ['Failed'] : ['Failed', 'TerminatingOrFailed'];
    if (!allowed.includes(s.podReplacementPolicy)) errs.push(notSupported(path.child('podReplacementPolicy'), s.podReplacementPolicy, allowed));
  }
  const template = obj(s.template);
  if (template) errs.push(...validatePodTemplateSpec(template, path.child('template')));
  const restartPolicy = str(obj(template?.spec)?.restartPolicy);
  const restartPath = path.child('template', 'spec', 'restartPolicy');
  if (restartPolicy === 'Always' || restartPolicy === '') errs.push(required(restartPath, 'valid values: "OnFailure", "Never"'));
  else if (restartPolicy !== 'OnFailure' && restartPolicy !== 'Never') errs.push(notSupported(restartPath, restartPolicy, ['Never', 'OnFailure']));
  else if (failurePolicy && restartPolicy !== 'Never') errs.push(invalid(restartPath, restartPolicy, 'only "Never" is supported when podFailurePolicy is specified'));
  return errs;
}

/** A template label that must hold `expected` (upstream ValidateHasLabel). */
function hasLabel(labels: Record<string, string>, key: string, expected: string, path: FieldPath): FieldError[] {
  const p = path.child('labels').key(key);
  if (!(key in labels)) return [required(p, `must be '${expected}'`)];
  return labels[key] === expected ? [] : [invalid(p, labels, `must be '${expected}'`)];
}

/**
 * `spec.selector` as a matcher (none selects nothing), or undefined when it cannot be converted:
 * validateLabelSelectorObject reports why.
 */
function jobSelector(sel: Obj | undefined): LabelSelector | undefined {
  try {
    return labelSelectorFromObject(sel as LabelSelectorObject | undefined);
  } catch {
    return undefined;
  }
}

/** The generated selector and labels are present and consistent (upstream validateGeneratedSelector). */
function validateGeneratedSelector(job: Obj, selector: LabelSelector | undefined): FieldError[] {
  const s = obj(job.spec) ?? {};
  if (s.manualSelector === true || !obj(s.selector)) return [];
  const meta = obj(job.metadata) ?? {};
  const uid = str(meta.uid);
  const name = str(meta.name);
  const errs: FieldError[] = uid ? [] : [required(FieldPath.of('metadata', 'uid'))];
  const labels = strMap(obj(obj(s.template)?.metadata)?.labels);
  const tmplPath = spec.child('template', 'metadata');
  const expected: Record<string, string> = {
    [LEGACY_CONTROLLER_UID_LABEL]: uid,
    [LEGACY_JOB_NAME_LABEL]: name,
    [CONTROLLER_UID_LABEL]: uid,
    [JOB_NAME_LABEL]: name,
  };
  for (const [key, value] of Object.entries(expected)) errs.push(...hasLabel(labels, key, value, tmplPath));
  if (selector && !selector.matches(expected)) errs.push(invalid(spec.child('selector'), s.selector, '`selector` not auto-generated'));
  return errs;
}

/**
 * Job validation on create and update (beyond ObjectMeta and the schema). The selector must
 * have been generated (job-selector.ts) unless `manualSelector` is true; the prefixed labels are
 * always required (upstream relaxes that only for Jobs stored before they existed).
 */
export function validateJob(job: Obj): FieldError[] {
  const s = obj(job.spec) ?? {};
  const sel = obj(s.selector);
  const selector = jobSelector(sel);
  const errs = validateGeneratedSelector(job, selector);
  const name = str(obj(job.metadata)?.name);
  const completions = num(s.completions);
  if (s.completionMode === 'Indexed' && completions !== undefined && completions > 0) {
    const hostname = `${name}-${completions - 1}`;
    if (isDNS1123Label(hostname).length > 0)
      errs.push(invalid(FieldPath.of('metadata', 'name'), name, `will not able to create pod with invalid DNS label: ${hostname}`));
  }
  errs.push(...validateJobSpecCommon(s, spec));
  if (!sel) errs.push(required(spec.child('selector')));
  else errs.push(...validateLabelSelectorObject(sel as LabelSelectorObject, spec.child('selector')));
  if (selector) errs.push(...validateSelectorMatchesTemplate(selector, obj(s.template) ?? {}, spec.child('template')));
  return errs;
}

const immutable = (next: unknown, old: unknown, path: FieldPath): FieldError[] => (semanticEqual(next, old) ? [] : [invalid(path, next ?? null, 'field is immutable')]);

/** The template may change only in scheduling directives, and only while suspended and never started. */
function validateTemplateUpdate(next: Obj, old: Obj, mutableScheduling: boolean): FieldError[] {
  const template = obj(next.template) ?? {};
  const oldTemplate = deepCopy(obj(old.template) ?? {});
  if (mutableScheduling) {
    const oldMeta = (oldTemplate.metadata ??= {}) as Obj;
    const meta = obj(template.metadata) ?? {};
    oldMeta.labels = meta.labels;
    oldMeta.annotations = meta.annotations;
    const oldPod = (oldTemplate.spec ??= {}) as Obj;
    const pod = obj(template.spec) ?? {};
    for (const k of ['nodeSelector', 'tolerations', 'schedulingGates']) oldPod[k] = pod[k];
    const affinity = obj(pod.affinity);
    const oldAffinity = obj(oldPod.affinity);
    if (affinity) oldPod.affinity = { ...(oldAffinity ?? {}), nodeAffinity: affinity.nodeAffinity };
    else if (oldAffinity) oldPod.affinity = { ...oldAffinity, nodeAffinity: undefined };
  }
  return immutable(template, oldTemplate, spec.child('template'));
}

/** Update rules of a Job (upstream ValidateJobSpecUpdate with the v1.30 default gates). */
export function validateJobUpdate(job: Obj, old: Obj): FieldError[] {
  const s = obj(job.spec) ?? {};
  const o = obj(old.spec) ?? {};
  const errs: FieldError[] = [];
  if (s.completionMode === 'Indexed' && o.completionMode === 'Indexed') {
    const c = num(s.completions);
    if (!semanticEqual(s.completions, o.completions) && c !== undefined && c !== num(s.parallelism))
      errs.push(invalid(spec.child('completions'), c, 'can only be modified in tandem with spec.parallelism'));
  } else errs.push(...immutable(s.completions, o.completions, spec.child('completions')));
  errs.push(...immutable(s.selector, o.selector, spec.child('selector')));
  const mutableScheduling = o.suspend === true && obj(old.status)?.startTime === undefined;
  errs.push(...validateTemplateUpdate(s, o, mutableScheduling));
  for (const k of ['completionMode', 'podFailurePolicy', 'backoffLimitPerIndex', 'managedBy', 'successPolicy']) errs.push(...immutable(s[k], o[k], spec.child(k)));
  return errs;
}

/** Validates a Job status write: non-negative counts, non-empty unique uncounted pod UIDs. */
export function validateJobStatusUpdate(job: Obj): FieldError[] {
  const st = obj(job.status) ?? {};
  const path = FieldPath.of('status');
  const errs = ['active', 'succeeded', 'failed', 'ready', 'terminating'].flatMap((k) => validateNonnegative(st[k], path.child(k)));
  const uncounted = obj(st.uncountedTerminatedPods);
  if (uncounted) {
    const seen = new Set<string>();
    for (const k of ['succeeded', 'failed'])
      list(uncounted[k]).forEach((uid, i) => {
        const p = path.child('uncountedTerminatedPods', k).index(i);
        if (str(uid) === '') errs.push(invalid(p, '', 'must not be empty'));
        else if (seen.has(str(uid))) errs.push(duplicate(p, uid));
        else seen.add(str(uid));
      });
  }
  return errs;
}
