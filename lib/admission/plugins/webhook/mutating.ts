/**
 * The MutatingAdmissionWebhook plugin (upstream v1.30 mutating dispatcher; spec 001 § Admission
 * control): the matching mutating webhooks are called one after the other, configurations by
 * name and webhooks in order, each seeing the object as the previous ones left it; a JSONPatch
 * answer changes the object. Reinvocation: when a webhook changes the object after a webhook
 * with `reinvocationPolicy: IfNeeded` ran (or other plugins changed it since the webhooks last
 * ran), the chain runs the mutating phase once more and those IfNeeded webhooks — only they,
 * and only if they were called the first time — are called again.
 */
import { deepCopy, deepEqual } from '../../../apimachinery/deep-equal.js';
import { newTimeout } from '../../../apimachinery/errors.js';
import type { KindDefinition, Obj } from '../../../apis/define.js';
import { vendorGroup } from '../../../apis/vendor.js';
import type { RequestContext } from '../../../request/context.js';
import type { AdmissionAttributes, ReinvocationContext } from '../../interface.js';
import type { MatchedResource } from '../../matching/rules.js';
import { callWebhook } from './call.js';
import { CallingWebhookError } from './errors.js';
import type { WebhookRuntime } from './runtime.js';
import { applyWebhookPatch } from './patch.js';
import type { Webhook } from './source.js';

/** The plugin's name (and its key in the reinvocation context). */
export const MUTATING_PLUGIN = 'MutatingAdmissionWebhook';
const MUTATION_PREFIX = `${vendorGroup('mutation.webhook.admission')}/`;
const FAILED_OPEN_PREFIX = `failed-open.${MUTATION_PREFIX}`;

/** Upstream `webhookReinvokeContext`: which IfNeeded webhooks ran, which are to run again, and the object they last left. */
class ReinvokeState {
  lastOutput: Obj | null = null;
  private previouslyInvoked = new Set<string>();
  private readonly reinvoke = new Set<string>();

  shouldReinvoke(uid: string): boolean {
    return this.reinvoke.has(uid);
  }

  addPreviouslyInvoked(uid: string): void {
    this.previouslyInvoked.add(uid);
  }

  requireReinvokingPreviouslyInvoked(): void {
    for (const uid of this.previouslyInvoked) this.reinvoke.add(uid);
    this.previouslyInvoked = new Set();
  }
}

function stateOf(r: ReinvocationContext): ReinvokeState {
  let s = r.values.get(MUTATING_PLUGIN) as ReinvokeState | undefined;
  if (!s) r.values.set(MUTATING_PLUGIN, (s = new ReinvokeState()));
  return s;
}

/** Calls one webhook and applies its patch; returns whether the object changed. */
async function invoke(ctx: RequestContext, rt: WebhookRuntime, hook: Webhook, attrs: AdmissionAttributes, matched: MatchedResource, kind: KindDefinition | undefined): Promise<boolean> {
  const response = await callWebhook(ctx, hook, attrs, matched, rt.clients, true, rt.metrics);
  if (!response.patch || response.patch.length === 0) return false;
  const outcome = applyWebhookPatch(hook.name, attrs, matched, response.patch, response.patchType ?? '', kind);
  if (!outcome) return false;
  // In place: the handler keeps its reference to the object it admits.
  const target = attrs.object!;
  for (const key of Object.keys(target)) delete target[key];
  Object.assign(target, outcome.object);
  return outcome.changed;
}

/**
 * The mutating phase of the webhooks for one request (the plugin's `admit`).
 * @throws StatusError: a webhook's denial, a fail-closed call failure (500), a dry-run refusal
 *   (400), a match error, or 504 when the request's deadline passed while a failing webhook was
 *   ignored.
 */
export async function admitWithWebhooks(ctx: RequestContext, rt: WebhookRuntime, attrs: AdmissionAttributes): Promise<void> {
  const hooks = rt.source.webhooks();
  // No webhooks: nothing to call, nothing to reinvoke (and no copy of the object to keep).
  if (hooks.length === 0) return;
  const r = attrs.reinvocation;
  const state = stateOf(r);
  if (r.isReinvoke && !deepEqual(state.lastOutput, attrs.object)) state.requireReinvokingPreviouslyInvoked();
  const round = r.isReinvoke ? 1 : 0;
  const kind = rt.storageKind(attrs);
  try {
    for (let i = 0; i < hooks.length; i++) {
      const hook = hooks[i]!;
      const matched = await rt.match(ctx, hook, attrs);
      if (!matched) continue;
      if (r.isReinvoke && !state.shouldReinvoke(hook.uid)) continue;
      let changed = false;
      let failure: unknown;
      try {
        changed = await invoke(ctx, rt, hook, attrs, matched, kind);
      } catch (err) {
        failure = err;
      }
      ctx.auditAnnotations[`${MUTATION_PREFIX}round_${round}_index_${i}`] = JSON.stringify({ configuration: hook.configurationName, webhook: hook.name, mutated: changed });
      if (changed) {
        state.requireReinvokingPreviouslyInvoked();
        r.shouldReinvoke = true;
      }
      if (hook.reinvocationPolicy === 'IfNeeded') state.addPreviouslyInvoked(hook.uid);
      if (failure === undefined) continue;
      if (failure instanceof CallingWebhookError) {
        if (hook.failurePolicy === 'Ignore') {
          rt.log.warn({ webhook: hook.name, err: failure.message }, 'failed calling webhook, failing open');
          if (ctx.signal.aborted) throw newTimeout('request did not complete within requested timeout', 0);
          ctx.auditAnnotations[`${FAILED_OPEN_PREFIX}round_${round}_index_${i}`] = hook.name;
          continue;
        }
        throw failure.toStatusError();
      }
      throw failure;
    }
  } finally {
    state.lastOutput = attrs.object === null ? null : deepCopy(attrs.object);
  }
}
