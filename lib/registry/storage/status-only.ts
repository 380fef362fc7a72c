/**
 * The declarative checks of a status write, over the `status` field alone. The generic status
 * strategy walks `{status}` against the whole kind schema, which reports `spec: Required value`
 * for kinds whose `spec` is required (VolumeAttachment, CertificateSigningRequest); this walks a
 * schema holding only the kind's `status` field. Candidate for the generic status strategy (#12).
 */
import type { FieldError } from '../../apimachinery/field-errors.js';
import { struct } from '../../apimachinery/schema/builder.js';
import { structFields, type StructSchema } from '../../apimachinery/schema/types.js';
import { validateDeclarative } from '../../apimachinery/schema/validate.js';
import { validateObjectMetaUpdate } from '../../apimachinery/validation/object-meta.js';
import type { KindDefinition, Obj } from '../../apis/define.js';
import type { RequestContext } from '../../request/context.js';
import { newStatusStrategy } from '../generic/kind-strategy.js';
import { metaOf } from '../generic/object-meta.js';
import type { Strategy } from '../rest/strategy.js';

const statusSchemas = new WeakMap<KindDefinition, StructSchema>();

/** A struct with only the `status` field of `kind`. */
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
 * Validation of a status-like subresource write: ObjectMeta update rules, the declarative checks
 * of `status`, then `check` (the kind's rules for the write).
 */
export function validateStatusWrite(kind: KindDefinition, obj: Obj, old: Obj, check: (obj: Obj, old: Obj) => FieldError[]): FieldError[] {
  return [...validateObjectMetaUpdate(metaOf(obj), metaOf(old)), ...validateDeclarative(statusSchemaOf(kind), { status: obj.status }), ...check(obj, old)];
}

/** The generic status strategy of `main`, validating as validateStatusWrite with the kind's `validateStatusUpdate`. */
export function newStatusOnlyStrategy(main: Strategy, overrides: Partial<Strategy> = {}): Strategy {
  const kind = main.kind;
  return newStatusStrategy(main, {
    validateUpdate: (_ctx: RequestContext, obj: Obj, old: Obj) => validateStatusWrite(kind, obj, old, (o, p) => kind.validateStatusUpdate?.(o, p) ?? []),
    ...overrides,
  });
}
