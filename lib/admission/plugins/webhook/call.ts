/**
 * One call of an admission webhook (upstream v1.30 `callHook` / `callAttrMutatingHook` up to the
 * patch; spec 001 § Admission control): the dry-run check against the webhook's sideEffects, the
 * AdmissionReview in the first version the webhook accepts, the POST bounded by timeoutSeconds
 * and by the request's own deadline, the checks of the answer, then the answer's audit
 * annotations (`<webhook name>/<key>`) and warnings, and its verdict.
 */
import { randomUUID } from 'node:crypto';
import { goQuote } from '../../../apimachinery/go-quote.js';
import type { AdmissionMetrics, WebhookOutcome } from '../../../metrics/admission.js';
import { addWarning, type RequestContext } from '../../../request/context.js';
import type { AdmissionAttributes } from '../../interface.js';
import type { MatchedResource } from '../../matching/rules.js';
import { type WebhookClients, WebhookPostError } from './client.js';
import { CallingWebhookError, dryRunUnsupported, webhookRejection } from './errors.js';
import { decodeReviewResponse, encodeReviewRequest, ReviewError, type ReviewResponse, reviewVersion } from './review.js';
import type { Webhook } from './source.js';

/** Side-effect classes a webhook may be called with on a dry-run request. */
const DRY_RUN_SAFE = new Set(['None', 'NoneOnDryRun']);
/** Control characters make a `Warning` header invalid; upstream's recorder drops such warnings. */
const CONTROL = /\p{Cc}/u;

/** An allowed answer of a webhook (its patch still to apply, for mutating webhooks). */
export type AllowedResponse = ReviewResponse & { allowed: true };

/**
 * Calls `hook` for `attrs` matched as `matched`; `metrics`, when given, records the call
 * (`apiserver_admission_webhook_*`: latency, request by HTTP code — 200 for an answer, 0 for
 * none — and rejection by error type).
 * @returns the allowed answer.
 * @throws CallingWebhookError when the call or the answer failed (the failure policy decides);
 *   StatusError when the webhook denied the request (its Status) or the request is a dry run the
 *   webhook cannot take (400).
 */
export async function callWebhook(
  ctx: RequestContext,
  hook: Webhook,
  attrs: AdmissionAttributes,
  matched: MatchedResource,
  clients: WebhookClients,
  mutating: boolean,
  metrics?: AdmissionMetrics,
): Promise<AllowedResponse> {
  const start = process.hrtime.bigint();
  const observe = (httpCode: number, outcome: WebhookOutcome) =>
    metrics?.observeWebhook(ctx, hook.name, mutating ? 'admit' : 'validating', attrs.operation, Number(process.hrtime.bigint() - start) / 1e9, httpCode, outcome);
  let response: ReviewResponse;
  try {
    response = await answerOf(ctx, hook, attrs, matched, clients, mutating);
  } catch (err) {
    observe(0, { rejected: true, errorType: err instanceof CallingWebhookError ? 'calling_webhook_error' : 'apiserver_internal_error' });
    throw err;
  }
  if (!response.allowed) {
    const rejection = webhookRejection(hook.name, response.result);
    observe(200, { rejected: true, errorType: 'no_error', code: rejection.code });
    throw rejection;
  }
  observe(200, { rejected: false });
  return response as AllowedResponse;
}

/** The webhook's answer, its audit annotations and warnings taken; throws as {@link callWebhook} but for a denial. */
async function answerOf(ctx: RequestContext, hook: Webhook, attrs: AdmissionAttributes, matched: MatchedResource, clients: WebhookClients, mutating: boolean): Promise<ReviewResponse> {
  if (attrs.dryRun) {
    if (hook.sideEffects === undefined) throw new CallingWebhookError(hook.name, 'Webhook SideEffects is nil');
    if (!DRY_RUN_SAFE.has(hook.sideEffects)) throw dryRunUnsupported(hook.name);
  }
  const version = reviewVersion(hook.admissionReviewVersions);
  if (!version) throw new CallingWebhookError(hook.name, 'could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)');
  const uid = randomUUID();
  const body = encodeReviewRequest(version, uid, attrs, matched);
  let text: string;
  try {
    text = await clients.post(hook.clientConfig, body, hook.timeoutSeconds, ctx.signal);
  } catch (err) {
    if (!(err instanceof WebhookPostError)) throw err;
    throw new CallingWebhookError(hook.name, `${err.stage === 'client' ? 'could not get REST client' : 'failed to call webhook'}: ${err.message}`);
  }
  let response: ReviewResponse;
  try {
    response = decodeReviewResponse(version, uid, mutating, text);
  } catch (err) {
    if (!(err instanceof ReviewError)) throw err;
    throw new CallingWebhookError(hook.name, `${err.stage === 'decode' ? 'failed to call webhook' : 'received invalid webhook response'}: ${err.message}`);
  }
  for (const [key, value] of Object.entries(response.auditAnnotations)) ctx.auditAnnotations[`${hook.name}/${key}`] = value;
  for (const w of response.warnings) if (w !== '' && !CONTROL.test(w)) addWarning(ctx, w);
  return response;
}

/** The 500 of a webhook that sent a patch for an operation without an object (DELETE, CONNECT). */
export function patchWithoutObjectMessage(webhook: string): string {
  return `admission webhook ${goQuote(webhook)} attempted to modify the object, which is not supported for this operation`;
}
