/**
 * ValidatingWebhookConfiguration and MutatingWebhookConfiguration validation with upstream
 * v1.30's paths and messages (`ValidateValidatingWebhookConfiguration`,
 * `ValidateMutatingWebhookConfiguration` and their updates): per webhook, a fully qualified
 * name, rules, failure and match policies, side effects (None or NoneOnDryRun), a timeout of
 * 1-30 s, selectors, the reinvocation policy (mutating), exactly one of url and service, match
 * conditions; then its admission review versions (one of v1, v1beta1) and a unique name.
 *
 * Updates ratchet as upstream: a rule the stored object already broke (side effects other than
 * None/NoneOnDryRun, no recognized review version, duplicate names, invalid selector values) is
 * not enforced, match conditions are not re-checked while unchanged, and stored expressions
 * compile in the environment of stored expressions. ObjectMeta is checked by the caller.
 */
import { type FieldError, FieldPath, duplicate, goStringSlice, invalid, notSupported, required } from '../../../apimachinery/field-errors.js';
import { deepEqual } from '../../../apimachinery/deep-equal.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../../../apimachinery/validation/names.js';
import { num, obj, objs, str, type Obj } from '../../core/v1/obj-access.js';
import type { AdmissionExpressionCompiler } from './expressions.js';
import { sortedValues, strings, validateMatchConditions, validateRuleWithOperations, validateSelector } from './rule-validation.js';
import { FAILURE_POLICIES, MATCH_POLICIES, REINVOCATION_POLICIES, SIDE_EFFECT_CLASSES } from './types.js';
import { validateWebhookService, validateWebhookURL } from './webhook-url.js';

/** AdmissionReview versions this server understands (upstream `AcceptedAdmissionReviewVersions`). */
export const ACCEPTED_ADMISSION_REVIEW_VERSIONS = ['v1', 'v1beta1'];
const NO_SIDE_EFFECTS = ['None', 'NoneOnDryRun'];

/** What an update relaxes, from the stored object (all strict on create). */
interface WebhookOptions {
  ignoreMatchConditions: boolean;
  requireNoSideEffects: boolean;
  requireRecognizedAdmissionReviewVersion: boolean;
  requireUniqueWebhookNames: boolean;
  allowInvalidLabelValueInSelector: boolean;
  /** Match-condition expressions of the stored object. */
  storedExpressions: ReadonlySet<string>;
}

const STRICT: WebhookOptions = {
  ignoreMatchConditions: false,
  requireNoSideEffects: true,
  requireRecognizedAdmissionReviewVersion: true,
  requireUniqueWebhookNames: true,
  allowInvalidLabelValueInSelector: false,
  storedExpressions: new Set(),
};

