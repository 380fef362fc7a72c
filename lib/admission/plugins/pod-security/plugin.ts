/**
 * PodSecurity (spec 001 § Admission control, default-enabled; upstream v1.30 plugin of the same
 * name): the Pod Security Standards privileged / baseline / restricted, selected per namespace by
 * the labels `pod-security.<vendor>/{enforce,audit,warn}[-version]` over the configured defaults.
 *  - Pod create, and updates that change what is evaluated: the enforce level rejects with 403
 *    `pods "x" is forbidden: violates PodSecurity "<level>:<version>": <violations>`; the warn level
 *    adds a `would violate PodSecurity …` warning; the audit level an audit annotation.
 *  - Workloads with a pod template: warn and audit only, never enforce.
 *  - Namespace create and update: label validation and the existing-pods warnings (namespace-check.ts).
 *  - Exempt usernames, runtime classes and namespaces pass with an `exempt` audit annotation.
 * Audit annotations are `pod-security.<vendor>/enforce-policy`, `…/audit-violations`, `…/exempt`,
 * `…/error`. A validating plugin; a namespace without labels under the default (privileged)
 * configuration costs one cache lookup and runs no check.
 */
import { StatusError, aggregateMessage, newBadRequest, newForbidden, newInternalError } from '../../../apimachinery/errors.js';
import { fieldErrorString } from '../../../apimachinery/field-errors.js';
import type { Obj } from '../../../apis/core/v1/obj-access.js';
import { obj, str, strMap } from '../../../apis/core/v1/obj-access.js';
import { POD_SECURITY_PREFIX } from '../../../apis/vendor.js';
import { type RequestContext, addWarning } from '../../../request/context.js';
import type { AdmissionAttributes, AdmissionOperation, ValidatingAdmissionPlugin } from '../../interface.js';
import type { AdmissionPluginFactory } from '../../plugin-deps.js';
import { type LevelVersion, type Policy, fullyPrivileged, levelVersionString, policyToEvaluate, sameLevelVersion } from './api.js';
import { type PodSecurityConfig, loadPodSecurityConfig } from './config.js';
import { type AggregateResult, DEFAULT_CHECKS, Evaluator, forbiddenDetail } from './evaluator.js';
import { DEFAULT_POD_CHECK_LIMITS, type NamespacePodCheckLimits, checkNamespace } from './namespace-check.js';
import { isPodController, isSignificantPodUpdate, podTemplateOf } from './pod-spec.js';

/** Reads the plugin needs: a namespace (cache first, then storage; null when absent) and a namespace's pods. */
export interface PodSecurityReads {
  namespace(name: string): Promise<Obj | null>;
  listPods(namespace: string): Obj[];
}

/** Pod subresources that never change what the policy evaluates (upstream `ignoredPodSubresources`). */
const IGNORED_POD_SUBRESOURCES: ReadonlySet<string> = new Set(['exec', 'attach', 'binding', 'eviction', 'log', 'portforward', 'proxy', 'status']);

const ENFORCE_POLICY = 'enforce-policy';
const AUDIT_VIOLATIONS = 'audit-violations';
const EXEMPT = 'exempt';
const ERROR = 'error';

/** The PodSecurity validating plugin. */
export class PodSecurity implements ValidatingAdmissionPlugin {
  readonly name = 'PodSecurity';

  constructor(
    private readonly config: PodSecurityConfig,
    private readonly evaluator: Evaluator,
    private readonly reads: PodSecurityReads,
    private readonly limits: NamespacePodCheckLimits = DEFAULT_POD_CHECK_LIMITS,
  ) {}

  handles(op: AdmissionOperation): boolean {
    return op === 'CREATE' || op === 'UPDATE';
  }

  async validate(ctx: RequestContext, a: AdmissionAttributes): Promise<void> {
    if (a.group === '' && a.resource === 'namespaces') return this.validateNamespace(ctx, a);
    if (a.group === '' && a.resource === 'pods') return this.validatePod(ctx, a);
    if (isPodController(a.group, a.resource)) return this.validatePodController(ctx, a);
  }

  private validateNamespace(ctx: RequestContext, a: AdmissionAttributes): void {
    if (a.subresource !== '') return;
    if (!a.object) throw newBadRequest('failed to decode namespace');
    const name = a.name || str(obj(a.object.metadata)?.name);
    const env = { config: this.config, evaluator: this.evaluator, listPods: (ns: string) => this.reads.listPods(ns), limits: this.limits };
    const verdict = checkNamespace(env, name, a.object, a.operation === 'UPDATE' ? a.oldObject : null);
    for (const w of verdict.warnings) addWarning(ctx, w);
    if (verdict.error) throw verdict.error;
  }

  private async validatePod(ctx: RequestContext, a: AdmissionAttributes): Promise<void> {
    if (IGNORED_POD_SUBRESOURCES.has(a.subresource)) return;
    if (this.exempted(ctx, a)) return;
    const policy = await this.namespacePolicy(ctx, a, true);
    if (!policy) return;
    if (policy.errors.length === 0 && fullyPrivileged(policy.policy)) {
      annotate(ctx, ENFORCE_POLICY, levelVersionString({ level: 'privileged', version: 'latest' }));
      return;
    }
    if (!a.object) throw newBadRequest('failed to decode pod');
    if (a.operation === 'UPDATE' && a.oldObject && !isSignificantPodUpdate(a.object, a.oldObject)) return;
    this.evaluatePod(ctx, a, policy, obj(a.object.metadata) ?? {}, obj(a.object.spec) ?? {}, true);
  }

