/**
 * One served version of a CustomResourceDefinition as the server uses it (issue #14): the
 * KindDefinition the generic machinery serves (type model for managed fields and OpenAPI, Table
 * printer, field selectors, the unstructured decode hooks), and the validation of its objects
 * (structural schema values and `x-<vendor>-validations` rules). Built once per CRD generation and
 * version; everything compiled here is reused by every request.
 */
import type { FieldError } from '../apimachinery/field-errors.js';
import { FieldPath, invalid } from '../apimachinery/field-errors.js';
import { goJSONType, goSprint } from '../apimachinery/go-format.js';
import { field, listOf, string, struct } from '../apimachinery/schema/builder.js';
import { sortedDeep } from '../apimachinery/schema/canonical.js';
import { structFields, type StructSchema } from '../apimachinery/schema/types.js';
import type { CustomKindHooks, KindDefinition, Obj } from '../apis/define.js';
import { listMeta } from '../apis/meta/v1/types.js';
import { compileSchemaRules, evaluateSchemaRules } from './cel/index.js';
import { newCustomResourceTablePrinter, selectableFieldValue } from './printer/index.js';
import { toStructSchema } from './schema/model.js';
import type { CustomResourceDefinition, CustomResourceDefinitionVersion, CustomResourceSubresourceScale, JSONSchemaProps } from './types.js';
import { applyDefaults } from './values/defaults.js';
import { pruneUnknownFields } from './values/prune.js';
import { validateCustomResourceValue } from './values/validate.js';

/** A served version of a CRD, compiled. */
export interface CustomResourceVersion {
  /** The served kind (`<group>/<version>`, the CRD's names and scope). */
  readonly kind: KindDefinition;
  /** The version's structural schema (`openAPIV3Schema`). */
  readonly schema: JSONSchemaProps;
  /** The version has the `status` subresource. */
  readonly statusEnabled: boolean;
  /** The version's `scale` subresource, if any. */
  readonly scale?: CustomResourceSubresourceScale;
  /**
   * Validation of an object of this version beyond ObjectMeta: the schema's value checks, then —
   * unless a value has the wrong type — the expression rules; with `old` (an update) transition
   * rules run and, with the `ratcheting` option, both ratchet (errors of values equal to the old
   * ones are dropped).
   * `statusWrite`: a write of the status subresource (the scale spec is not checked).
   * Returns the field errors (empty when valid) and the rules' warnings.
   */
  validate(obj: Obj, old?: Obj, statusWrite?: boolean): { errors: FieldError[]; warnings: string[] };
}

/**
 * Feature-gated behaviour of custom resources (spec 001 § Deprecation rules, rule 7):
 * `ratcheting` (CRDValidationRatcheting): updates drop the schema errors of values unchanged from
 * the old object; `selectableFields` (CustomResourceFieldSelectors): the version's
 * `selectableFields` are field selector labels.
 */
export interface CustomResourceOptions {
  readonly ratcheting: boolean;
  readonly selectableFields: boolean;
}

/** The options with upstream v1.30's gate defaults (ratcheting on, selectable fields off). */
export const DEFAULT_CUSTOM_RESOURCE_OPTIONS: CustomResourceOptions = { ratcheting: true, selectableFields: false };

/** Errors after which the expression rules are not run (upstream's hasBlockingErr). */
const BLOCKING: ReadonlySet<FieldError['type']> = new Set(['NotSupported', 'Required', 'TooLong', 'TooMany', 'TypeInvalid']);

/** What is reported instead of the rules then, at upstream's nil path. */
const RULES_NOT_CHECKED: FieldError = {
  type: 'Invalid',
  field: '<nil>',
  badValue: null,
  detail: 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
};

/** Upstream's OpenAPI definition id of a custom kind: the group reversed, the version, the kind (`com.example.stable.v1.CronTab`). */
export function customDefinitionId(group: string, version: string, kind: string): string {
  return [...group.split('.').reverse(), version, kind].join('.');
}

/**
 * The scale subresource's checks of an object (upstream's custom resource validator): the
 * replicas at `specReplicasPath` (main writes only) and `statusReplicasPath` must be int64 values
 * in [0, 2147483647], the selector at `labelSelectorPath` a string. Paths print as declared
 * (`.spec.replicas`); a value of another type is reported as unstructured's accessor error.
 */
function validateScale(obj: Obj, scale: CustomResourceSubresourceScale | undefined, withSpec: boolean): FieldError[] {
  if (!scale) return [];
  const errs: FieldError[] = [];
  const read = (path: string): { value: unknown; at: string } => {
    const segments = path.replace(/^\./, '').split('.');
    let v: unknown = obj;
    for (const p of segments) v = v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj)[p] : undefined;
    return { value: v, at: `.${segments.join('.')}` };
  };
  const replicas = (path: string) => {
    const { value, at } = read(path);
    if (value === undefined || value === null) return;
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      errs.push(invalid(FieldPath.of(path), 0, `${at} accessor error: ${goSprint(value)} is of the type ${goJSONType(value)}, expected int64`));
    } else if (value < 0) errs.push(invalid(FieldPath.of(path), value, 'should be a non-negative integer'));
    else if (value > 2147483647) errs.push(invalid(FieldPath.of(path), value, 'should be less than or equal to 2147483647'));
  };
  if (withSpec) replicas(scale.specReplicasPath);
  replicas(scale.statusReplicasPath);
  if (scale.labelSelectorPath) {
    const { value, at } = read(scale.labelSelectorPath);
    if (value !== undefined && value !== null && typeof value !== 'string') {
      errs.push(invalid(FieldPath.of(scale.labelSelectorPath), '', `${at} accessor error: ${goSprint(value)} is of the type ${goJSONType(value)}, expected string`));
    }
  }
  return errs;
}

