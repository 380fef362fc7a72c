/**
 * The default strategy of a kind, derived from its definition: ObjectMeta, declarative and
 * kind-specific validation; status reset on create and carried over on main-resource updates for
 * kinds with a status subresource; generation tracking. Per-kind strategies
 * (lib/registry/<group>/<resource>/strategy.ts) override parts of it.
 */
import { deepCopy, deepEqual } from '../../apimachinery/deep-equal.js';
import type { FieldError } from '../../apimachinery/field-errors.js';
import { struct } from '../../apimachinery/schema/builder.js';
import { structFields, type StructSchema } from '../../apimachinery/schema/types.js';
import { validateDeclarative } from '../../apimachinery/schema/validate.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../apimachinery/validation/object-meta.js';
import type { KindDefinition, Obj } from '../../apis/define.js';
import type { RequestContext } from '../../request/context.js';
import type { DeleteOptionsBody, Strategy } from '../rest/strategy.js';
import { metaOf } from './object-meta.js';

type Meta = Record<string, unknown>;

/** Options that tune the derived strategy. */
export interface KindStrategyOptions {
  /** Bump metadata.generation when anything but metadata and status changes (default: has status subresource). */
  tracksGeneration?: boolean;
  allowCreateOnUpdate?: boolean;
  allowUnconditionalUpdate?: boolean;
  returnDeletedObject?: boolean;
  /** Keep a client-set status on create (Node registers with its status, as upstream). */
  keepStatusOnCreate?: boolean;
  /** Kind-specific create preparation, run after the derived one. Mutates `obj`. */
  prepareForCreate?: (obj: Obj) => void;
  /** Kind-specific update preparation, run after the derived one. Mutates `obj`. */
  prepareForUpdate?: (obj: Obj, old: Obj) => void;
}

/** Fields of the object other than type and object metadata and status: the "spec" part. */
function specPart(o: Obj): Obj {
  const { apiVersion: _a, kind: _k, metadata: _m, status: _s, ...rest } = o;
  return rest;
}

/**
 * Turns `obj` into a copy of the stored `old`, keeping only the `managedFields` the write
 * recorded: the start of a subresource write that may change one part of the object. `except`
 * names a top-level property the caller sets itself: it is left out, not copied from `old` to
 * be replaced at once (a status write's `status`).
 */
export function resetToStored(obj: Obj, old: Obj, except?: string): void {
  const managedFields = (obj.metadata as Meta | undefined)?.managedFields;
  for (const k of Object.keys(obj)) delete obj[k];
  // The stored managedFields are not copied when the write's replace them.
  for (const k of Object.keys(old)) if (k !== except) obj[k] = managedFields !== undefined && k === 'metadata' ? copyWithout(old[k], 'managedFields') : deepCopy(old[k]);
  if (managedFields !== undefined) metaOf(obj).managedFields = managedFields;
}

/** A deep copy of `v` without its property `key` (a value that is not an object is copied whole). */
function copyWithout(v: unknown, key: string): unknown {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return deepCopy(v);
  const out: Obj = {};
  for (const k of Object.keys(v)) if (k !== key) out[k] = deepCopy((v as Obj)[k]);
  return out;
}