  private async validatePodController(ctx: RequestContext, a: AdmissionAttributes): Promise<void> {
    if (a.subresource !== '') return;
    if (this.exempted(ctx, a)) return;
    const policy = await this.namespacePolicy(ctx, a, false);
    if (!policy) return;
    if (policy.errors.length === 0 && policy.policy.warn.level === 'privileged' && policy.policy.audit.level === 'privileged') return;
    const template = a.object ? podTemplateOf(a.group, a.resource, a.object) : null;
    if (!template) return;
    this.evaluatePod(ctx, a, policy, template.meta, template.spec, false);
  }

  /** Exempt namespace or user: annotates `exempt` and returns true. */
  private exempted(ctx: RequestContext, a: AdmissionAttributes): boolean {
    const { namespaces, usernames } = this.config.exemptions;
    const reason = a.namespace !== '' && namespaces.has(a.namespace) ? 'namespace' : a.user.name !== '' && usernames.has(a.user.name) ? 'user' : '';
    if (reason) annotate(ctx, EXEMPT, reason);
    return reason !== '';
  }

  /**
   * The policy of the request's namespace. When the namespace cannot be read, a pod is rejected
   * (500, upstream's `failed to lookup namespace "x"`) and a workload passes with an `error`
   * annotation (returns undefined).
   */
  private async namespacePolicy(ctx: RequestContext, a: AdmissionAttributes, pod: boolean): Promise<ReturnType<typeof policyToEvaluate> | undefined> {
    let ns: Obj | null;
    let failure: string;
    try {
      ns = await this.reads.namespace(a.namespace);
      failure = `namespaces "${a.namespace}" not found`;
    } catch (err) {
      ns = null;
      failure = err instanceof Error ? err.message : String(err);
    }
    if (ns) return policyToEvaluate(strMap(obj(ns.metadata)?.labels), this.config.defaults);
    if (pod) {
      const err = newInternalError(`failed to lookup namespace "${a.namespace}"`);
      annotate(ctx, ERROR, `${err.status.message}: ${failure}`);
      throw err;
    }
    annotate(ctx, ERROR, `failed to lookup namespace "${a.namespace}": ${failure}`);
    return undefined;
  }

  /** Upstream `EvaluatePod`: enforce (pods only), then audit, then warn, each level/version evaluated once. */
  private evaluatePod(ctx: RequestContext, a: AdmissionAttributes, p: ReturnType<typeof policyToEvaluate>, meta: Obj, spec: Obj, enforce: boolean): void {
    const rc = str(spec.runtimeClassName);
    if (rc !== '' && this.config.exemptions.runtimeClasses.has(rc)) {
      annotate(ctx, EXEMPT, 'runtimeClass');
      return;
    }
    const policy: Policy = p.policy;
    if (p.errors.length > 0) annotate(ctx, ERROR, `Failed to parse policy: ${aggregateMessage(p.errors.map(fieldErrorString))}`);
    const cache: { lv: LevelVersion; result: AggregateResult }[] = [];
    const evaluate = (lv: LevelVersion) => {
      const hit = cache.find((c) => sameLevelVersion(c.lv, lv));
      if (hit) return hit.result;
      const result = this.evaluator.evaluate(lv, meta, spec);
      cache.push({ lv, result });
      return result;
    };
    let rejection: StatusError | undefined;
    if (enforce) {
      annotate(ctx, ENFORCE_POLICY, levelVersionString(policy.enforce));
      const r = evaluate(policy.enforce);
      if (!r.allowed) rejection = newForbidden({ group: a.group, resource: a.resource }, a.name, `violates PodSecurity "${levelVersionString(policy.enforce)}": ${forbiddenDetail(r)}`);
    }
    const audit = evaluate(policy.audit);
    if (!audit.allowed) annotate(ctx, AUDIT_VIOLATIONS, `would violate PodSecurity "${levelVersionString(policy.audit)}": ${forbiddenDetail(audit)}`);
    if (rejection) throw rejection;
    const warn = evaluate(policy.warn);
    if (!warn.allowed) addWarning(ctx, `would violate PodSecurity "${levelVersionString(policy.warn)}": ${forbiddenDetail(warn)}`);
  }
}

/** Sets the audit annotation `pod-security.<vendor>/<key>`. */
function annotate(ctx: RequestContext, key: string, value: string): void {
  ctx.auditAnnotations[`${POD_SECURITY_PREFIX}${key}`] = value;
}

/**
 * The PodSecurity factory: reads `deps.config('PodSecurity')` (throws an Error on a bad
 * configuration, failing start-up) and the namespaces and pods informers.
 */
export const podSecurityPlugin: AdmissionPluginFactory = {
  name: 'PodSecurity',
  create(deps) {
    const config = loadPodSecurityConfig(deps.config('PodSecurity'));
    const namespaces = deps.resource('', 'namespaces');
    const pods = deps.resource('', 'pods');
    return new PodSecurity(config, new Evaluator(DEFAULT_CHECKS), {
      namespace: async (name) => namespaces.lister.get('', name) ?? (await namespaces.get('', name)),
      listPods: (ns) => pods.lister.list(ns),
    });
  },
};
