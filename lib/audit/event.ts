/**
 * Shaping audit events (upstream pkg/audit/request.go, format.go, context.go): timestamps with
 * microseconds, the bounded copy of a Status, objects without managed fields, and the `legacy`
 * one-line text of the log backend.
 */
import { goQuote } from '../apimachinery/go-quote.js';
import type { UserInfo } from '../request/user.js';
import type { AuditEvent, EventUser, ResponseStatus } from './types.js';

/** Milliseconds since the epoch with sub-millisecond precision (performance clock anchored to the wall clock). */
export function nowPrecise(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * RFC 3339 with exactly six fractional digits in UTC (upstream metav1.MicroTime):
 * `microTime(1764379488123.456)` → `2025-11-29T01:24:48.123456Z`.
 */
export function microTime(ms: number): string {
  const whole = Math.floor(ms);
  const micros = Math.min(999, Math.floor((ms - whole) * 1000));
  return `${new Date(whole).toISOString().slice(0, -1)}${String(micros).padStart(3, '0')}Z`;
}

/** An event's `user` (authentication/v1 UserInfo); `{}` when authentication failed. */
export function eventUser(u: UserInfo | undefined): EventUser {
  if (!u) return {};
  const e: EventUser = { username: u.name };
  if (u.uid) e.uid = u.uid;
  if (u.groups.length > 0) e.groups = u.groups;
  if (u.extra && Object.keys(u.extra).length > 0) e.extra = u.extra;
  return e;
}

/** The bounded fields of a Status answer (upstream AuditContext.LogResponseObject): status, message, reason, details, code. */
export function responseStatusOf(s: { status?: string; message?: string; reason?: string; details?: unknown; code?: number }): ResponseStatus {
  const r: ResponseStatus = { metadata: {} };
  if (s.status) r.status = s.status;
  if (s.message) r.message = s.message;
  if (s.reason) r.reason = s.reason;
  if (s.details !== undefined) r.details = s.details;
  if (s.code) r.code = s.code;
  return r;
}

function withoutManagedFields(o: Record<string, unknown>): Record<string, unknown> {
  const meta = o.metadata as Record<string, unknown> | undefined;
  if (!meta || typeof meta !== 'object' || !('managedFields' in meta)) return o;
  const { managedFields: _dropped, ...rest } = meta;
  return { ...o, metadata: rest };
}

/**
 * `obj` as recorded: with `omitManagedFields`, a copy without `metadata.managedFields` (of the
 * object, or of each item of a list); the input is never mutated.
 */
export function recordedObject(obj: unknown, omitManagedFields: boolean): unknown {
  if (!omitManagedFields || typeof obj !== 'object' || obj === null || Array.isArray(obj)) return obj;
  const o = withoutManagedFields(obj as Record<string, unknown>);
  const items = o.items;
  if (!Array.isArray(items)) return o;
  return { ...o, items: items.map((i: unknown) => (typeof i === 'object' && i !== null ? withoutManagedFields(i as Record<string, unknown>) : i)) };
}

const quoteList = (l: readonly string[]) => l.map(goQuote).join(',');

/** RFC 3339 with nanoseconds, trailing zeros dropped (Go's time.RFC3339Nano). */
function rfc3339Nano(t: string): string {
  return t.replace(/\.?0+Z$/, 'Z');
}

/**
 * Upstream EventString (`--audit-log-format=legacy`): `<received> AUDIT: id="…" stage="…" ip="…"
 * method="…" user="…" groups="…" as="…" asgroups="…" user-agent="…" namespace="…" uri="…" response="…"`.
 */
export function legacyEventString(ev: AuditEvent): string {
  let username = '<none>';
  let groups = '<none>';
  if (ev.user.username) {
    username = ev.user.username;
    if (ev.user.groups && ev.user.groups.length > 0) groups = quoteList(ev.user.groups);
  }
  let asUser = '<self>';
  let asGroups = '<lookup>';
  if (ev.impersonatedUser) {
    asUser = ev.impersonatedUser.username ?? '';
    if (ev.impersonatedUser.groups) asGroups = quoteList(ev.impersonatedUser.groups);
  }
  const namespace = ev.objectRef?.namespace || '<none>';
  const response = ev.responseStatus ? String(ev.responseStatus.code ?? 0) : '<deferred>';
  const ip = ev.sourceIPs?.[0] ?? '<unknown>';
  return (
    `${rfc3339Nano(ev.requestReceivedTimestamp)} AUDIT: id=${goQuote(ev.auditID)} stage=${goQuote(ev.stage)} ip=${goQuote(ip)} method=${goQuote(ev.verb)} ` +
    `user=${goQuote(username)} groups=${goQuote(groups)} as=${goQuote(asUser)} asgroups=${goQuote(asGroups)} user-agent=${goQuote(ev.userAgent ?? '')} ` +
    `namespace=${goQuote(namespace)} uri=${goQuote(ev.requestURI)} response="${response}"`
  );
}
