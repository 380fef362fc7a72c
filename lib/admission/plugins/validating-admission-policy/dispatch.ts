/**
 * Deciding a request by the policies in force (upstream v1.30 validating `dispatcher.Dispatch`;
 * spec 001 § Admission control). For each policy whose match constraints select the request,
 * each of its bindings whose match resources select it, and each parameter of the binding, the
 * policy is evaluated; a failed validation (or an error under failurePolicy Fail) is acted on
 * per the binding's `validationActions`: Deny rejects the request, Warn adds a `Warning` header
 * `Validation failed for ValidatingAdmissionPolicy '<p>' with binding '<b>': <message>`, Audit
 * adds the audit annotation `validation.policy.admission.<vendor>/validation_failure`. A policy's
 * audit annotations are published as `<policy>/<key>`. Configuration errors (paramKind not
 * served, parameters missing with `Deny`, a namespace that cannot be read) are decisions of the
 * policy's failure policy. The first denial, after every policy ran, is the rejection:
 * `<resource> "<name>" is forbidden: ValidatingAdmissionPolicy '<p>' with binding '<b>' denied
 * request: <message>` with the status reason of the failed validation (default Invalid, 422).
 */
import { newNotFound, StatusError, type StatusReason } from '../../../apimachinery/errors.js';
import { vendorGroup } from '../../../apis/vendor.js';
import type { Obj } from '../../../apis/core/v1/obj-access.js';
import type { AuthorizerBinding, CelAuthorizer } from '../../../cel/index.js';
import type { AuthorizerValue } from '../../../cel/library/authorizer.js';
import { addWarning, type RequestContext } from '../../../request/context.js';
import { dynamicToCel } from '../../../cel/values.js';
import { admissionRequestValue, namespaceObjectValue, objectInMatchedVersion } from '../../cel/activation.js';
import { admissionForbidden } from '../../forbidden.js';
import type { AdmissionAttributes } from '../../interface.js';
import type { EquivalentResources, MatchedResource } from '../../matching/rules.js';
import { cachedOrLive, type ResourceAccess } from '../../plugin-deps.js';
import { admissionAuthorizerValue, requestAuthorizer } from './authorizer.js';
import type { CompiledPolicy } from './compile.js';
import { type Decision, validatePolicy } from './evaluate.js';
import { isMatchError, matchResources } from './matching.js';
import { collectParams } from './params.js';
import type { CompiledBinding, PolicyHook } from './source.js';

/** The audit annotation of a failed validation under an Audit binding. */
export const VALIDATION_FAILURE_ANNOTATION = `${vendorGroup('validation.policy.admission')}/validation_failure`;

/** Longest audit annotation value published (longer ones are cut). */
const MAX_AUDIT_ANNOTATION_VALUE_LENGTH = 10 * 1024;

/** What dispatching needs besides the request. */
export interface DispatchEnv {
  readonly equivalents: EquivalentResources;
  readonly namespaces: ResourceAccess;
  readonly authorizer: CelAuthorizer;
}

interface Denial {
  readonly policy: string;
  readonly binding?: string;
  readonly message: string;
  readonly reason?: string;
}

