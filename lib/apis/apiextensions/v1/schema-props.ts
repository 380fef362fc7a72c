/**
 * JSONSchemaProps of `apiextensions.<vendor>/v1` (upstream v1.30
 * `k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1` `JSONSchemaProps`): every field in
 * the Go type's order with its JSON name, `omitempty`, pointers and protobuf number, the schema
 * extensions named by their vendor keys (`x-<vendor>-…`, the keys lib/apiextensions/types.ts `EXT`
 * names; built here from vendor.ts, as lib/apis imports no higher layer). The type is
 * recursive (`properties`, `allOf`, `not`… hold schemas), declared with a thunk. Values that are
 * arbitrary JSON (`default`, `example`, `enum` items) are raw. Upstream's "either" types —
 * `items` (JSONSchemaPropsOrArray: a schema or a list of schemas), `additionalProperties` and
 * `additionalItems` (JSONSchemaPropsOrBool: a schema or a boolean), the values of `dependencies`
 * (JSONSchemaPropsOrStringArray) — are raw too, kept as written: the type model has no union.
 */
import { boolean, field, float64, int64, listOf, mapOf, raw, string, struct } from '../../../apimachinery/schema/builder.js';
import type { Field, StructSchema } from '../../../apimachinery/schema/types.js';
import { schemaExtension } from '../../vendor.js';

const AX = 'apiextensions-apiserver.pkg.apis.apiextensions.v1';

/** `externalDocs` (upstream ExternalDocumentation). */
export const externalDocumentation = struct(`${AX}.ExternalDocumentation`, {
  description: field(1, string),
  url: field(2, string),
});

/** One `x-<vendor>-validations` rule (upstream ValidationRule). */
export const validationRule = struct(`${AX}.ValidationRule`, {
  rule: field(1, string, { required: true, omitEmpty: false, description: 'The CEL expression; `self` is the value the rule is attached to.' }),
  message: field(2, string, { description: 'The message shown when the rule fails.' }),
  messageExpression: field(3, string, { description: 'A CEL expression producing the failure message.' }),
  reason: field(4, string, { pointer: true, description: 'FieldValueInvalid (default), FieldValueForbidden, FieldValueRequired or FieldValueDuplicate.' }),
  fieldPath: field(5, string, { description: 'The path of the field reported on failure, relative to the node.' }),
  optionalOldSelf: field(6, boolean, { pointer: true, description: 'Evaluate the transition rule also on create, with `oldSelf` an optional.' }),
});

/** The extension keys, as lib/apiextensions/types.ts `EXT` builds them. */
const EXT = {
  preserveUnknownFields: schemaExtension('preserve-unknown-fields'),
  embeddedResource: schemaExtension('embedded-resource'),
  intOrString: schemaExtension('int-or-string'),
  listMapKeys: schemaExtension('list-map-keys'),
  listType: schemaExtension('list-type'),
  mapType: schemaExtension('map-type'),
  validations: schemaExtension('validations'),
} as const;

const schemaList = (proto: number, description: string): Field => field(proto, listOf(jsonSchemaProps), { description });
const schemaMap = (proto: number, description: string): Field => field(proto, mapOf(jsonSchemaProps), { description });

/** A schema node of a custom resource's OpenAPI v3 validation schema. */
export const jsonSchemaProps: StructSchema = struct(
  `${AX}.JSONSchemaProps`,
  () => ({
    id: field(1, string),
    $schema: field(2, string),
    $ref: field(3, string, { pointer: true }),
    description: field(4, string),
    type: field(5, string),
    format: field(6, string, { description: 'The format of a string, integer or number (int32, date-time, …).' }),
    title: field(7, string),
    default: field(8, raw, { description: 'The default value, any JSON; applied on read and write.' }),
    maximum: field(9, float64, { pointer: true }),
    exclusiveMaximum: field(10, boolean),
    minimum: field(11, float64, { pointer: true }),
    exclusiveMinimum: field(12, boolean),
    maxLength: field(13, int64, { pointer: true }),
    minLength: field(14, int64, { pointer: true }),
    pattern: field(15, string),
    maxItems: field(16, int64, { pointer: true }),
    minItems: field(17, int64, { pointer: true }),
    uniqueItems: field(18, boolean),
    multipleOf: field(19, float64, { pointer: true }),
    enum: field(20, listOf(raw), { description: 'The allowed values, any JSON.' }),
    maxProperties: field(21, int64, { pointer: true }),
    minProperties: field(22, int64, { pointer: true }),
    required: field(23, listOf(string)),
    items: field(24, raw, { description: 'The schema of every item (a list of schemas is refused).' }),
    allOf: schemaList(25, 'Schemas the value must all match.'),
    oneOf: schemaList(26, 'Schemas of which the value must match exactly one.'),
    anyOf: schemaList(27, 'Schemas of which the value must match at least one.'),
    not: field(28, jsonSchemaProps, { description: 'A schema the value must not match.' }),
    properties: schemaMap(29, 'The schemas of the known properties of an object.'),
    additionalProperties: field(30, raw, { description: 'The schema of the values of a map, or a boolean.' }),
    patternProperties: schemaMap(31, 'Not supported.'),
    dependencies: field(32, mapOf(raw), { description: 'Not supported.' }),
    additionalItems: field(33, raw, { description: 'Not supported.' }),
    definitions: schemaMap(34, 'Not supported.'),
    externalDocs: field(35, externalDocumentation),
    example: field(36, raw, { description: 'An example value, any JSON.' }),
    nullable: field(37, boolean, { description: 'null is accepted and kept.' }),
    [EXT.preserveUnknownFields]: field(38, boolean, { pointer: true, description: 'Unknown properties are kept rather than pruned.' }),
    [EXT.embeddedResource]: field(39, boolean, { description: 'The object is a resource with apiVersion, kind and metadata.' }),
    [EXT.intOrString]: field(40, boolean, { description: 'An integer or a string.' }),
    [EXT.listMapKeys]: field(41, listOf(string, { listType: 'atomic' }), { description: 'The keys of a map-typed list.' }),
    [EXT.listType]: field(42, string, { pointer: true, description: 'atomic, set or map.' }),
    [EXT.mapType]: field(43, string, { pointer: true, description: 'granular or atomic.' }),
    [EXT.validations]: field(44, listOf(validationRule, { patchStrategy: 'merge', patchMergeKey: 'rule', listType: 'map', listMapKeys: ['rule'] }), {
      description: 'CEL validation rules of the value.',
    }),
  }),
  { description: 'A JSON-Schema following Specification Draft 4 (OpenAPI v3 subset).' },
);
