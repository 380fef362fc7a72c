/**
 * Validation of a CustomResourceDefinition (upstream v1.30 apiextensions
 * `ValidateCustomResourceDefinition`, `…Update`, `ValidateUpdateCustomResourceDefinitionStatus`),
 * in upstream's order, with its messages and the field paths of its internal type
 * (internal-view.ts). The schema of each version and the syntax of printer-column JSONPaths are
 * checked through `hooks` (hooks.ts). Never throws on malformed input.
 */
import { validateAPIApproval } from './api-approval.js';
import { type FieldError, FieldPath, goStringSlice, invalid, required } from '../../apimachinery/field-errors.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../../apimachinery/validation/names.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../apimachinery/validation/object-meta.js';
import { NONE_CONVERSION } from '../../apis/apiextensions/v1/index.js';
import { type CustomResourceDefinition, type CustomResourceDefinitionSpec, EXT } from '../types.js';
import { hasRecognizedReviewVersionOrEmpty, validateConversion, validateEnum } from './conversion.js';
import { goVersions } from './go-syntax.js';
import type { CRDValidationHooks } from './hooks.js';
import { anyStatusEnabled, hasStatus, internalSpec, type InternalSpec, type SchemaHolder, schemaForVersion, subresourcesForVersion, versionsOf } from './internal-view.js';
import { validateNames } from './names.js';
import { schemaHasDefaults } from './schema-walk.js';
import { validateSelectableFields } from './selectable-fields.js';
import { deprecationWarningProblems, validateColumn, validateSubresources } from './version-parts.js';

type Obj = Record<string, unknown>;

const SPEC = FieldPath.of('spec');
const STATUS = FieldPath.of('status');
const REQUIRED_NAME = 'must be spec.names.plural+"."+spec.group';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const metaOf = (crd: CustomResourceDefinition): Obj => (crd.metadata !== null && typeof crd.metadata === 'object' ? crd.metadata : {});
const specOf = (crd: CustomResourceDefinition): CustomResourceDefinitionSpec | undefined =>
  crd.spec !== null && typeof crd.spec === 'object' ? crd.spec : undefined;

/** What an update relaxes or tightens (upstream `validationOptions` built from the old object). */
interface Options {
  isUpdate: boolean;
  old?: CustomResourceDefinition;
  requireOpenAPISchema: boolean;
  requireRecognizedConversionReviewVersion: boolean;
  requireImmutableNames: boolean;
}

/** Every version of `spec` has a schema (upstream `allVersionsSpecifyOpenAPISchema`). */
function allVersionsHaveSchema(spec: CustomResourceDefinitionSpec | undefined): boolean {
  return (versionsOf(spec) ?? []).every((v) => v.schema?.openAPIV3Schema !== undefined && v.schema?.openAPIV3Schema !== null);
}

/** The definition has the condition `type` with status True. */
function conditionTrue(crd: CustomResourceDefinition, type: string): boolean {
  const conditions = crd.status?.conditions;
  return Array.isArray(conditions) && conditions.some((c) => c?.type === type && c.status === 'True');
}

/** ObjectMeta with the CRD's name rule: a DNS subdomain equal to `<plural>.<group>`. */
function validateMeta(crd: CustomResourceDefinition): FieldError[] {
  const meta = metaOf(crd);
  const errs = validateObjectMeta(meta, false, 'dns1123Subdomain');
  const wanted = `${str(specOf(crd)?.names?.plural)}.${str(specOf(crd)?.group)}`;
  const generateName = str(meta.generateName);
  const name = str(meta.name);
  const isGen = (e: FieldError) => e.field === 'metadata.generateName';
  const isName = (e: FieldError) => e.field === 'metadata.name';
  // Upstream's name function adds its message after the DNS ones of the same field.
  return [
    ...errs.filter(isGen),
    ...(generateName && generateName !== wanted ? [invalid('metadata.generateName', generateName, REQUIRED_NAME)] : []),
    ...errs.filter(isName),
    ...(name && name !== wanted ? [invalid('metadata.name', name, REQUIRED_NAME)] : []),
    ...errs.filter((e) => !isGen(e) && !isName(e)),
  ];
}

