/**
 * The audit filters (upstream endpoints/filters/audit.go, audit_init.go, authn_audit.go):
 *
 * - `withAuditInit` (before authentication): the request's audit ID — the `Audit-ID` header, or a
 *   new UUID — echoed as the `Audit-Id` response header; a request whose authentication failed is
 *   audited as upstream's failed-authentication handler does: one event at stage ResponseStarted
 *   with the 401 Status and an empty `user`.
 * - `withAudit` (after authentication): evaluates the policy for the authenticated user and emits
 *   RequestReceived, then — for long-running requests (watches) — ResponseStarted when the stream
 *   starts, and ResponseComplete when the response is done (errors too, with their Status), or
 *   Panic (`APIServer panic'd: …`) for an unexpected error; each stage at most once, stages the
 *   policy omits left out. A RequestReceived event a blocking-strict backend could not store
 *   rejects the request (500 `failed to store audit event`, counted).
 *
 * The backends never hold up a request (batch mode buffers; a full buffer drops and counts).
 */
import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import type { Context, Next } from 'koa';
import { StatusError } from '../../apimachinery/errors.js';
import type { PolicyChecker, RequestAuditConfig } from '../../audit/checker.js';
import { eventUser, microTime, nowPrecise, recordedObject, responseStatusOf } from '../../audit/event.js';
import type { AuditPipeline } from '../../audit/pipeline.js';
import { AUDIT_API_VERSION, type AuditEvent, type ObjectReference, type ResponseStatus, type Stage, levelRank } from '../../audit/types.js';
import type { RequestContext } from '../../request/context.js';
import { JSON_MEDIA_TYPE } from '../../apimachinery/serializers/json.js';
import { parse as parseYAML } from 'yaml';
import { requestMediaType } from '../handlers/body.js';
import { requestBodyOf, responseObjectOf, wantRequestBody, wantResponseObject } from './audit-capture.js';
import { internalError } from './authorization.js';
import { requestContextOf, requestQueryOf } from './request-info.js';

/** Upstream's header (Go spells it `Audit-Id` on the wire). */
const AUDIT_ID_HEADER = 'Audit-Id';

interface AuditState {
  auditID: string;
  /** Milliseconds since the epoch, sub-millisecond precise. */
  receivedMs: number;
  /** Set once `withAudit` evaluated the policy (the failed-authentication path then stays out). */
  evaluated?: boolean;
}

function auditStateOf(koa: Context): AuditState | undefined {
  return (koa.state as { audit?: AuditState }).audit;
}

/** The request's audit ID (set by `withAuditInit`), for logs and other filters. */
export function auditIDOf(koa: Context): string | undefined {
  return auditStateOf(koa)?.auditID;
}

const stripMapped = (ip: string) => (ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip);

/** Upstream utilnet.SourceIPs: the `X-Forwarded-For` chain, `X-Real-Ip`, then the peer, each once. */
function sourceIPs(koa: Context): string[] {
  const ips: string[] = [];
  const add = (ip: string) => {
    const t = stripMapped(ip.trim());
    if (t && isIP(t) !== 0 && !ips.includes(t)) ips.push(t);
  };
  const fwd = koa.get('X-Forwarded-For');
  if (fwd) for (const p of fwd.split(',')) add(p);
  const real = koa.get('X-Real-Ip');
  if (real) add(real);
  add(koa.req.socket.remoteAddress ?? '');
  return ips;
}

function objectRefOf(ctx: RequestContext): ObjectReference | undefined {
  const i = ctx.requestInfo;
  if (!i.isResourceRequest) return undefined;
  const ref: ObjectReference = {};
  if (i.resource) ref.resource = i.resource;
  if (i.namespace) ref.namespace = i.namespace;
  if (i.name) ref.name = i.name;
  if (i.apiGroup) ref.apiGroup = i.apiGroup;
  if (i.apiVersion) ref.apiVersion = i.apiVersion;
  if (i.subresource) ref.subresource = i.subresource;
  return ref;
}

/** The event of one audited request; each stage is a snapshot of it, keys in upstream's order. */
class RequestAudit {
  readonly base: AuditEvent;
  private readonly sent = new Set<Stage>();