/** Builds a kind's strategy; `overrides` replace individual methods. */
export function newKindStrategy(kind: KindDefinition, options: KindStrategyOptions = {}, overrides: Partial<Strategy> = {}): Strategy {
  const tracksGeneration = options.tracksGeneration ?? kind.statusSubresource;
  const selectors = Object.entries(kind.fieldSelectors);
  const base: Strategy = {
    kind,
    namespaceScoped: () => kind.namespaced,
    prepareForCreate(_ctx: RequestContext, obj: Obj): void {
      if (kind.statusSubresource && !options.keepStatusOnCreate) delete obj.status;
      if (tracksGeneration) metaOf(obj).generation = 1;
      else delete metaOf(obj).generation;
      options.prepareForCreate?.(obj);
    },
    validate(_ctx: RequestContext, obj: Obj): FieldError[] {
      return [
        ...validateObjectMeta(obj.metadata as Meta | undefined, kind.namespaced, kind.nameRuleOf?.(obj) ?? kind.nameRule),
        ...validateDeclarative(kind.schema, specPart(obj)),
        ...(kind.validate?.(obj) ?? []),
      ];
    },
    warningsOnCreate: () => [],
    canonicalize: () => undefined,
    allowCreateOnUpdate: () => options.allowCreateOnUpdate ?? false,
    allowUnconditionalUpdate: () => options.allowUnconditionalUpdate ?? true,
    prepareForUpdate(_ctx: RequestContext, obj: Obj, old: Obj): void {
      if (kind.statusSubresource) {
        if (old.status === undefined) delete obj.status;
        // A copy: `old` may be the watch cache's object (UpdateOptions.tryUpdateReadsOnly), and a
        // kind's hook may change the status it is given (the Service strategy resets loadBalancer).
        else obj.status = deepCopy(old.status);
      }
      const meta = metaOf(obj);
      if (tracksGeneration) {
        const oldGen = (metaOf(old).generation as number | undefined) ?? 1;
        meta.generation = deepEqual(specPart(obj), specPart(old)) ? oldGen : oldGen + 1;
      }
      options.prepareForUpdate?.(obj, old);
    },
    validateUpdate(_ctx: RequestContext, obj: Obj, old: Obj): FieldError[] {
      return [
        ...validateObjectMetaUpdate(metaOf(obj), metaOf(old)),
        ...validateDeclarative(kind.schema, specPart(obj)),
        ...(kind.validate?.(obj) ?? []),
        ...(kind.validateUpdate?.(obj, old) ?? []),
      ];
    },
    warningsOnUpdate: () => [],
    checkGracefulDelete: (_ctx: RequestContext, _obj: Obj, _options: DeleteOptionsBody) => false,
    returnDeletedObject: () => options.returnDeletedObject ?? false,
    fieldLabels: () => [...(kind.namespaced ? ['metadata.name', 'metadata.namespace'] : ['metadata.name']), ...Object.keys(kind.fieldSelectors)],
    selectableFields(obj: Obj): Record<string, string> {
      const meta = (obj.metadata ?? {}) as Meta;
      const fields: Record<string, string> = { 'metadata.name': (meta.name as string) ?? '' };
      if (kind.namespaced) fields['metadata.namespace'] = (meta.namespace as string) ?? '';
      for (const [label, read] of selectors) fields[label] = read(obj);
      return fields;
    },
  };
  return { ...base, ...overrides };
}

const statusSchemas = new WeakMap<KindDefinition, StructSchema>();

/** A struct holding only the `status` field of `kind` (no field when the kind has no status). */
function statusSchemaOf(kind: KindDefinition): StructSchema {
  let s = statusSchemas.get(kind);
  if (!s) {
    const status = structFields(kind.schema).status;
    s = struct(`${kind.schema.id}.status`, status ? { status } : {});
    statusSchemas.set(kind, s);
  }
  return s;
}

/**
 * Validation of a status-like subresource write (upstream's status strategies'
 * `ValidateUpdate`): the ObjectMeta update rules, the declarative checks of the `status` field
 * alone — the rest of the object is the stored one, so a required `spec` is never reported —
 * then `check`, the kind's rules for the write.
 */
export function validateStatusWrite(kind: KindDefinition, obj: Obj, old: Obj, check: (obj: Obj, old: Obj) => FieldError[]): FieldError[] {
  return [...validateObjectMetaUpdate(metaOf(obj), metaOf(old)), ...validateDeclarative(statusSchemaOf(kind), { status: obj.status }), ...check(obj, old)];
}

const noStatusRules = (): FieldError[] => [];

/**
 * The strategy of the `status` subresource: a status write changes only `status` (spec 000
 * § Endpoints: status subresource); everything else is carried over from the stored object. It
 * inherits the main strategy's options, so a kind that refuses unconditional updates refuses a
 * status write without `metadata.resourceVersion` too, as upstream's status strategies (which
 * embed the main one). Validation: validateStatusWrite with the kind's `validateStatusUpdate`.
 */
export function newStatusStrategy(main: Strategy, overrides: Partial<Strategy> = {}): Strategy {
  const kind = main.kind;
  const rules = kind.validateStatusUpdate ?? noStatusRules;
  const base: Strategy = {
    ...main,
    allowCreateOnUpdate: () => false,
    prepareForUpdate(_ctx: RequestContext, obj: Obj, old: Obj): void {
      const status = obj.status;
      resetToStored(obj, old, 'status');
      if (status !== undefined) obj.status = status;
    },
    validateUpdate: (_ctx: RequestContext, obj: Obj, old: Obj): FieldError[] => validateStatusWrite(kind, obj, old, rules),
  };
  return { ...base, ...overrides };
}