/** Upstream `validateCustomResourceDefinitionValidation`: the schema goes to the hook. */
function validateValidation(
  holder: SchemaHolder | undefined,
  statusEnabled: boolean,
  version: string,
  fldPath: FieldPath,
  hooks: CRDValidationHooks,
  opts: Options,
): FieldError[] {
  const props = holder?.openAPIV3Schema;
  if (props === undefined || props === null) return [];
  const oldProps = opts.old ? schemaForVersion(specOf(opts.old), version) : undefined;
  return hooks.schema(props, fldPath.child('openAPIV3Schema'), { statusEnabled, isUpdate: opts.isUpdate, ...(oldProps ? { oldProps } : {}) });
}

/** Selectable fields need a schema to resolve against. */
function validateSelectable(fields: unknown, holder: SchemaHolder | undefined, fldPath: FieldPath, missingSchema: string): FieldError[] {
  if (!Array.isArray(fields) || fields.length === 0) return [];
  const root = holder?.openAPIV3Schema;
  if (root === undefined || root === null) return [invalid(fldPath, '', missingSchema)];
  return validateSelectableFields(fields, root, fldPath);
}

/** The versions: names, per-version parts, uniqueness and the single storage version. */
function validateVersions(spec: InternalSpec, hooks: CRDValidationHooks, opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  const versions = spec.versions ?? [];
  let storageCount = 0;
  const names = new Set<string>();
  let unique = true;
  versions.forEach((v, i) => {
    const path = SPEC.child('versions').index(i);
    const name = str(v.name);
    if (v.storage === true) storageCount++;
    if (names.has(name)) unique = false;
    names.add(name);
    const nameMsgs = isDNS1035Label(name);
    if (nameMsgs.length > 0) errs.push(invalid(path.child('name'), name, nameMsgs.join(',')));
    const warning = typeof v.deprecationWarning === 'string' ? v.deprecationWarning : undefined;
    for (const p of deprecationWarningProblems(v.deprecated === true, warning)) errs.push(invalid(path.child('deprecationWarning'), warning, p));
    const statusEnabled = hasStatus(subresourcesForVersion(spec, v));
    errs.push(...validateValidation(v.schema ?? undefined, statusEnabled, name, path.child('schema'), hooks, opts));
    errs.push(...validateSubresources(v.subresources ?? undefined, path.child('subresources')));
    (Array.isArray(v.additionalPrinterColumns) ? v.additionalPrinterColumns : []).forEach((c, j) => {
      errs.push(...validateColumn(c ?? {}, path.child('additionalPrinterColumns').index(j), hooks));
    });
    errs.push(...validateSelectable(v.selectableFields, v.schema ?? undefined, path.child('selectableFields'), 'selectableFields may only be set when version.schema.openAPIV3Schema is not included'));
  });
  if (!unique) errs.push(invalid(SPEC.child('versions'), goVersions(spec.versions), 'must contain unique version names'));
  if (storageCount !== 1) errs.push(invalid(SPEC.child('versions'), goVersions(spec.versions), 'must have exactly one version marked as storage version'));
  if (spec.version.length > 0) {
    const msgs = isDNS1035Label(spec.version);
    if (msgs.length > 0) errs.push(invalid(SPEC.child('version'), spec.version, msgs.join(',')));
  }
  return errs;
}

