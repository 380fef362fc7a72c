/**
 * Admission: plugins that see every create, update, delete (and connect) after authorization and
 * before persistence — mutating first, then validating (spec 000 § What the service does; spec 001
 * § Admission control). Never run for get, list or watch.
 */
import type { Obj } from '../apis/define.js';
import type { RequestContext } from '../request/context.js';
import type { UserInfo } from '../request/user.js';

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/**
 * The mutating phase's reinvocation state (upstream `ReinvocationContext`): a plugin that wants the
 * mutating phase run once more (a webhook with `reinvocationPolicy: IfNeeded` whose object a later
 * mutation changed) sets `shouldReinvoke`; the chain then runs every mutating plugin again once
 * with `isReinvoke` true. `values` keeps per-plugin state across the two passes.
 */
export interface ReinvocationContext {
  isReinvoke: boolean;
  shouldReinvoke: boolean;
  readonly values: Map<string, unknown>;
}

/** What a plugin is told about the request (upstream `admission.Attributes`). */
export interface AdmissionAttributes {
  operation: AdmissionOperation;
  /** Group, version and kind of `object`/`oldObject` (the storage version of the resource). */
  group: string;
  version: string;
  kind: string;
  /** The resource (plural, lower case) and subresource ('' for none) of the request. */
  resource: string;
  subresource: string;
  /**
   * The group, version and kind the client addressed (`requestKind`/`requestResource` of
   * AdmissionReview; the group in the vendor spelling); equal to the above unless the client used
   * another served version (autoscaling/v1, events.<vendor>/v1).
   */
  requestGroup: string;
  requestVersion: string;
  requestKind: string;
  /** The namespace of the request: '' for cluster-scoped resources, the namespace's own name for a Namespace (as upstream). */
  namespace: string;
  name: string;
  /** Whether the resource is namespaced (a Namespace itself is not). */
  namespaced: boolean;
  /** The new object (CREATE, UPDATE; CONNECT: the options object); null for DELETE. Mutating plugins may change it. */
  object: Obj | null;
  /** The stored object (UPDATE, DELETE); null for CREATE. */
  oldObject: Obj | null;
  /**
   * The operation's options as upstream sends them in AdmissionReview (`{kind: 'CreateOptions' |
   * 'UpdateOptions' | 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', …}` with the group in the
   * spelling of lib/apis/vendor.ts); null for CONNECT.
   */
  options: Obj | null;
  dryRun: boolean;
  user: UserInfo;
  reinvocation: ReinvocationContext;
}

/**
 * One admission plugin (ARCHITECTURE.md § Core interfaces). It takes part in the mutating phase
 * when it has `admit`, in the validating phase when it has `validate` (both is common:
 * ServiceAccount, LimitRanger). Both throw a StatusError to reject the request (403 Forbidden
 * unless the plugin chooses another status); warnings go to `ctx.warnings` (addWarning) and
 * audit annotations to `ctx.auditAnnotations`, keys prefixed by the plugin's name in lower case.
 */
export interface AdmissionPlugin {
  readonly name: string;
  /** Whether the plugin wants to see `op` at all (asked once per operation when the chain is built). */
  handles(op: AdmissionOperation): boolean;
  /** May mutate `attrs.object`. Must be idempotent: it may run twice (reinvocation). */
  admit?(ctx: RequestContext, attrs: AdmissionAttributes): Promise<void>;
  /** Must not mutate `attrs.object`. */
  validate?(ctx: RequestContext, attrs: AdmissionAttributes): Promise<void>;
}

/** A plugin of the mutating phase. */
export type MutatingAdmissionPlugin = AdmissionPlugin & Required<Pick<AdmissionPlugin, 'admit'>>;

/** A plugin of the validating phase; must not mutate. */
export type ValidatingAdmissionPlugin = AdmissionPlugin & Required<Pick<AdmissionPlugin, 'validate'>>;
