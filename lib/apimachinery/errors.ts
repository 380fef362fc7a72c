/**
 * The error catalogue: every API error is a `Status` built here, with upstream reasons, codes
 * and message formats (ARCHITECTURE.md § Errors; spec 001 § Errors).
 */
import { type FieldError, fieldErrorBody, fieldErrorString } from './field-errors.js';
import { goQuote } from './go-quote.js';

/** A `details.causes[]` entry; `reason` is the upstream wire name of the cause type. */
export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

/** `details` of a Status. */
export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

/** The `Status` kind (`apiVersion: v1`). */
export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, unknown>;
  status: 'Success' | 'Failure';
  message?: string;
  reason?: StatusReason;
  details?: StatusDetails;
  code: number;
}

/** Upstream StatusReason values used by this server. */
export type StatusReason =
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Expired'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'Invalid'
  | 'TooManyRequests'
  | 'InternalError'
  | 'ServiceUnavailable'
  | 'Timeout'
  | 'ServerTimeout'
  | 'Unknown';

/** A group + resource pair, e.g. `{group: 'apps', resource: 'deployments'}`. */
export interface GroupResource {
  group: string;
  resource: string;
}
/** A group + kind pair, e.g. `{group: 'apps', kind: 'Deployment'}`. */
export interface GroupKind {
  group: string;
  kind: string;
}

/** `deployments.apps` or `configmaps` (core group): upstream GroupResource.String(). */
export function groupResourceString(gr: GroupResource): string {
  return gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
}
/** `Deployment.apps` or `ConfigMap`: upstream GroupKind.String(). */
export function groupKindString(gk: GroupKind): string {
  return gk.group ? `${gk.kind}.${gk.group}` : gk.kind;
}

/** An error carrying a Status; thrown anywhere, written by the outermost error filter. */
export class StatusError extends Error {
  /** HTTP headers to add to the error response (e.g. Retry-After). */
  readonly headers: Record<string, string>;

  readonly status: Status;

  /** `status` is kept in upstream's field order (orderedStatus). */
  constructor(status: Status, headers: Record<string, string> = {}) {
    super(status.message ?? status.reason ?? 'unknown error');
    this.status = orderedStatus(status);
    this.name = 'StatusError';
    this.headers = headers;
  }

  get code(): number {
    return this.status.code;
  }
  get reason(): string | undefined {
    return this.status.reason;
  }
}

/** True when `err` is a StatusError with the given reason. */
export function isReason(err: unknown, reason: StatusReason): boolean {
  return err instanceof StatusError && err.status.reason === reason;
}

/** The keys of `obj` that `order` names, in that order, then any others (a copy). */
function ordered<T extends object>(obj: T, order: readonly string[]): T {
  const src = obj as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of order) if (src[k] !== undefined) out[k] = src[k];
  for (const k in src) if (!(k in out) && src[k] !== undefined) out[k] = src[k];
  return out as T;
}

const STATUS_ORDER = ['kind', 'apiVersion', 'metadata', 'status', 'message', 'reason', 'details', 'code'];
const DETAILS_ORDER = ['name', 'group', 'kind', 'uid', 'causes', 'retryAfterSeconds'];
const CAUSE_ORDER = ['reason', 'message', 'field'];

/**
 * A Status in the order upstream's Go type declares its fields (`kind, apiVersion, metadata,
 * status, message, reason, details, code`; details and causes likewise), as upstream encodes it
 * (issue #23 item 1). A copy; `s` is not modified.
 */
export function orderedStatus(s: Status): Status {
  const out = ordered(s, STATUS_ORDER);
  if (s.details) {
    out.details = ordered(s.details, DETAILS_ORDER);
    if (s.details.causes) out.details.causes = s.details.causes.map((c) => ordered(c, CAUSE_ORDER));
  }
  return out;
}

function failure(code: number, reason: StatusReason, message: string, details?: StatusDetails): Status {
  const s: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
  if (details) s.details = details;
  return s;
}

function resourceDetails(gr: GroupResource, name: string): StatusDetails {
  const d: StatusDetails = {};
  if (name) d.name = name;
  if (gr.group) d.group = gr.group;
  d.kind = gr.resource;
  return d;
}

/** 404 NotFound: `configmaps "x" not found`. */
export function newNotFound(gr: GroupResource, name: string): StatusError {
  return new StatusError(failure(404, 'NotFound', `${groupResourceString(gr)} "${name}" not found`, resourceDetails(gr, name)));
}

/** 409 AlreadyExists: `configmaps "x" already exists`. */
export function newAlreadyExists(gr: GroupResource, name: string): StatusError {
  return new StatusError(failure(409, 'AlreadyExists', `${groupResourceString(gr)} "${name}" already exists`, resourceDetails(gr, name)));
}