/** Upstream `IsFullyQualifiedName`: a DNS subdomain of at least three segments. */
function validateFullyQualifiedName(name: string, path: FieldPath): FieldError[] {
  if (name === '') return [required(path)];
  const errs = isDNS1123Subdomain(name);
  if (errs.length > 0) return [invalid(path, name, errs.join(','))];
  if (name.split('.').length < 3) return [invalid(path, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

function validateClientConfig(cc: Obj, path: FieldPath): FieldError[] {
  const url = cc.url;
  const service = obj(cc.service);
  if ((typeof url === 'string') === (service !== undefined)) return [required(path, 'exactly one of url or service is required')];
  if (typeof url === 'string') return validateWebhookURL(path.child('url'), url);
  return validateWebhookService(path.child('service'), {
    name: str(service!.name),
    namespace: str(service!.namespace),
    path: typeof service!.path === 'string' ? service!.path : undefined,
    port: num(service!.port) ?? 0,
  });
}

function validateWebhook(compiler: AdmissionExpressionCompiler, hook: Obj, mutating: boolean, opts: WebhookOptions, path: FieldPath): FieldError[] {
  const errs = validateFullyQualifiedName(str(hook.name), path.child('name'));
  objs(hook.rules).forEach((r, i) => errs.push(...validateRuleWithOperations(r, path.child('rules').index(i))));
  if (typeof hook.failurePolicy === 'string' && !(FAILURE_POLICIES as readonly string[]).includes(hook.failurePolicy)) {
    errs.push(notSupported(path.child('failurePolicy'), hook.failurePolicy, sortedValues(FAILURE_POLICIES)));
  }
  if (typeof hook.matchPolicy === 'string' && !(MATCH_POLICIES as readonly string[]).includes(hook.matchPolicy)) {
    errs.push(notSupported(path.child('matchPolicy'), hook.matchPolicy, sortedValues(MATCH_POLICIES)));
  }
  const allowedSideEffects = opts.requireNoSideEffects ? NO_SIDE_EFFECTS : sortedValues(SIDE_EFFECT_CLASSES);
  if (typeof hook.sideEffects !== 'string') errs.push(required(path.child('sideEffects'), `must specify one of ${allowedSideEffects.join(', ')}`));
  else if (!allowedSideEffects.includes(hook.sideEffects)) errs.push(notSupported(path.child('sideEffects'), hook.sideEffects, allowedSideEffects));
  const timeout = num(hook.timeoutSeconds);
  if (timeout !== undefined && (timeout > 30 || timeout < 1)) errs.push(invalid(path.child('timeoutSeconds'), timeout, 'the timeout value must be between 1 and 30 seconds'));
  for (const key of ['namespaceSelector', 'objectSelector']) {
    if (obj(hook[key])) errs.push(...validateSelector(hook[key], path.child(key), opts.allowInvalidLabelValueInSelector));
  }
  if (mutating && typeof hook.reinvocationPolicy === 'string' && !(REINVOCATION_POLICIES as readonly string[]).includes(hook.reinvocationPolicy)) {
    errs.push(notSupported(path.child('reinvocationPolicy'), hook.reinvocationPolicy, sortedValues(REINVOCATION_POLICIES)));
  }
  errs.push(...validateClientConfig(obj(hook.clientConfig) ?? {}, path.child('clientConfig')));
  if (!opts.ignoreMatchConditions) {
    errs.push(...validateMatchConditions(compiler, hook.matchConditions, { params: false, authorizer: true }, opts.storedExpressions, path.child('matchConditions')));
  }
  return errs;
}

function validateAdmissionReviewVersions(versions: string[], requireRecognized: boolean, path: FieldPath): FieldError[] {
  if (versions.length === 0) return [required(path, `must specify one of ${ACCEPTED_ADMISSION_REVIEW_VERSIONS.join(', ')}`)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(invalid(path.index(i), v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const m of isDNS1035Label(v)) errs.push(invalid(path.index(i), v, m));
  });
  if (requireRecognized && !versions.some((v) => ACCEPTED_ADMISSION_REVIEW_VERSIONS.includes(v))) {
    errs.push(invalid(path, goStringSlice(versions), `must include at least one of ${ACCEPTED_ADMISSION_REVIEW_VERSIONS.join(', ')}`));
  }
  return errs;
}

function validateConfiguration(compiler: AdmissionExpressionCompiler, config: Obj, mutating: boolean, opts: WebhookOptions): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  objs(config.webhooks).forEach((hook, i) => {
    const path = FieldPath.of('webhooks').index(i);
    errs.push(...validateWebhook(compiler, hook, mutating, opts, path));
    errs.push(...validateAdmissionReviewVersions(strings(hook.admissionReviewVersions), opts.requireRecognizedAdmissionReviewVersion, path.child('admissionReviewVersions')));
    const name = str(hook.name);
    if (opts.requireUniqueWebhookNames && name !== '') {
      if (names.has(name)) errs.push(duplicate(path.child('name'), name));
      else names.add(name);
    }
  });
  return errs;
}

/** The options of an update, from the stored object's webhooks (upstream's `…Update` helpers). */
function updateOptions(config: Obj, old: Obj): WebhookOptions {
  const hooks = objs(config.webhooks);
  const oldHooks = objs(old.webhooks);
  const oldNames = oldHooks.map((h) => str(h.name));
  return {
    ignoreMatchConditions: hooks.length === oldHooks.length && hooks.every((h, i) => deepEqual(h.matchConditions ?? null, oldHooks[i]!.matchConditions ?? null)),
    requireNoSideEffects: oldHooks.every((h) => NO_SIDE_EFFECTS.includes(str(h.sideEffects))),
    requireRecognizedAdmissionReviewVersion: oldHooks.every((h) => {
      const versions = strings(h.admissionReviewVersions);
      return versions.length === 0 || versions.some((v) => ACCEPTED_ADMISSION_REVIEW_VERSIONS.includes(v));
    }),
    requireUniqueWebhookNames: new Set(oldNames).size === oldNames.length,
    allowInvalidLabelValueInSelector: oldHooks.some((h) =>
      ['namespaceSelector', 'objectSelector'].some((k) => obj(h[k]) !== undefined && validateSelector(h[k], FieldPath.of(k)).length > 0),
    ),
    storedExpressions: new Set(oldHooks.flatMap((h) => objs(h.matchConditions).map((c) => str(c.expression)))),
  };
}

/** A new ValidatingWebhookConfiguration. */
export function validateValidatingWebhookConfiguration(config: Obj, compiler: AdmissionExpressionCompiler): FieldError[] {
  return validateConfiguration(compiler, config, false, STRICT);
}

/** An updated ValidatingWebhookConfiguration, relaxed where the stored one already broke a rule. */
export function validateValidatingWebhookConfigurationUpdate(config: Obj, old: Obj, compiler: AdmissionExpressionCompiler): FieldError[] {
  return validateConfiguration(compiler, config, false, updateOptions(config, old));
}

/** A new MutatingWebhookConfiguration. */
export function validateMutatingWebhookConfiguration(config: Obj, compiler: AdmissionExpressionCompiler): FieldError[] {
  return validateConfiguration(compiler, config, true, STRICT);
}

/** An updated MutatingWebhookConfiguration, relaxed where the stored one already broke a rule. */
export function validateMutatingWebhookConfigurationUpdate(config: Obj, old: Obj, compiler: AdmissionExpressionCompiler): FieldError[] {
  return validateConfiguration(compiler, config, true, updateOptions(config, old));
}
