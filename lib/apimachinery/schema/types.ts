/**
 * The structural type model of API kinds. A built-in kind is declared once with these types
 * (lib/apis); a CustomResourceDefinition's OpenAPI schema is converted into the same model. The
 * decoder, defaulter, declarative validation, OpenAPI, protobuf and merge logic all walk it
 * (ARCHITECTURE.md § Layers: one source of truth per kind).
 */

/** Merge markers of spec 000 § Merge strategy markers, plus the strategic-merge patch tags. */
export interface ListMarkers {
  /** `x-orch-list-type`. Absent: `patchStrategy: 'merge'` is read as `map`, otherwise atomic. */
  listType?: 'atomic' | 'set' | 'map';
  /** `x-orch-list-map-keys`, only with listType `map`. */
  listMapKeys?: string[];
  /** Strategic-merge strategy of the list (`merge`, `replace`, `retainKeys`, `merge,retainKeys`). */
  patchStrategy?: string;
  /** Strategic-merge key of a list of structs (`name`, `containerPort`…). */
  patchMergeKey?: string;
}

/** Common facts on every schema node. */
export interface SchemaBase {
  description?: string;
  /** `nullable: true` in OpenAPI: JSON null accepted and kept. */
  nullable?: boolean;
}

export interface StringSchema extends SchemaBase {
  type: 'string';
  /** OpenAPI format (`date-time`, `byte`, `int-or-string`…). Informational except where noted. */
  format?: string;
  enum?: readonly string[];
  maxLength?: number;
  minLength?: number;
  pattern?: string;
}
export interface IntegerSchema extends SchemaBase {
  type: 'integer';
  format: 'int32' | 'int64';
  minimum?: number;
  maximum?: number;
}
export interface NumberSchema extends SchemaBase {
  type: 'number';
  format?: 'double' | 'float';
}
export interface BooleanSchema extends SchemaBase {
  type: 'boolean';
}
/** `[]byte`: base64 text in JSON, bytes in protobuf. */
export interface BytesSchema extends SchemaBase {
  type: 'bytes';
}
/** metav1.Time (RFC 3339, second precision) or MicroTime (microseconds). */
export interface TimeSchema extends SchemaBase {
  type: 'time';
  precision: 'seconds' | 'micros';
}
/** metav1.Duration: a Go duration string (`1h30m`). */
export interface DurationSchema extends SchemaBase {
  type: 'duration';
}
/** resource.Quantity: number or string in JSON, canonical string on output. */
export interface QuantitySchema extends SchemaBase {
  type: 'quantity';
}
/** intstr.IntOrString: an int32 or a string. */
export interface IntOrStringSchema extends SchemaBase {
  type: 'int-or-string';
}
/** runtime.RawExtension / embedded object: any JSON value kept as is. */
export interface RawSchema extends SchemaBase {
  type: 'raw';
  /** `x-orch-embedded-resource`: the value is an object with apiVersion/kind/metadata. */
  embeddedResource?: boolean;
}
export interface MapSchema extends SchemaBase {
  type: 'map';
  values: Schema;
  /** `x-orch-map-type`. */
  mapType?: 'atomic' | 'granular';
}
export interface ListSchema extends SchemaBase, ListMarkers {
  type: 'list';
  items: Schema;
  maxItems?: number;
}

/**
 * Where a Go-inline property sits in protobuf: in the message of struct `id` carried at number
 * `proto` of its container — this struct, or, with `within`, the inline message `within`
 * describes (a struct inlined into a struct that is itself inlined, as admissionregistration's
 * NamedRuleWithOperations → RuleWithOperations → Rule).
 */
export interface Embedding {
  proto: number;
  id: string;
  within?: Embedding;
}

/** The inline messages holding a property, outermost first (empty for a plain property). */
export function embeddingPath(f: Field): Embedding[] {
  const path: Embedding[] = [];
  for (let e = f.embedded; e; e = e.within) path.unshift(e);
  return path;
}