/** Upstream `validateCustomResourceDefinitionSpec`. */
function validateSpec(v1: CustomResourceDefinitionSpec | undefined, hooks: CRDValidationHooks, opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  const spec = internalSpec(v1);
  const group = str(v1?.group);
  if (group.length === 0) errs.push(required(SPEC.child('group')));
  else {
    const msgs = isDNS1123Subdomain(group);
    if (msgs.length > 0) errs.push(invalid(SPEC.child('group'), group, msgs.join(',')));
    else if (!group.includes('.')) errs.push(invalid(SPEC.child('group'), group, 'should be a domain with at least one dot'));
  }
  errs.push(...validateEnum(SPEC.child('scope'), str(v1?.scope), ['Cluster', 'Namespaced']));
  const preserveUnknownFields = v1?.preserveUnknownFields === true;
  const topSchema = spec.validation?.openAPIV3Schema;
  if (topSchema === undefined || topSchema === null) {
    (spec.versions ?? []).forEach((v, i) => {
      if (v.schema?.openAPIV3Schema !== undefined && v.schema?.openAPIV3Schema !== null) return;
      const path = SPEC.child('versions').index(i).child('schema').child('openAPIV3Schema');
      if (opts.requireOpenAPISchema) errs.push(required(path, 'schemas are required'));
      else if (!preserveUnknownFields && v.served === true) errs.push(required(path, 'because otherwise all fields are pruned'));
    });
  }
  const schemas = [topSchema, ...(spec.versions ?? []).map((v) => v.schema?.openAPIV3Schema)];
  if (preserveUnknownFields && schemas.some((s) => s !== undefined && s !== null && schemaHasDefaults(s))) {
    errs.push(invalid(SPEC.child('preserveUnknownFields'), true, 'must be false in order to use defaults in the schema'));
  }
  errs.push(...validateVersions(spec, hooks, opts));
  for (const n of ['plural', 'singular', 'kind', 'listKind'] as const) {
    if (str(v1?.names?.[n]).length === 0) errs.push(required(SPEC.child('names', n)));
  }
  errs.push(...validateNames(v1?.names, SPEC.child('names')));
  errs.push(...validateValidation(spec.validation, anyStatusEnabled(spec), spec.version, SPEC.child('validation'), hooks, opts));
  errs.push(...validateSubresources(spec.subresources, SPEC.child('subresources')));
  (spec.additionalPrinterColumns ?? []).forEach((c, i) => errs.push(...validateColumn(c ?? {}, SPEC.child('additionalPrinterColumns').index(i), hooks)));
  errs.push(...validateSelectable(spec.selectableFields, spec.validation, SPEC.child('selectableFields'), 'selectableFields may only be set when validations.schema is included'));
  const conversion = v1?.conversion ?? undefined;
  if (conversion && str(conversion.strategy) !== NONE_CONVERSION && preserveUnknownFields) {
    errs.push(invalid(SPEC.child('conversion').child('strategy'), str(conversion.strategy), 'must be None if spec.preserveUnknownFields is true'));
  }
  errs.push(...validateConversion(conversion, opts.requireRecognizedConversionReviewVersion, SPEC.child('conversion')));
  return errs;
}

/**
 * Upstream `ValidateCustomResourceDefinitionStoredVersions` at `status.storedVersions`: at least
 * one, the storage version among them, each of them still in `spec.versions`.
 */
export function validateStoredVersions(stored: unknown, spec: CustomResourceDefinitionSpec | undefined): FieldError[] {
  const path = STATUS.child('storedVersions');
  const list = Array.isArray(stored) ? stored.map(str) : [];
  if (list.length === 0) return [invalid(path, goStringSlice(list), 'must have at least one stored version')];
  const errs: FieldError[] = [];
  const remaining = new Map(list.map((v, i) => [v, i]));
  for (const v of versionsOf(spec) ?? []) {
    const name = str(v.name);
    if (v.storage === true && !list.includes(name)) errs.push(invalid(path, goStringSlice(list), `must have the storage version ${name}`));
    remaining.delete(name);
  }
  for (const [v, i] of [...remaining].sort((a, b) => a[1] - b[1])) errs.push(invalid(path.index(i), v, 'must appear in spec.versions'));
  return errs;
}

