/**
 * The SelfSubjectRulesReview Creater (`authorization.<vendor>/v1` selfsubjectrulesreviews; spec
 * 001 § Access-review resources): the rules the requesting user holds in `spec.namespace`, from
 * the modes that can list them — what `kubectl auth can-i --list` shows. Nothing is stored.
 */
import { newBadRequest } from '../../../apimachinery/errors.js';
import { selfSubjectRulesReview } from '../../../apis/authorization/v1/index.js';
import type { Obj } from '../../../apis/define.js';
import type { RequestContext } from '../../../request/context.js';
import type { CreateTarget, Creater } from '../../rest/creater.js';
import type { RuleResolver } from '../../../request/authorization.js';

/** A rule list element without its empty lists (Go's omitempty), `verbs` always written. */
function ruleWire(rule: Record<string, string[]>, always: string): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(rule)) if (k === always || v.length > 0) out[k] = [...v];
  return out;
}

/**
 * The SelfSubjectRulesReview Creater over `resolver`: as upstream, a new review (its spec and
 * metadata empty) whose status holds the resource rules, the non-resource rules, `incomplete`
 * and, when listing met errors, `evaluationError`.
 * @throws StatusError 400 `no user present on request`; 400 `no namespace on request` for an
 *   empty `spec.namespace`; whatever validating admission throws.
 */
export function newSelfSubjectRulesReviewCreater(resolver: RuleResolver): Creater {
  return {
    kind: selfSubjectRulesReview,
    async create(ctx: RequestContext, _target: CreateTarget, obj: Obj, opts): Promise<Obj> {
      const user = ctx.user;
      if (!user) throw newBadRequest('no user present on request');
      const spec = (obj.spec ?? {}) as Obj;
      const namespace = typeof spec.namespace === 'string' ? spec.namespace : '';
      if (!namespace) throw newBadRequest('no namespace on request');
      await opts.validate(obj);
      const rules = await resolver.rulesFor(user, namespace);
      const status: Obj = {
        resourceRules: rules.resourceRules.map((r) => ruleWire({ verbs: r.verbs, apiGroups: r.apiGroups, resources: r.resources, resourceNames: r.resourceNames }, 'verbs')),
        nonResourceRules: rules.nonResourceRules.map((r) => ruleWire({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs }, 'verbs')),
        incomplete: rules.incomplete,
      };
      if (rules.evaluationError) status.evaluationError = rules.evaluationError;
      return { apiVersion: selfSubjectRulesReview.apiVersion, kind: selfSubjectRulesReview.kind, metadata: {}, spec: {}, status };
    },
  };
}