/** One property of a struct. */
export interface Field {
  schema: Schema;
  /** Protobuf field number in the upstream `generated.proto` (spec 000 § Protobuf envelope). */
  proto: number;
  /** Listed in OpenAPI `required`; declarative validation reports `Required value` when absent. */
  required?: boolean;
  /** Default applied when the field is absent (a JSON value, deep-copied on use). */
  default?: unknown;
  description?: string;
  /**
   * Go's `omitempty`: when false the field is written even when empty (e.g. `creationTimestamp: null`,
   * `status: {}`). Default true.
   */
  omitEmpty?: boolean;
  /**
   * The Go field is a pointer (`*T`). Without `omitempty` (`omitEmpty: false`) it is written even
   * when unset, as `null` rather than the type's zero (`"onExitCodes": null`, a Deployment's
   * `"selector": null`). With `omitempty` it is left out only when unset: a set empty value is
   * kept, in JSON and protobuf (a `*string` whose `""` means something, as a claim's
   * `storageClassName: ""`, "no class").
   */
  pointer?: boolean;
  /**
   * Go inline embedding (`json:",inline"`): in JSON the property sits flat in this struct, in
   * protobuf it belongs to the embedded message `id` carried at field number `proto` of this
   * struct, where `Field.proto` is its number (e.g. `ConfigMapVolumeSource.name` is field 1 of
   * the `LocalObjectReference` at field 1).
   */
  embedded?: Embedding;
  /** Strategic-merge strategy of a struct-valued field (`retainKeys`, e.g. DeploymentSpec.strategy). */
  patchStrategy?: string;
}

/** A named struct type (a Go struct): `id` is its definition name without the vendor prefix. */
export interface StructSchema extends SchemaBase {
  type: 'struct';
  /** Definition id, e.g. `api.core.v1.Container` or `apimachinery.pkg.apis.meta.v1.ObjectMeta`. */
  id: string;
  /** Properties; a thunk for recursive types. */
  fields: Record<string, Field> | (() => Record<string, Field>);
  /** `x-orch-map-type` for structs (structType): `atomic` or `granular` (default). */
  mapType?: 'atomic' | 'granular';
  /** `x-orch-preserve-unknown-fields`: keep properties not in `fields` (CRDs). */
  preserveUnknownFields?: boolean;
  /**
   * Per-type defaulting hook run after field defaults, like upstream `SetDefaults_<Type>`; it may
   * mutate `obj` (an object of this type) and sees the enclosing object as `root`.
   */
  defaulter?: (obj: Record<string, unknown>, root: Record<string, unknown>) => void;
}

export type Schema =
  | StringSchema
  | IntegerSchema
  | NumberSchema
  | BooleanSchema
  | BytesSchema
  | TimeSchema
  | DurationSchema
  | QuantitySchema
  | IntOrStringSchema
  | RawSchema
  | MapSchema
  | ListSchema
  | StructSchema;

/** Resolves a struct's fields (evaluating and caching a thunk). */
export function structFields(s: StructSchema): Record<string, Field> {
  if (typeof s.fields === 'function') {
    const resolved = s.fields();
    (s as { fields: Record<string, Field> }).fields = resolved;
    return resolved;
  }
  return s.fields;
}

/** The effective list type of spec 000 § Merge strategy markers (patchStrategy=merge → map). */
export function effectiveListType(l: ListSchema): { listType: 'atomic' | 'set' | 'map'; keys: string[] } {
  if (l.listType === 'map') return { listType: 'map', keys: l.listMapKeys ?? [] };
  if (l.listType) return { listType: l.listType, keys: [] };
  if (l.patchStrategy?.split(',').includes('merge')) {
    if (l.items.type === 'struct' && l.patchMergeKey) return { listType: 'map', keys: [l.patchMergeKey] };
    return { listType: 'set', keys: [] };
  }
  return { listType: 'atomic', keys: [] };
}
