/**
 * `defineKind`: the one declaration of a built-in kind (ARCHITECTURE.md § Layers; EXAMPLES.md
 * § A kind, defined once). Schema, defaults, validation, discovery facts and, later, OpenAPI,
 * protobuf and merge metadata are all derived from the value it returns.
 */
import type { FieldError } from '../apimachinery/field-errors.js';
import { field, listOf, string, struct } from '../apimachinery/schema/builder.js';
import type { Field, StructSchema } from '../apimachinery/schema/types.js';
import type { TablePrinter } from '../apimachinery/table/types.js';
import type { NameRule } from '../apimachinery/validation/names.js';
import { listMeta } from './meta/v1/types.js';

/** A decoded API object (JSON shape). */
export type Obj = Record<string, unknown>;

/** What the kind author declares. */
export interface KindSpec {
  group: string;
  version: string;
  kind: string;
  /** Plural resource name in URLs (`configmaps`). */
  resource: string;
  singular: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  /** Top-level properties other than apiVersion/kind (metadata, spec, status, data…). */
  fields: Record<string, Field>;
  /** Object name syntax (upstream ValidateNameFunc); default `dns1123Subdomain`. */
  nameRule?: NameRule;
  /**
   * The name syntax when it depends on the object (upstream ClusterTrustBundle: its signer name),
   * used instead of `nameRule` on create.
   */
  nameRuleOf?: (obj: Obj) => NameRule;
  /** The kind has a `status` subresource (main writes ignore status, status writes change only status). */
  statusSubresource?: boolean;
  /** Kind-specific validation on create, beyond ObjectMeta and declarative checks. */
  validate?: (obj: Obj) => FieldError[];
  /** Kind-specific validation on update (immutable fields…), beyond `validate`. */
  validateUpdate?: (obj: Obj, old: Obj) => FieldError[];
  /** Validation of a status write. */
  validateStatusUpdate?: (obj: Obj, old: Obj) => FieldError[];
  /** Description of the kind (OpenAPI). */
  description?: string;
  /**
   * Field-selector labels this kind supports beyond `metadata.name` / `metadata.namespace`, each
   * with the function reading its value (upstream `SelectableFields`; spec 000 § Collections).
   */
  fieldSelectors?: Record<string, (obj: Obj) => string>;
  /**
   * One of `fieldSelectors` the watch cache indexes watchers by (upstream's cacher trigger
   * function, `spec.nodeName` for Pods; issue #24 item 1): a watch whose field selector pins it
   * to a value is offered only the events of objects that had or have that value.
   */
  watchIndexField?: string;
  /**
   * The kind's Table columns and cells (spec 000 § Table representation); without it the kind
   * prints the default `Name` / `Created At` table.
   */
  printerColumns?: TablePrinter;
  /**
   * Fields whose string values name an API group (`roleRef.apiGroup`, `subjects[].apiGroup`: dot
   * paths, `[]` after a list field for each element). Served under an upstream alias, their vendor
   * spellings are rewritten as `apiVersion` is (lib/apis/group-alias.ts; issue #9).
   */
  groupReferences?: string[];
  /**
   * The field paths a write through each subresource (`''`: the main resource) resets rather
   * than sets, where they differ from the status-subresource default (upstream strategies'
   * `GetResetFields`): never owned in managed fields, never in conflict.
   */
  resetFields?: Record<string, string[][]>;
  /**
   * The release (`1.19`) since which the kind is deprecated (upstream `APILifecycleDeprecated`):
   * every request served for it warns `<apiVersion> <Kind> is deprecated in v<release>+`.
   */
  deprecatedSince?: string;
  /**
   * The release (`1.32`) from which a deprecated kind is no longer served (upstream
   * `APILifecycleRemoved`): the warning adds `, unavailable in v<release>+` (lib/apis/deprecation.ts).
   */
  removedIn?: string;
  /**
   * The kind that replaces a deprecated one (upstream `APILifecycleReplacement`): the warning adds
   * `; use <group/version> <Kind>`.
   */
  replacement?: { group: string; version: string; kind: string };
  /**
   * The warning every request of a deprecated kind carries when it is not the release-based one of
   * `deprecatedSince` (a CustomResourceDefinition version's `deprecationWarning`, issue #14).
   */
  deprecationWarning?: string;
  /**
   * The kind is a custom resource (issue #14): its objects are unstructured JSON under a
   * structural schema, decoded, defaulted and encoded by these hooks instead of the typed ones.
   */
  custom?: CustomKindHooks;
}

