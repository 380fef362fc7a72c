/**
 * The `audit.<vendor>/v1` kinds (upstream `audit.k8s.io/v1`, staging/src/k8s.io/apiserver/pkg/apis/audit):
 * the Event written by the backends and the Policy that decides what is recorded.
 */
import { AUDIT_GROUP } from '../apis/vendor.js';

/** `audit.<vendor>/v1`. */
export const AUDIT_API_VERSION = `${AUDIT_GROUP}/v1`;

/** How much of a request is recorded, least first. */
export const LEVELS = ['None', 'Metadata', 'Request', 'RequestResponse'] as const;
export type Level = (typeof LEVELS)[number];

/** The stages an event is emitted at, in request order (Panic replaces ResponseComplete). */
export const STAGES = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'] as const;
export type Stage = (typeof STAGES)[number];

/** Rank of a level: None 0 … RequestResponse 3. */
export function levelRank(l: Level): number {
  return LEVELS.indexOf(l);
}

/** A group's resources a rule names (`resources` `*`, `pods/log`, `*\/status`, `pods/*`; `resourceNames`). */
export interface GroupResources {
  group?: string;
  resources?: string[];
  resourceNames?: string[];
}

/** One policy rule; the first matching rule decides a request's level. */
export interface PolicyRule {
  level: Level;
  users?: string[];
  userGroups?: string[];
  verbs?: string[];
  resources?: GroupResources[];
  namespaces?: string[];
  nonResourceURLs?: string[];
  omitStages?: Stage[];
  omitManagedFields?: boolean;
}

/** The Policy kind (policy-wide `omitStages` and `omitManagedFields` apply to every rule). */
export interface Policy {
  rules: PolicyRule[];
  omitStages?: Stage[];
  omitManagedFields?: boolean;
}

/** `user` / `impersonatedUser` of an event (authentication/v1 UserInfo). */
export interface EventUser {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

/** `objectRef` of an event. */
export interface ObjectReference {
  resource?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiGroup?: string;
  apiVersion?: string;
  resourceVersion?: string;
  subresource?: string;
}

/** `responseStatus`: a metav1.Status without type meta (`metadata: {}` always, as upstream serializes it). */
export interface ResponseStatus {
  metadata: Record<string, never>;
  status?: string;
  message?: string;
  reason?: string;
  details?: unknown;
  code?: number;
}

/**
 * One audit Event, keys in upstream's order; timestamps are RFC 3339 with microseconds
 * (`2026-11-29T01:24:48.123456Z`).
 */
export interface AuditEvent {
  kind: 'Event';
  apiVersion: string;
  level: Level;
  auditID: string;
  stage: Stage;
  requestURI: string;
  verb: string;
  user: EventUser;
  impersonatedUser?: EventUser;
  sourceIPs?: string[];
  userAgent?: string;
  objectRef?: ObjectReference;
  responseStatus?: ResponseStatus;
  requestObject?: unknown;
  responseObject?: unknown;
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

/** Where events go (upstream audit.Backend). */
export interface AuditBackend {
  /** Backend name for messages and the `plugin` label (`log`, `webhook`, `buffered`, `truncate`). */
  readonly name: string;
  /**
   * Takes events (never mutated afterwards by the caller); false when they could not be
   * processed (only blocking-strict backends report it). Never throws, never blocks.
   */
  processEvents(events: AuditEvent[]): boolean;
  /** Flushes what is buffered and releases resources; resolves when done. */
  shutdown(): Promise<void>;
}

/** The logger the audit layer reports backend failures to (a pino logger fits). */
export interface AuditLogger {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}