/** Go's json.Marshal escaping of HTML-significant characters and line separators. */
function goJSON(v: unknown): string {
  return JSON.stringify(v).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function reasonToCode(reason: string): number {
  if (reason === 'Forbidden') return 403;
  if (reason === 'RequestEntityTooLarge') return 413;
  return 422;
}

/** The rejection for `d` (upstream: admission.NewForbidden with the reason and code replaced). */
function rejection(attrs: AdmissionAttributes, d: Denial): StatusError {
  const message = d.binding !== undefined
    ? `ValidatingAdmissionPolicy '${d.policy}' with binding '${d.binding}' denied request: ${d.message}`
    : `ValidatingAdmissionPolicy '${d.policy}' denied request: ${d.message}`;
  const base = admissionForbidden(attrs, message).status;
  const reason = d.reason || 'Invalid';
  return new StatusError({ ...base, reason: reason as StatusReason, code: reasonToCode(reason), details: { ...base.details, causes: [...(base.details?.causes ?? []), { message }] } });
}

/** Parameters as expressions see them, converted once per stored version (informer objects are shared and never change). */
const convertedParams = new WeakMap<Obj, unknown>();

function paramValue(p: Obj | null): unknown {
  if (!p) return null;
  let v = convertedParams.get(p);
  if (v === undefined) convertedParams.set(p, (v = dynamicToCel(p)));
  return v;
}

/** The request's objects and AdmissionRequest in one matched version, converted for expressions once per request. */
interface MatchedView {
  object?: unknown;
  oldObject?: unknown;
  request?: unknown;
}

/**
 * Per-request state shared by the policies: the namespace and the authorizer, fetched at most
 * once, and the activation values, converted once per matched version whatever the number of
 * policies, bindings and parameters evaluated (the environments take converted values as they are).
 */
class RequestState {
  private namespace?: Promise<unknown>;
  private authz?: AuthorizerBinding;
  private authzValue?: AuthorizerValue;
  private readonly views = new Map<string, MatchedView>();
  readonly denials: Denial[] = [];

  constructor(
    readonly ctx: RequestContext,
    readonly attrs: AdmissionAttributes,
    readonly env: DispatchEnv,
  ) {}

  /** The request's namespace as expressions see it (null: cluster-scoped or a Namespace itself). @throws StatusError 404 when it does not exist. */
  namespaceObject(): Promise<unknown> {
    const a = this.attrs;
    if (a.namespace === '' || (a.group === '' && a.resource === 'namespaces')) return Promise.resolve(null);
    this.namespace ??= cachedOrLive(this.env.namespaces, '', a.namespace).then((ns) => {
      if (!ns) throw newNotFound({ group: '', resource: 'namespaces' }, a.namespace);
      return dynamicToCel(namespaceObjectValue(ns));
    });
    return this.namespace;
  }

  /** The activation of `policy` for `param`: only the variables its expressions mention, converted. */
  async activation(policy: CompiledPolicy, matched: MatchedResource, param: Obj | null, authz: AuthorizerBinding | undefined): Promise<Record<string, unknown>> {
    const key = `${matched.group}/${matched.version}/${matched.resource}/${matched.subresource}/${matched.kind}`;
    let view = this.views.get(key);
    if (!view) this.views.set(key, (view = {}));
    const uses = policy.uses;
    const a = this.attrs;
    const activation: Record<string, unknown> = {};
    if (uses.has('object')) activation.object = view.object ??= dynamicToCel(objectInMatchedVersion(a.object, matched));
    if (uses.has('oldObject')) activation.oldObject = view.oldObject ??= dynamicToCel(objectInMatchedVersion(a.oldObject, matched));
    if (uses.has('request')) activation.request = view.request ??= dynamicToCel(admissionRequestValue(a, matched, ''));
    if (uses.has('namespaceObject')) activation.namespaceObject = await this.namespaceObject();
    if (uses.has('params')) activation.params = paramValue(param);
    if (authz) activation.authorizer = this.authzValue ??= admissionAuthorizerValue(authz, a);
    return activation;
  }

  authorizer(): AuthorizerBinding {
    this.authz ??= requestAuthorizer(this.env.authorizer, this.attrs.user);
    return this.authz;
  }

  /** Records a configuration error under the policy's failure policy. */
  configError(policy: CompiledPolicy, binding: CompiledBinding | undefined, err: string): void {
    if (policy.failurePolicy === 'Ignore') return;
    const message = binding ? `failed to configure binding: ${err}` : `failed to configure policy: ${err}`;
    this.denials.push({ policy: policy.name, binding: binding?.name, message });
  }
}

/** Acts on one decision of `binding` per its validation actions. */
function act(s: RequestState, policy: CompiledPolicy, binding: CompiledBinding, index: number, d: Decision): void {
  for (const action of binding.validationActions) {
    if (action === 'Deny') s.denials.push({ policy: policy.name, binding: binding.name, message: d.message, reason: d.reason });
    else if (action === 'Warn') addWarning(s.ctx, `Validation failed for ValidatingAdmissionPolicy '${policy.name}' with binding '${binding.name}': ${d.message}`);
    else if (action === 'Audit' && s.ctx.auditAnnotations[VALIDATION_FAILURE_ANNOTATION] === undefined) {
      s.ctx.auditAnnotations[VALIDATION_FAILURE_ANNOTATION] = goJSON([
        { message: d.message, policy: binding.policyName, binding: binding.name, expressionIndex: index, validationActions: binding.validationActions },
      ]);
    }
  }
}

async function runBinding(s: RequestState, policy: CompiledPolicy, binding: CompiledBinding, matched: MatchedResource, annotations: Map<string, string[]>): Promise<void> {
  if (binding.matchResources) {
    const m = await matchResources(binding.matchResources, s.attrs, s.env.equivalents, s.env.namespaces);
    if (m === null) return;
    if (isMatchError(m)) return s.configError(policy, binding, m.error);
  }
  const collected = await collectParams(policy, binding.paramRef, s.attrs.namespace);
  if ('error' in collected) return s.configError(policy, binding, collected.error);
  if (collected.params.length === 0) return;
  const authz = policy.usesAuthorizer ? s.authorizer() : undefined;
  for (const param of collected.params) {
    const activation = await s.activation(policy, matched, param, authz);
    const result = await validatePolicy(policy, { activation, pending: () => authz?.hasPending() ?? false });
    result.decisions.forEach((d, i) => {
      if (d.action === 'deny') act(s, policy, binding, i, d);
    });
    for (const a of result.annotations) {
      if ('error' in a) {
        s.denials.push({ policy: policy.name, binding: binding.name, message: a.error });
        continue;
      }
      const value = a.value.length > MAX_AUDIT_ANNOTATION_VALUE_LENGTH ? a.value.slice(0, MAX_AUDIT_ANNOTATION_VALUE_LENGTH) : a.value;
      let values = annotations.get(a.key);
      if (!values) annotations.set(a.key, (values = []));
      if (!values.includes(value)) values.push(value);
    }
  }
}

async function runPolicy(s: RequestState, hook: PolicyHook): Promise<void> {
  const { policy } = hook;
  const m = await matchResources(policy.matchConstraints, s.attrs, s.env.equivalents, s.env.namespaces);
  if (m === null) return;
  if (isMatchError(m)) return s.configError(policy, undefined, m.error);
  if (policy.configurationError) return s.configError(policy, undefined, policy.configurationError);
  const annotations = new Map<string, string[]>();
  for (const binding of hook.bindings) await runBinding(s, policy, binding, m, annotations);
  for (const [key, values] of annotations) {
    const full = `${policy.name}/${key}`;
    if (s.ctx.auditAnnotations[full] === undefined) s.ctx.auditAnnotations[full] = values.join(', ');
  }
}

/**
 * Runs every hook against the request; throws the first denial.
 * @throws StatusError the rejection (status of the failed validation's reason; 422 Invalid by
 *   default), or 404 NotFound when the request's namespace does not exist.
 */
export async function dispatch(ctx: RequestContext, attrs: AdmissionAttributes, hooks: readonly PolicyHook[], env: DispatchEnv): Promise<void> {
  const s = new RequestState(ctx, attrs, env);
  for (const hook of hooks) await runPolicy(s, hook);
  if (s.denials.length > 0) throw rejection(attrs, s.denials[0]!);
}
