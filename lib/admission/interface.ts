/**
 * Admission: plugins that see every create, update, delete (and connect) after authorization and
 * before persistence — mutating first, then validating (spec 000 § What the service does; spec 001
 * § Admission control). Never run for get, list or watch.
 */
import type { Obj } from '../apis/define.js';
import type { RequestContext } from '../request/context.js';
import type { UserInfo } from '../request/user.js';

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/** What a plugin is told about the request. */
export interface AdmissionAttributes {
  operation: AdmissionOperation;
  group: string;
  version: string;
  kind: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  /** The new object (CREATE, UPDATE); null for DELETE. Mutating plugins may change it. */
  object: Obj | null;
  /** The stored object (UPDATE, DELETE); null for CREATE. */
  oldObject: Obj | null;
  dryRun: boolean;
  user: UserInfo;
}

/** A plugin of the mutating phase. */
export interface MutatingAdmissionPlugin {
  readonly name: string;
  handles(op: AdmissionOperation): boolean;
  /** May mutate `attrs.object`; throws a StatusError to reject. */
  admit(ctx: RequestContext, attrs: AdmissionAttributes): Promise<void>;
}

/** A plugin of the validating phase; must not mutate. */
export interface ValidatingAdmissionPlugin {
  readonly name: string;
  handles(op: AdmissionOperation): boolean;
  /** Throws a StatusError to reject. */
  validate(ctx: RequestContext, attrs: AdmissionAttributes): Promise<void>;
}
