/**
 * The ValidatingAdmissionWebhook plugin's dispatch (upstream v1.30 validating dispatcher; spec
 * 001 § Admission control): every matching validating webhook is called at once; the request is
 * admitted when all allow it or fail open (failurePolicy Ignore). Otherwise the first failure to
 * arrive rejects it: a denial with the webhook's Status, a fail-closed call failure with 500.
 */
import { newTimeout, type StatusError } from '../../../apimachinery/errors.js';
import { vendorGroup } from '../../../apis/vendor.js';
import type { RequestContext } from '../../../request/context.js';
import type { AdmissionAttributes } from '../../interface.js';
import type { MatchedResource } from '../../matching/rules.js';
import { callWebhook } from './call.js';
import { CallingWebhookError } from './errors.js';
import type { WebhookRuntime } from './runtime.js';
import type { Webhook } from './source.js';

/** The plugin's name. */
export const VALIDATING_PLUGIN = 'ValidatingAdmissionWebhook';
const FAILED_OPEN_PREFIX = `failed-open.${vendorGroup('validating.webhook.admission')}/`;

/**
 * The validating phase of the webhooks for one request (the plugin's `validate`).
 * @throws StatusError: the first denial or fail-closed failure to arrive, a match error, a
 *   dry-run refusal (400), or 504 when the request's deadline passed before the calls.
 */
export async function validateWithWebhooks(ctx: RequestContext, rt: WebhookRuntime, attrs: AdmissionAttributes): Promise<void> {
  const relevant: Array<{ hook: Webhook; matched: MatchedResource; index: number }> = [];
  const hooks = rt.source.webhooks();
  for (let i = 0; i < hooks.length; i++) {
    const matched = await rt.match(ctx, hooks[i]!, attrs);
    if (matched) relevant.push({ hook: hooks[i]!, matched, index: i });
  }
  if (relevant.length === 0) return;
  if (ctx.signal.aborted) throw newTimeout('request did not complete within requested timeout', 0);
  const failures: StatusError[] = [];
  await Promise.all(
    relevant.map(async ({ hook, matched, index }) => {
      try {
        await callWebhook(ctx, hook, attrs, matched, rt.clients, false, rt.metrics);
      } catch (err) {
        if (!(err instanceof CallingWebhookError)) {
          failures.push(err as StatusError);
          return;
        }
        if (hook.failurePolicy === 'Ignore') {
          rt.log.warn({ webhook: hook.name, err: err.message }, 'failed calling webhook, failing open');
          ctx.auditAnnotations[`${FAILED_OPEN_PREFIX}round_0_index_${index}`] = hook.name;
          return;
        }
        failures.push(err.toStatusError());
      }
    }),
  );
  if (failures.length > 0) throw failures[0];
}