  constructor(
    private readonly pipeline: AuditPipeline,
    readonly config: RequestAuditConfig,
    koa: Context,
    ctx: RequestContext,
    state: AuditState,
  ) {
    this.base = {
      kind: 'Event',
      apiVersion: AUDIT_API_VERSION,
      level: config.level,
      auditID: state.auditID,
      stage: 'RequestReceived',
      requestURI: koa.originalUrl,
      verb: ctx.requestInfo.verb,
      user: eventUser(ctx.user),
      sourceIPs: sourceIPs(koa),
      userAgent: ctx.userAgent || undefined,
      objectRef: objectRefOf(ctx),
      requestReceivedTimestamp: microTime(state.receivedMs),
      stageTimestamp: '',
    };
  }

  /** Emits `stage` once (unless omitted); false when the backend could not take it. */
  emit(stage: Stage, annotations: Record<string, string>): boolean {
    if (this.sent.has(stage) || this.config.omitStages.has(stage)) return true;
    this.sent.add(stage);
    const b = this.base;
    const ev: AuditEvent = {
      kind: b.kind,
      apiVersion: b.apiVersion,
      level: b.level,
      auditID: b.auditID,
      stage,
      requestURI: b.requestURI,
      verb: b.verb,
      user: b.user,
      impersonatedUser: b.impersonatedUser,
      sourceIPs: b.sourceIPs,
      userAgent: b.userAgent,
      objectRef: b.objectRef,
      responseStatus: b.responseStatus,
      requestObject: b.requestObject,
      responseObject: b.responseObject,
      requestReceivedTimestamp: b.requestReceivedTimestamp,
      stageTimestamp: stage === 'RequestReceived' ? b.requestReceivedTimestamp : microTime(nowPrecise()),
      annotations: Object.keys(annotations).length > 0 ? { ...annotations } : undefined,
    };
    this.pipeline.metrics.observeEvent();
    return this.pipeline.backend.processEvents([ev]);
  }
}

function attributesOf(koa: Context, ctx: RequestContext) {
  const i = ctx.requestInfo;
  return { user: ctx.user, verb: i.verb, isResourceRequest: i.isResourceRequest, path: koa.path, apiGroup: i.apiGroup, namespace: i.namespace, resource: i.resource, subresource: i.subresource, name: i.name };
}

function evaluate(checker: PolicyChecker, pipeline: AuditPipeline, koa: Context, ctx: RequestContext): RequestAuditConfig {
  const cfg = checker.evaluate(attributesOf(koa, ctx));
  pipeline.metrics.observeLevel(cfg.level);
  return cfg;
}

/**
 * Koa middleware giving every request its audit ID (header `Audit-Id`) and auditing failed
 * authentication (see the module comment); `pipeline` absent: only the ID.
 */
export function withAuditInit(pipeline?: AuditPipeline) {
  return async (koa: Context, next: Next): Promise<void> => {
    const auditID = koa.get('Audit-ID') || randomUUID();
    const state: AuditState = { auditID, receivedMs: nowPrecise() };
    (koa.state as { audit?: AuditState }).audit = state;
    koa.set(AUDIT_ID_HEADER, auditID);
    if (!pipeline) return next();
    try {
      await next();
    } catch (err) {
      const ctx = requestContextOf(koa);
      if (err instanceof StatusError && err.status.code === 401 && !state.evaluated && ctx && !ctx.user) {
        const cfg = evaluate(pipeline.checker, pipeline, koa, ctx);
        if (cfg.level !== 'None') {
          const a = new RequestAudit(pipeline, cfg, koa, ctx, state);
          a.base.responseStatus = responseStatusOf(err.status);
          if (levelRank(cfg.level) >= levelRank('RequestResponse')) a.base.responseObject = err.status;
          a.emit('ResponseStarted', ctx.auditAnnotations);
        }
      }
      throw err;
    }
  };
}

function decodeBody(contentType: string | undefined, body: Buffer | undefined): unknown {
  if (!body || body.length === 0) return undefined;
  try {
    const mt = requestMediaType(contentType);
    if (mt === JSON_MEDIA_TYPE || mt.endsWith('json-patch+json') || mt.endsWith('merge-patch+json') || mt.endsWith('apply-patch+yaml') || mt.endsWith('yaml')) {
      return mt.endsWith('yaml') ? (parseYAML(body.toString('utf8')) as unknown) : (JSON.parse(body.toString('utf8')) as unknown);
    }
  } catch {
    // A body the handler rejected as malformed is not recorded.
  }
  return undefined;
}

