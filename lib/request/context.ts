/**
 * The per-request context handed from the filters to handlers, the registry and admission:
 * RequestInfo, the authenticated user, the abort signal, and collected warnings.
 */
import { SERVER_NAME } from '../apis/vendor.js';
import { type RequestInfo, requestInfoOf } from './request-info.js';
import type { UserInfo } from './user.js';

/** What every layer may know about the request in flight. */
export interface RequestContext {
  requestInfo: RequestInfo;
  /** Set by authentication; absent only before it ran. */
  user?: UserInfo;
  /**
   * The audiences the request's credential was found valid for (set by authentication; issue
   * #10 item 9); absent: the method reported none, i.e. valid for this server itself.
   */
  audiences?: string[];
  /** Aborted when the client goes away or the request times out. */
  signal: AbortSignal;
  /** `Warning:` header texts (RFC 7234 § 5.5), added in order, duplicates dropped. */
  warnings: string[];
  /** The raw User-Agent header ('' when absent). */
  userAgent: string;
  /** Audit annotations (key → value). */
  auditAnnotations: Record<string, string>;
}

/** Builds a context for in-process callers (controllers) acting as `user`; their writes are managed by the server's name. */
export function internalContext(user: UserInfo, requestInfo: Partial<RequestInfo> = {}): RequestContext {
  return {
    requestInfo: requestInfoOf({ isResourceRequest: true, ...requestInfo }),
    user,
    signal: new AbortController().signal,
    warnings: [],
    userAgent: SERVER_NAME,
    auditAnnotations: {},
  };
}

/** Adds a warning once. */
export function addWarning(ctx: RequestContext, text: string): void {
  if (!ctx.warnings.includes(text)) ctx.warnings.push(text);
}
