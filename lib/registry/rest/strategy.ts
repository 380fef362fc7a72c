/**
 * Strategy interfaces: the per-kind rules the generic store applies on create, update and
 * delete (ARCHITECTURE.md § Core interfaces; spec 000 § Update rules, § Object deletion lifecycle).
 */
import type { FieldError } from '../../apimachinery/field-errors.js';
import type { KindDefinition, Obj } from '../../apis/define.js';
import type { RequestContext } from '../../request/context.js';

/** Create rules. */
export interface RESTCreateStrategy {
  readonly kind: KindDefinition;
  namespaceScoped(): boolean;
  /** Clears fields the client may not set on create (status, generation…). Mutates `obj`. */
  prepareForCreate(ctx: RequestContext, obj: Obj): void;
  /** Validation of a new object (ObjectMeta included). Never mutates. */
  validate(ctx: RequestContext, obj: Obj): FieldError[];
  warningsOnCreate(ctx: RequestContext, obj: Obj): string[];
  /** Normalizes an object before storage (e.g. sort, dedupe). Mutates `obj`. */
  canonicalize(obj: Obj): void;
}

/** Update rules. */
export interface RESTUpdateStrategy {
  readonly kind: KindDefinition;
  namespaceScoped(): boolean;
  /** PUT on a missing object creates it. */
  allowCreateOnUpdate(): boolean;
  /** An update without metadata.resourceVersion is allowed (last write wins). */
  allowUnconditionalUpdate(): boolean;
  /** Carries over fields the write may not change (status on main writes…). Mutates `obj`. */
  prepareForUpdate(ctx: RequestContext, obj: Obj, old: Obj): void;
  validateUpdate(ctx: RequestContext, obj: Obj, old: Obj): FieldError[];
  warningsOnUpdate(ctx: RequestContext, obj: Obj, old: Obj): string[];
  canonicalize(obj: Obj): void;
}

/** Body of a delete (DeleteOptions), as far as the store uses it. */
export interface DeleteOptionsBody {
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  orphanDependents?: boolean;
  dryRun?: string[];
}

/** Delete rules. */
export interface RESTDeleteStrategy {
  /**
   * Decides whether a delete is graceful: may set `options.gracePeriodSeconds` from the object's
   * spec; returns true when the object should be kept with a deletionTimestamp for that period.
   */
  checkGracefulDelete(ctx: RequestContext, obj: Obj, options: DeleteOptionsBody): boolean;
  /** The DELETE response is the object (true) or a Success Status (false), per kind as upstream. */
  returnDeletedObject(): boolean;
}

/** Labels and selectable fields of an object (field selectors; spec 000 § Collections). */
export interface AttrsStrategy {
  /** Field-selector values of `obj`, one per supported field label. */
  selectableFields(obj: Obj): Record<string, string>;
  /** The field labels a field selector may use for this kind (others are 400). */
  fieldLabels(): readonly string[];
}

/** Everything the generic store needs for one resource. */
export type Strategy = RESTCreateStrategy & RESTUpdateStrategy & RESTDeleteStrategy & AttrsStrategy;