/** Fills what the handler left: the request object (and the objectRef bits upstream takes from it), the response object. */
function recordObjects(a: RequestAudit, koa: Context): void {
  const level = levelRank(a.config.level);
  if (level < levelRank('Request')) return;
  const req = decodeBody(koa.get('Content-Type'), requestBodyOf(koa.req));
  if (req !== undefined) {
    a.base.requestObject = recordedObject(req, a.config.omitManagedFields);
    const meta = (req as { metadata?: Record<string, unknown> }).metadata;
    const ref = a.base.objectRef;
    if (ref && meta && typeof meta === 'object') {
      for (const k of ['namespace', 'name', 'uid', 'resourceVersion'] as const) if (!ref[k] && typeof meta[k] === 'string' && meta[k]) ref[k] = meta[k];
    }
  }
  if (level >= levelRank('RequestResponse')) {
    const res = responseObjectOf(koa);
    if (res !== undefined) a.base.responseObject = recordedObject(res, a.config.omitManagedFields);
  }
}

function isLongRunning(koa: Context, ctx: RequestContext): boolean {
  return ctx.requestInfo.verb === 'watch' || requestQueryOf(koa).get('watch') !== null;
}

/** Koa middleware auditing each request per the policy (see the module comment). */
export function withAudit(pipeline: AuditPipeline) {
  const checker = pipeline.checker;
  return async (koa: Context, next: Next): Promise<void> => {
    const state = auditStateOf(koa)!;
    const ctx = requestContextOf(koa);
    state.evaluated = true;
    const cfg = evaluate(checker, pipeline, koa, ctx);
    if (cfg.level === 'None') return next();
    const a = new RequestAudit(pipeline, cfg, koa, ctx, state);
    const level = levelRank(cfg.level);
    if (level >= levelRank('Request')) wantRequestBody(koa.req);
    // Also below RequestResponse: a Status answer (a delete's) is the event's responseStatus.
    wantResponseObject(koa);
    if (!a.emit('RequestReceived', ctx.auditAnnotations)) {
      pipeline.metrics.observeRejected();
      return internalError(koa, 'failed to store audit event');
    }
    const authenticated = ctx.user;
    const longRunning = isLongRunning(koa, ctx);
    const impersonation = () => {
      if (ctx.user !== authenticated) a.base.impersonatedUser = eventUser(ctx.user);
    };
    try {
      await next();
    } catch (err) {
      impersonation();
      recordObjects(a, koa);
      if (err instanceof StatusError) {
        a.base.responseStatus = responseStatusOf(err.status);
        if (level >= levelRank('RequestResponse')) a.base.responseObject = err.status;
        if (longRunning) a.emit('ResponseStarted', ctx.auditAnnotations);
        a.emit('ResponseComplete', ctx.auditAnnotations);
      } else {
        a.base.responseStatus = { metadata: {}, status: 'Failure', message: `APIServer panic'd: ${err instanceof Error ? err.message : String(err)}`, reason: 'InternalError', code: 500 };
        a.emit('Panic', ctx.auditAnnotations);
      }
      throw err;
    }
    impersonation();
    recordObjects(a, koa);
    const written = responseObjectOf(koa) as { kind?: string; apiVersion?: string } | undefined;
    const status: ResponseStatus =
      written && written.kind === 'Status' && written.apiVersion === 'v1' ? responseStatusOf(written as Parameters<typeof responseStatusOf>[0]) : { metadata: {}, code: koa.status };
    a.base.responseStatus = status;
    if (!longRunning) {
      a.emit('ResponseComplete', ctx.auditAnnotations);
      return;
    }
    a.emit('ResponseStarted', ctx.auditAnnotations);
    const res = koa.res;
    if (res.writableFinished || res.destroyed || koa.respond !== false) {
      a.emit('ResponseComplete', ctx.auditAnnotations);
      return;
    }
    res.once('close', () => a.emit('ResponseComplete', ctx.auditAnnotations));
  };
}