/** `spec.preserveUnknownFields: true` is refused unless the stored definition already has it. */
function validatePreserveUnknownFields(crd: CustomResourceDefinition, old?: CustomResourceDefinition): FieldError[] {
  if (old && specOf(old)?.preserveUnknownFields === true) return [];
  if (specOf(crd)?.preserveUnknownFields !== true) return [];
  return [invalid(SPEC.child('preserveUnknownFields'), true, `cannot set to true, set ${EXT.preserveUnknownFields} to true in spec.versions[*].schema instead`)];
}

/** `status.acceptedNames` (names rules, nothing required). */
const validateStatus = (crd: CustomResourceDefinition): FieldError[] => validateNames(crd.status?.acceptedNames, STATUS.child('acceptedNames'));

/**
 * The errors of a new definition (upstream `ValidateCustomResourceDefinition`): metadata (name
 * `<plural>.<group>`), spec, status names, stored versions, API approval in protected groups,
 * `preserveUnknownFields`.
 */
export function validateCustomResourceDefinition(crd: CustomResourceDefinition, hooks: CRDValidationHooks): FieldError[] {
  const opts: Options = { isUpdate: false, requireOpenAPISchema: true, requireRecognizedConversionReviewVersion: true, requireImmutableNames: false };
  return [
    ...validateMeta(crd),
    ...validateSpec(specOf(crd), hooks, opts),
    ...validateStatus(crd),
    ...validateStoredVersions(crd.status?.storedVersions, specOf(crd)),
    ...validateAPIApproval(crd),
    ...validatePreserveUnknownFields(crd),
  ];
}

/**
 * The errors of an update (upstream `ValidateCustomResourceDefinitionUpdate`): the spec rules,
 * ratcheted on the old definition (schemas required only if it had them all; a recognized review
 * version only if it had one), group and plural immutable, scope and kind immutable once the old
 * definition is Established; status names, stored versions, `preserveUnknownFields`.
 */
export function validateCustomResourceDefinitionUpdate(crd: CustomResourceDefinition, old: CustomResourceDefinition, hooks: CRDValidationHooks): FieldError[] {
  const oldSpec = specOf(old);
  const opts: Options = {
    isUpdate: true,
    old,
    requireOpenAPISchema: allVersionsHaveSchema(oldSpec),
    requireRecognizedConversionReviewVersion: hasRecognizedReviewVersionOrEmpty(oldSpec?.conversion ?? undefined),
    requireImmutableNames: conditionTrue(old, 'Established'),
  };
  const spec = specOf(crd);
  const errs = [...validateObjectMetaUpdate(metaOf(crd), metaOf(old)), ...validateSpec(spec, hooks, opts)];
  const immutable = (path: FieldPath, value: string, oldValue: string) => {
    if (value !== oldValue) errs.push(invalid(path, value, 'field is immutable'));
  };
  if (opts.requireImmutableNames) {
    immutable(SPEC.child('scope'), str(spec?.scope), str(oldSpec?.scope));
    immutable(SPEC.child('names', 'kind'), str(spec?.names?.kind), str(oldSpec?.names?.kind));
  }
  immutable(SPEC.child('group'), str(spec?.group), str(oldSpec?.group));
  immutable(SPEC.child('names', 'plural'), str(spec?.names?.plural), str(oldSpec?.names?.plural));
  return [...errs, ...validateStatus(crd), ...validateStoredVersions(crd.status?.storedVersions, spec), ...validateAPIApproval(crd, old), ...validatePreserveUnknownFields(crd, old)];
}

/** The errors of a status write (upstream `ValidateUpdateCustomResourceDefinitionStatus`): metadata update rules and status names. */
export function validateCustomResourceDefinitionStatusUpdate(crd: CustomResourceDefinition, old: CustomResourceDefinition): FieldError[] {
  return [...validateObjectMetaUpdate(metaOf(crd), metaOf(old)), ...validateStatus(crd)];
}
