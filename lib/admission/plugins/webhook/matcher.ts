/**
 * Whether a webhook is called for a request, and as which resource version (upstream v1.30
 * `ShouldCallHook`; spec 001 § Admission control): its namespaceSelector and objectSelector,
 * then its rules (with matchPolicy Equivalent, another served version of the same objects may
 * match; the webhook is then sent the objects converted to it), then its matchConditions.
 * Writes of the admission configuration kinds themselves are never sent to webhooks.
 */
import { StatusError, newForbidden, newInternalError } from '../../../apimachinery/errors.js';
import type { AuthorizerValue } from '../../../cel/library/authorizer.js';
import { vendorGroup } from '../../../apis/vendor.js';
import { admissionActivation, admissionRequestValue } from '../../cel/activation.js';
import type { AdmissionAttributes } from '../../interface.js';
import { type EquivalentResources, type MatchedResource, matchRules } from '../../matching/rules.js';
import { namespaceSelectorMatches, objectSelectorMatches } from '../../matching/selectors.js';
import type { ResourceAccess } from '../../plugin-deps.js';
import type { Webhook } from './source.js';

const ADMISSIONREGISTRATION = vendorGroup('admissionregistration');
const EXEMPT_KINDS = new Set([
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionPolicyBinding',
]);

/** Whether `attrs` is a write of a webhook configuration or an admission policy (never sent to webhooks, as upstream). */
export function isExemptConfigurationResource(attrs: AdmissionAttributes): boolean {
  return attrs.group === ADMISSIONREGISTRATION && EXEMPT_KINDS.has(attrs.kind);
}

/** What matching needs besides the webhook and the request. */
export interface MatchContext {
  namespaces: ResourceAccess;
  equivalents: EquivalentResources;
  /** The `authorizer` of match conditions for the request's user (lib/cel AuthorizerValue of a binding). */
  authorizer: () => AuthorizerValue;
}

/**
 * The resource `hook` is called as for `attrs`, or null when it is not called.
 * @throws StatusError the namespace's 404 when its namespaceSelector needs a namespace that does
 *   not exist, 500 for a selector that does not compile, 403 `<resource> "<name>" is forbidden:
 *   <error>` when a match condition fails with failurePolicy Fail.
 */
export async function matchWebhook(hook: Webhook, attrs: AdmissionAttributes, m: MatchContext): Promise<MatchedResource | null> {
  let namespaceError: StatusError | undefined;
  if (typeof hook.namespaceSelector === 'string') {
    namespaceError = newInternalError(hook.namespaceSelector);
  } else {
    try {
      if (!(await namespaceSelectorMatches(hook.namespaceSelector, attrs, m.namespaces))) return null;
    } catch (err) {
      namespaceError = err instanceof StatusError ? err : newInternalError((err as Error).message);
    }
  }
  let objectError: StatusError | undefined;
  if (typeof hook.objectSelector === 'string') objectError = newInternalError(hook.objectSelector);
  else if (!objectSelectorMatches(hook.objectSelector, attrs)) return null;
  const matched = matchRules(hook.rules, attrs, hook.matchPolicy, m.equivalents);
  if (!matched) return null;
  if (namespaceError) throw namespaceError;
  if (objectError) throw objectError;
  if (hook.matchConditions.size === 0) return matched;
  const activation = admissionActivation({
    attrs,
    matched,
    request: admissionRequestValue(attrs, matched, ''),
    namespaceObject: null,
    authorizer: m.authorizer(),
  });
  const result = await hook.matchConditions.evaluateAsync(activation);
  if ('error' in result) {
    if (hook.failurePolicy === 'Ignore') return null;
    throw newForbidden({ group: attrs.requestGroup, resource: attrs.resource }, attrs.name, result.error);
  }
  return result.matched ? matched : null;
}
