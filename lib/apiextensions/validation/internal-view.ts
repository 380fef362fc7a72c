/**
 * The internal form upstream validates a v1 CustomResourceDefinition spec in (upstream v1.30
 * `Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec`):
 * `version` is the first version's name, and each per-version part (schema, subresources,
 * printer columns, selectable fields) that is the same in every version moves to the top level
 * and is cleared in the versions. Upstream's error paths follow this form
 * (`spec.validation.openAPIV3Schema…`, `spec.subresources.scale…`, `spec.additionalPrinterColumns[0]…`
 * for a single-version definition), so the validation walks it too.
 */
import type {
  CustomResourceColumnDefinition,
  CustomResourceDefinitionSpec,
  CustomResourceDefinitionVersion,
  CustomResourceSubresources,
  JSONSchemaProps,
  SelectableField,
} from '../types.js';

/** `spec.validation` / `versions[].schema` (upstream CustomResourceValidation). */
export interface SchemaHolder {
  openAPIV3Schema?: JSONSchemaProps;
}

/** A version in the internal form (hoisted parts cleared). */
export type InternalVersion = CustomResourceDefinitionVersion;

/** The parts of an internal spec the validation reads beyond the v1 ones. */
export interface InternalSpec {
  /** `spec.version`: the first version's name, `''` without versions. */
  version: string;
  validation?: SchemaHolder;
  subresources?: CustomResourceSubresources;
  additionalPrinterColumns?: CustomResourceColumnDefinition[];
  selectableFields?: SelectableField[];
  /** The versions as decoded (`undefined` when absent), hoisted parts cleared. */
  versions: InternalVersion[] | undefined;
}

const isEmptyValue = (v: unknown): boolean => v === undefined || v === null || v === false || v === 0 || v === '' || (Array.isArray(v) && v.length === 0);

/**
 * Go's semantic equality of two decoded values (apimachinery `Semantic.DeepEqual`): an absent
 * property equals its zero value (`false`, `0`, `""`, an empty or nil list); an empty object is
 * kept (a non-nil pointer to an empty struct differs from nil).
 */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (isEmptyValue(a) && isEmptyValue(b)) return true;
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => semanticEqual(x, b[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  for (const k of new Set([...Object.keys(ao), ...Object.keys(bo)])) if (!semanticEqual(ao[k], bo[k])) return false;
  return true;
}

/** A pointer-valued part: absent and null are nil. */
const nilOr = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

/** The versions of `spec` as an array (`undefined` when the field is absent or not a list). */
export function versionsOf(spec: CustomResourceDefinitionSpec | undefined): CustomResourceDefinitionVersion[] | undefined {
  const v = spec?.versions as unknown;
  return Array.isArray(v) ? (v.filter((x) => x !== null && typeof x === 'object') as CustomResourceDefinitionVersion[]) : undefined;
}

/** The internal form of a v1 spec (see the module description); `spec` is not modified. */
export function internalSpec(spec: CustomResourceDefinitionSpec | undefined): InternalSpec {
  const versions = versionsOf(spec);
  if (!versions || versions.length === 0) return { version: '', versions };
  const first = versions[0]!;
  const same = (read: (v: CustomResourceDefinitionVersion) => unknown) => versions.every((v) => semanticEqual(read(v), read(first)));
  const subresources = same((v) => nilOr(v.subresources));
  const validation = same((v) => nilOr(v.schema));
  const columns = same((v) => v.additionalPrinterColumns);
  const selectable = validation && same((v) => v.selectableFields);
  const out: InternalSpec = { version: typeof first.name === 'string' ? first.name : '', versions: [] };
  if (subresources) out.subresources = nilOr(first.subresources);
  if (validation) out.validation = nilOr(first.schema);
  if (columns) out.additionalPrinterColumns = first.additionalPrinterColumns;
  if (selectable) out.selectableFields = first.selectableFields;
  out.versions = versions.map((v) => {
    const iv: InternalVersion = { ...v };
    if (subresources) delete iv.subresources;
    if (validation) delete iv.schema;
    if (columns) delete iv.additionalPrinterColumns;
    if (selectable) delete iv.selectableFields;
    return iv;
  });
  return out;
}

/** The subresources that apply to a version (upstream `getSubresourcesForVersion`). */
export function subresourcesForVersion(spec: InternalSpec, v: InternalVersion): CustomResourceSubresources | undefined {
  const perVersion = (spec.versions ?? []).some((x) => nilOr(x.subresources) !== undefined);
  return perVersion ? nilOr(v.subresources) : spec.subresources;
}

/** Some version (or the top level) enables the status subresource (upstream `hasAnyStatusEnabled`). */
export function anyStatusEnabled(spec: InternalSpec): boolean {
  return hasStatus(spec.subresources) || (spec.versions ?? []).some((v) => hasStatus(nilOr(v.subresources)));
}

/** The subresources enable `/status` (a non-null `status`). */
export function hasStatus(s: CustomResourceSubresources | undefined): boolean {
  return s !== undefined && s.status !== undefined && s.status !== null;
}

/**
 * The schema of a version in a v1 spec (upstream `GetSchemaForVersion` on the old object):
 * `undefined` when the version or its schema is missing.
 */
export function schemaForVersion(spec: CustomResourceDefinitionSpec | undefined, name: string): JSONSchemaProps | undefined {
  return nilOr(versionsOf(spec)?.find((v) => v.name === name)?.schema?.openAPIV3Schema);
}