/**
 * How a custom resource's objects are decoded (upstream's unstructured path; spec 000 § Field
 * validation levels: custom definitions that preserve unknown fields): no type errors at decode
 * time (a wrong type is a 422 of validation), unknown fields pruned and reported, defaults applied,
 * and the encoding order of Go maps (every object's keys sorted).
 */
export interface CustomKindHooks {
  /** Prunes unknown fields of `obj` in place; returns their paths (`spec.foo`) for the field validation level. */
  prune(obj: Obj): string[];
  /** Applies the schema's defaults to `obj` in place. */
  applyDefaults(obj: Obj): void;
  /** The schema declares defaults somewhere (objects read need defaulting). */
  readonly defaulting: boolean;
  /** The encoded form of `obj`: a new object with every object's keys sorted. */
  canonicalize(obj: Obj): Obj;
}

/** A kind definition with derived facts. */
export interface KindDefinition extends Required<Omit<KindSpec, 'validate' | 'validateUpdate' | 'validateStatusUpdate' | 'nameRuleOf' | 'description' | 'printerColumns' | 'resetFields' | 'deprecatedSince' | 'removedIn' | 'replacement' | 'deprecationWarning' | 'custom' | 'watchIndexField'>> {
  printerColumns?: TablePrinter;
  nameRuleOf?: (obj: Obj) => NameRule;
  deprecatedSince?: string;
  removedIn?: string;
  replacement?: { group: string; version: string; kind: string };
  deprecationWarning?: string;
  custom?: CustomKindHooks;
  watchIndexField?: string;
  resetFields?: Record<string, string[][]>;
  validate?: (obj: Obj) => FieldError[];
  validateUpdate?: (obj: Obj, old: Obj) => FieldError[];
  validateStatusUpdate?: (obj: Obj, old: Obj) => FieldError[];
  description?: string;
  /** `v1` or `apps/v1`. */
  apiVersion: string;
  listKind: string;
  /** The object's struct schema (with apiVersion and kind). */
  schema: StructSchema;
  /** The `<Kind>List` struct schema. */
  listSchema: StructSchema;
}

/**
 * Go package short name used in definition ids: `''` → `core`, `rbac.authorization.x` → `rbac`,
 * `internal.apiserver.x` → `apiserverinternal` (upstream's package of StorageVersion).
 */
export function packageOf(group: string): string {
  if (group === '') return 'core';
  return group.startsWith('internal.apiserver.') ? 'apiserverinternal' : group.split('.')[0]!;
}

/** TypeMeta, inline in every kind and list, in upstream's declaration order: kind, then apiVersion. */
const typeMetaFields = {
  kind: field(0, string),
  apiVersion: field(0, string),
};

/** Declares a kind; see KindSpec. */
export function defineKind(spec: KindSpec): KindDefinition {
  const id = `api.${packageOf(spec.group)}.${spec.version}.${spec.kind}`;
  const schema = struct(id, { ...typeMetaFields, ...spec.fields }, spec.description ? { description: spec.description } : {});
  const listSchema = struct(`${id}List`, {
    ...typeMetaFields,
    metadata: field(1, listMeta),
    items: field(2, listOf(schema), { required: true, omitEmpty: false }),
  });
  return {
    shortNames: [],
    categories: [],
    nameRule: 'dns1123Subdomain',
    statusSubresource: false,
    fieldSelectors: {},
    groupReferences: [],
    ...spec,
    apiVersion: spec.group ? `${spec.group}/${spec.version}` : spec.version,
    listKind: `${spec.kind}List`,
    schema,
    listSchema,
  };
}

/**
 * Another version of a kind (issue #15: pre-release versions served over the GA objects, whose
 * objects the GA version validates after conversion): `base`'s names, scope, subresource,
 * description, printer, name rule, field selectors and group references under `version`, with the
 * version's own `fields` and `extra` (its lifecycle, a description of its own…); no validation
 * hooks of its own.
 */
export function defineKindVersion(base: KindDefinition, version: string, fields: Record<string, Field>, extra: Partial<KindSpec> = {}): KindDefinition {
  return defineKind({
    group: base.group,
    version,
    kind: base.kind,
    resource: base.resource,
    singular: base.singular,
    namespaced: base.namespaced,
    shortNames: base.shortNames,
    categories: base.categories,
    nameRule: base.nameRule,
    statusSubresource: base.statusSubresource,
    fieldSelectors: base.fieldSelectors,
    groupReferences: base.groupReferences,
    ...(base.description !== undefined ? { description: base.description } : {}),
    ...(base.printerColumns !== undefined ? { printerColumns: base.printerColumns } : {}),
    fields,
    ...extra,
  });
}
