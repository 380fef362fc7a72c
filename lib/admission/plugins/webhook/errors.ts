/**
 * The errors of admission webhooks, worded as upstream v1.30 (spec 001 § Admission control):
 * a webhook that could not be called or answered nonsense (`failed calling webhook "<name>":
 * <why>`, subject to the webhook's failurePolicy; fail-closed it becomes 500 InternalError), a
 * webhook that denied the request (its own Status, `admission webhook "<name>" denied the
 * request: <message>`), and the dry-run refusal (400).
 */
import { type Status, StatusError, newBadRequest, newInternalError } from '../../../apimachinery/errors.js';
import { goQuote } from '../../../apimachinery/go-quote.js';

/**
 * A failure to talk to a webhook or to understand its answer (upstream `ErrCallingWebhook`):
 * the failure policy decides. `message` is `failed calling webhook "<name>": <reason>`.
 */
export class CallingWebhookError extends Error {
  override readonly name = 'CallingWebhookError';
  constructor(
    readonly webhook: string,
    readonly reason: string,
  ) {
    super(`failed calling webhook ${goQuote(webhook)}: ${reason}`);
  }

  /** The rejection when the failure policy is Fail: 500 `Internal error occurred: failed calling webhook …`. */
  toStatusError(): StatusError {
    return newInternalError(this.message);
  }
}

/** A webhook's Status field as it answered it (any JSON), kept only where the types fit. */
function statusFields(result: unknown): { code?: number; status?: string; message?: string; reason?: string; details?: Status['details'] } {
  if (result === null || typeof result !== 'object' || Array.isArray(result)) return {};
  const r = result as Record<string, unknown>;
  const out: ReturnType<typeof statusFields> = {};
  if (typeof r.code === 'number' && Number.isInteger(r.code)) out.code = r.code;
  if (typeof r.status === 'string') out.status = r.status;
  if (typeof r.message === 'string') out.message = r.message;
  if (typeof r.reason === 'string') out.reason = r.reason;
  if (r.details !== null && typeof r.details === 'object' && !Array.isArray(r.details)) out.details = r.details as Status['details'];
  return out;
}

/**
 * The rejection of a webhook that answered `allowed: false` (upstream `ToStatusErr`): its
 * `response.status` with the code raised to at least 400, status `Failure` (upstream keeps any
 * other status text; our Status type has only the two values), and the message
 * `admission webhook "<name>" denied the request: <message>` (the reason when there is no
 * message, `… denied the request without explanation` when neither).
 */
export function webhookRejection(webhook: string, result: unknown): StatusError {
  const r = statusFields(result);
  const deniedBy = `admission webhook ${goQuote(webhook)} denied the request`;
  let message: string;
  if (r.message) message = `${deniedBy}: ${r.message}`;
  else if (r.reason) message = `${deniedBy}: ${r.reason}`;
  else message = `${deniedBy} without explanation`;
  const code = r.code === undefined || r.code < 400 ? 400 : r.code;
  const status: Status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    code,
  };
  if (r.reason) status.reason = r.reason as Status['reason'];
  if (r.details) status.details = r.details;
  return new StatusError(status);
}

/** 400 `admission webhook "<name>" does not support dry run` (a dry-run request and a webhook with side effects). */
export function dryRunUnsupported(webhook: string): StatusError {
  return newBadRequest(`admission webhook ${goQuote(webhook)} does not support dry run`);
}