/** The upstream optimistic-concurrency message (ARCHITECTURE.md § Storage rules). */
export const OBJECT_MODIFIED_MESSAGE =
  'the object has been modified; please apply your changes to the latest version and try again';

/** 409 Conflict: `Operation cannot be fulfilled on <resource> "<name>": <detail>`. */
export function newConflict(gr: GroupResource, name: string, detail: string = OBJECT_MODIFIED_MESSAGE): StatusError {
  return new StatusError(
    failure(409, 'Conflict', `Operation cannot be fulfilled on ${groupResourceString(gr)} "${name}": ${detail}`, resourceDetails(gr, name)),
  );
}

/**
 * Joins error messages the way upstream prints an aggregate error: one message alone, several
 * (duplicates dropped) as `[a, b]`.
 */
export function aggregateMessage(messages: readonly string[]): string {
  if (messages.length === 1) return messages[0]!;
  const unique = [...new Set(messages)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}

/** Wire cause reason for a field error type, e.g. `FieldValueRequired`; internal → `InternalError`. */
export function causeReason(e: FieldError): string {
  return e.type === 'InternalError' ? 'InternalError' : `FieldValue${e.type}`;
}

/**
 * 422 Invalid: `ConfigMap "x" is invalid: [a, b]` with one cause per field error; the message
 * lists each distinct error text once (upstream ErrorList.ToAggregate), unbracketed when only one.
 */
export function newInvalid(gk: GroupKind, name: string, errs: FieldError[]): StatusError {
  const causes = errs.map((e) => ({ reason: causeReason(e), message: fieldErrorBody(e), field: e.field }));
  let message = `${groupKindString(gk)} "${name}" is invalid`;
  if (errs.length > 0) message += `: ${aggregateMessage(errs.map(fieldErrorString))}`;
  // Go's omitempty: an empty kind (the access reviews' internal objects have none) is left out.
  const details: StatusDetails = { ...(name ? { name } : {}), ...(gk.group ? { group: gk.group } : {}), ...(gk.kind ? { kind: gk.kind } : {}), causes };
  return new StatusError(failure(422, 'Invalid', message, details));
}

/** 400 BadRequest with the given message. */
export function newBadRequest(message: string, causes?: StatusCause[]): StatusError {
  return new StatusError(failure(400, 'BadRequest', message, causes ? { causes } : undefined));
}

/** 401 Unauthorized. */
export function newUnauthorized(message = 'Unauthorized'): StatusError {
  return new StatusError(failure(401, 'Unauthorized', message));
}

/** 403 Forbidden: `<resource> "<name>" is forbidden: <reason>` (name omitted for collections, quoted as Go's `%q`). */
export function newForbidden(gr: GroupResource, name: string, reason: string): StatusError {
  const what = name ? `${groupResourceString(gr)} ${goQuote(name)}` : groupResourceString(gr);
  return new StatusError(failure(403, 'Forbidden', `${what} is forbidden: ${reason}`, resourceDetails(gr, name)));
}

/** 403 Forbidden for a non-resource path: `forbidden: User "u" cannot get path "/x"`. */
export function newForbiddenPath(reason: string): StatusError {
  return new StatusError(failure(403, 'Forbidden', `forbidden: ${reason}`, {}));
}

/** 405 MethodNotAllowed: `<verb> is not supported on resources of kind "<resource>"`. */
export function newMethodNotSupported(gr: GroupResource, verb: string): StatusError {
  return new StatusError(
    failure(405, 'MethodNotAllowed', `${verb} is not supported on resources of kind "${groupResourceString(gr)}"`, resourceDetails(gr, '')),
  );
}

/**
 * 405 MethodNotAllowed for a path served without the request's method (a GET or DELETE of a
 * create-only collection such as `tokenreviews`), as upstream's router answers it through
 * NewGenericServerResponse: `the server does not allow this method on the requested resource`,
 * empty details.
 */
export function newMethodNotAllowed(): StatusError {
  return new StatusError(failure(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {}));
}

/** 406 NotAcceptable listing the media types the endpoint can produce. */
export function newNotAcceptable(accepted: readonly string[]): StatusError {
  return new StatusError(failure(406, 'NotAcceptable', `only the following media types are accepted: ${accepted.join(', ')}`));
}

/** 415 UnsupportedMediaType listing the accepted request media types (no details, as upstream). */
export function newUnsupportedMediaType(accepted: readonly string[]): StatusError {
  return new StatusError(
    failure(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
    ),
  );
}

/** 410 Gone with reason Gone. */
export function newGone(message: string): StatusError {
  return new StatusError(failure(410, 'Gone', message));
}

/** 410 Gone with reason Expired (too old resource version, expired continue token). */
export function newResourceExpired(message: string): StatusError {
  return new StatusError(failure(410, 'Expired', message));
}

/** 413 RequestEntityTooLarge. */
export function newRequestEntityTooLarge(message: string): StatusError {
  return new StatusError(failure(413, 'RequestEntityTooLarge', `Request entity too large: ${message}`));
}

/** 429 TooManyRequests with Retry-After. */
export function newTooManyRequests(message: string, retryAfterSeconds: number): StatusError {
  return new StatusError(failure(429, 'TooManyRequests', message, { retryAfterSeconds }), {
    'Retry-After': String(retryAfterSeconds),
  });
}

/** 500 InternalError: `Internal error occurred: <message>`. */
export function newInternalError(message: string): StatusError {
  return new StatusError(failure(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] }));
}