/** True when `schema` declares a `default` anywhere (reads then need defaulting). */
function hasDefaults(schema: unknown): boolean {
  if (schema === null || typeof schema !== 'object') return false;
  if (Array.isArray(schema)) return schema.some(hasDefaults);
  const s = schema as Record<string, unknown>;
  if (s.default !== undefined) return true;
  for (const k of ['properties', 'items', 'additionalProperties', 'allOf', 'anyOf', 'oneOf', 'not']) {
    const v = s[k];
    if (v === undefined) continue;
    if (k === 'properties') {
      if (Object.values(v as Record<string, unknown>).some(hasDefaults)) return true;
    } else if (hasDefaults(v)) return true;
  }
  return false;
}

/** The unstructured decode hooks of one version's schema (KindDefinition.custom). */
function customHooks(schema: JSONSchemaProps): CustomKindHooks {
  const defaults = hasDefaults(schema);
  return {
    defaulting: defaults,
    prune: (obj) => pruneUnknownFields(obj, schema, { isResourceRoot: true }),
    applyDefaults: (obj) => {
      if (defaults) applyDefaults(obj, schema);
    },
    canonicalize: (obj) => sortedDeep(obj) as Obj,
  };
}

/**
 * Compiles version `versionName` of `crd` (which must list it, with a schema: CRD validation
 * guarantees both for a stored CRD) with the feature-gated behaviour of `options`.
 * @throws Error when the version is not in `spec.versions`.
 */
export function customResourceVersion(crd: CustomResourceDefinition, versionName: string, options: CustomResourceOptions = DEFAULT_CUSTOM_RESOURCE_OPTIONS): CustomResourceVersion {
  const spec = crd.spec;
  const v: CustomResourceDefinitionVersion | undefined = spec.versions.find((x) => x.name === versionName);
  if (!v) throw new Error(`version ${versionName} is not listed by ${crd.metadata.name ?? ''}`);
  const schema: JSONSchemaProps = v.schema?.openAPIV3Schema ?? { type: 'object' };
  const names = crd.status?.acceptedNames?.kind ? { ...spec.names, ...crd.status.acceptedNames } : spec.names;
  const id = customDefinitionId(spec.group, v.name, names.kind);
  const root = toStructSchema(schema, id);
  const typeMeta = { kind: field(0, string), apiVersion: field(0, string) };
  const { kind: _k, apiVersion: _a, ...rest } = structFields(root);
  const objSchema: StructSchema = struct(id, { ...typeMeta, ...rest }, { ...(schema.description ? { description: schema.description } : {}) });
  if (root.preserveUnknownFields) objSchema.preserveUnknownFields = true;
  const listSchema = struct(`${id}List`, { ...typeMeta, metadata: field(1, listMeta), items: field(2, listOf(objSchema), { required: true, omitEmpty: false }) });
  const apiVersion = `${spec.group}/${v.name}`;
  const selectable = options.selectableFields ? (v.selectableFields ?? []) : [];
  const fieldSelectors: Record<string, (obj: Obj) => string> = {};
  for (const f of selectable) {
    const label = f.jsonPath.replace(/^\./, '');
    fieldSelectors[label] = (obj) => selectableFieldValue(obj, f.jsonPath) ?? '';
  }
  const hooks = customHooks(schema);
  const kind: KindDefinition = {
    group: spec.group,
    version: v.name,
    kind: names.kind,
    resource: names.plural,
    singular: names.singular ?? names.kind.toLowerCase(),
    namespaced: spec.scope === 'Namespaced',
    shortNames: names.shortNames ?? [],
    categories: names.categories ?? [],
    fields: structFields(objSchema),
    nameRule: 'dns1123Subdomain',
    statusSubresource: v.subresources?.status !== undefined,
    fieldSelectors,
    groupReferences: [],
    apiVersion,
    listKind: names.listKind ?? `${names.kind}List`,
    schema: objSchema,
    listSchema,
    printerColumns: newCustomResourceTablePrinter(v.additionalPrinterColumns),
    custom: hooks,
    ...(v.deprecated ? { deprecationWarning: v.deprecationWarning ?? `${apiVersion} ${names.kind} is deprecated` } : {}),
    ...(schema.description ? { description: schema.description } : {}),
  };
  const rules = compileSchemaRules(schema);
  const scale = v.subresources?.scale;
  return {
    kind,
    schema,
    statusEnabled: kind.statusSubresource,
    ...(scale ? { scale } : {}),
    validate(obj, old, statusWrite = false) {
      const ratcheting = options.ratcheting && old !== undefined;
      const errors = validateCustomResourceValue(obj, schema, old === undefined ? {} : { old, ratcheting });
      errors.push(...validateScale(obj, scale, !statusWrite));
      if (rules.rules.length === 0) return { errors, warnings: [] };
      // Upstream runs the rules only on an object without blocking errors (its hasBlockingErr).
      if (errors.some((e: FieldError) => BLOCKING.has(e.type))) return { errors: [...errors, RULES_NOT_CHECKED], warnings: [] };
      const result = evaluateSchemaRules(rules, obj, old, { ratcheting });
      return { errors: [...errors, ...result.errors], warnings: result.warnings };
    },
  };
}