/**
 * Upstream NewGenericServerResponse's reason and message for a status code `code` (`body`: the
 * server's message, which 403, 406, 415 and 5xx messages carry), e.g. 422 → Invalid, `the server
 * rejected our request due to an error in our request`.
 */
export function genericServerResponse(code: number, body = ''): { reason: StatusReason; message: string } {
  const known: Record<number, [StatusReason, string]> = {
    400: ['BadRequest', 'the server rejected our request for an unknown reason'],
    404: ['NotFound', 'the server could not find the requested resource'],
    401: ['Unauthorized', 'the server has asked for the client to provide credentials'],
    403: ['Forbidden', body],
    405: ['MethodNotAllowed', 'the server does not allow this method on the requested resource'],
    406: ['NotAcceptable', body === '' || body === 'unknown' ? 'the server was unable to respond with a content type that the client supports' : body],
    409: ['Conflict', 'the server reported a conflict'],
    415: ['UnsupportedMediaType', body],
    422: ['Invalid', 'the server rejected our request due to an error in our request'],
    429: ['TooManyRequests', 'the server has received too many requests and has asked us to try again later'],
    503: ['ServiceUnavailable', 'the server is currently unable to handle the request'],
    504: ['Timeout', 'the server was unable to return a response in the time allotted, but may still be processing the request'],
  };
  const hit = known[code];
  if (hit) return { reason: hit[0], message: hit[1] };
  if (code >= 500) return { reason: 'InternalError', message: `an error on the server (${JSON.stringify(body)}) has prevented the request from succeeding` };
  return { reason: 'Unknown', message: `the server responded with the status code ${code} but did not return more information` };
}

/**
 * 422 Invalid for a JSON patch that does not apply, as upstream answers it
 * (NewGenericServerResponse(422, …) without the patch library's error): `the server rejected our
 * request due to an error in our request`, empty details.
 */
export function newJSONPatchNotApplied(): StatusError {
  const { reason, message } = genericServerResponse(422);
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, details: {}, code: 422 });
}

/**
 * 500 with no reason and `message` as it is: upstream's answer to an error that is not a Status
 * (`ErrorToAPIStatus`), such as etcd's `etcdserver: mvcc: database space exceeded`.
 */
export function newUnknownError(message: string): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 });
}

/**
 * 500 ServerTimeout: `The <verb> operation against <resource> could not be completed at this
 * time, please try again.` (storage unreachable); as upstream, `details.name` is the verb.
 */
export function newServerTimeout(gr: GroupResource, verb: string, retryAfterSeconds: number): StatusError {
  const s = failure(500, 'InternalError', `The ${verb} operation against ${groupResourceString(gr)} could not be completed at this time, please try again.`, {
    ...resourceDetails(gr, verb),
    retryAfterSeconds,
  });
  s.reason = 'ServerTimeout';
  return new StatusError(s, { 'Retry-After': String(retryAfterSeconds) });
}

/** 503 ServiceUnavailable. */
export function newServiceUnavailable(message: string): StatusError {
  return new StatusError(failure(503, 'ServiceUnavailable', message));
}

/** 504 Timeout: the server waited for a resource version that did not come (spec 001 § Errors). */
export function newTooLargeResourceVersion(requested: string | number, current: string | number, retryAfterSeconds = 1): StatusError {
  return new StatusError(
    failure(504, 'Timeout', `Timeout: Too large resource version: ${requested}, current: ${current}`, {
      causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
      retryAfterSeconds,
    }),
    { 'Retry-After': String(retryAfterSeconds) },
  );
}

/** 504 Timeout: `Timeout: <message>`, with `details` (and Retry-After when retryAfterSeconds > 0), as upstream NewTimeoutError. */
export function newTimeout(message: string, retryAfterSeconds = 0): StatusError {
  return new StatusError(
    failure(504, 'Timeout', `Timeout: ${message}`, retryAfterSeconds ? { retryAfterSeconds } : {}),
    retryAfterSeconds ? { 'Retry-After': String(retryAfterSeconds) } : {},
  );
}

/** A Success Status (e.g. the delete response of a removed object or a deletecollection). */
export function successStatus(details?: StatusDetails): Status {
  return orderedStatus({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details, code: 200 });
}

