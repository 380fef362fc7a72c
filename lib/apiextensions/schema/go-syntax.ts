/**
 * Go's `%#v` rendering of an internal apiextensions JSONSchemaProps, which upstream prints as the
 * bad value of two schema errors (`openAPIV3Schema: Invalid value: apiextensions.JSONSchemaProps{…}:
 * only [...] fields are allowed at the root…` and the items of a map-list given as an array).
 * Fields follow upstream's struct order (apiextensions/types_jsonschema.go). Go prints a non-nil
 * nested pointer as its address, which differs on every run; we print `0xc000000000` in its place.
 */
import { GoSyntax } from '../../apimachinery/field-errors.js';
import { EXT, type JSONSchemaProps } from '../types.js';
import { isObject, schemaAt } from './access.js';

const PKG = 'apiextensions';
const ADDRESS = '0xc000000000';

const quote = (v: unknown): string => JSON.stringify(typeof v === 'string' ? v : '');
const bool = (v: unknown): string => String(v === true);
const ptr = (type: string, v: unknown): string => `(*${type})(${v === undefined || v === null ? 'nil' : ADDRESS})`;

/** `%#v` of a JSON value held in an `interface{}` (a `JSON`). */
function goValue(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') return Number.isInteger(v) ? `${v}` : String(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goValue).join(', ')}}`;
  const entries = Object.keys(v as object).sort().map((k) => `${JSON.stringify(k)}:${goValue((v as Record<string, unknown>)[k])}`);
  return `map[string]interface {}{${entries.join(', ')}}`;
}

function schemaSlice(v: unknown): string {
  const type = `[]${PKG}.JSONSchemaProps`;
  if (!Array.isArray(v)) return `${type}(nil)`;
  return `${type}{${v.map((s) => props(isObject(s) ? (s as JSONSchemaProps) : {})).join(', ')}}`;
}

function schemaMap(type: string, v: unknown): string {
  if (!isObject(v)) return `${type}(nil)`;
  const entries = Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${props(isObject(v[k]) ? (v[k] as JSONSchemaProps) : {})}`);
  return `${type}{${entries.join(', ')}}`;
}

function stringSlice(v: unknown): string {
  if (!Array.isArray(v)) return '[]string(nil)';
  return `[]string{${v.map(quote).join(', ')}}`;
}

function dependencies(v: unknown): string {
  const type = `${PKG}.JSONSchemaDependencies`;
  if (!isObject(v)) return `${type}(nil)`;
  const entries = Object.keys(v).sort().map((k) => {
    const d = v[k];
    const schema = ptr(`${PKG}.JSONSchemaProps`, isObject(d) ? d : undefined);
    return `${JSON.stringify(k)}:${PKG}.JSONSchemaPropsOrStringArray{Schema:${schema}, Property:${stringSlice(Array.isArray(d) ? d : undefined)}}`;
  });
  return `${type}{${entries.join(', ')}}`;
}

function rules(v: unknown): string {
  const type = `${PKG}.ValidationRules`;
  if (!Array.isArray(v)) return `${type}(nil)`;
  const items = v.map((r) => {
    const o = isObject(r) ? r : {};
    return `${PKG}.ValidationRule{Rule:${quote(o.rule)}, Message:${quote(o.message)}, MessageExpression:${quote(o.messageExpression)}, Reason:${ptr(`${PKG}.FieldValueErrorReason`, o.reason)}, FieldPath:${quote(o.fieldPath)}, OptionalOldSelf:${ptr('bool', o.optionalOldSelf)}}`;
  });
  return `${type}{${items.join(', ')}}`;
}

/** `apiextensions.JSONSchemaProps{ID:"", Schema:"", …}` for `s`. */
function props(s: JSONSchemaProps): string {
  const fields: Array<[string, string]> = [
    ['ID', quote(s.id)],
    ['Schema', quote(s.$schema)],
    ['Ref', ptr('string', s.$ref)],
    ['Description', quote(s.description)],
    ['Type', quote(s.type)],
    ['Nullable', bool(s.nullable)],
    ['Format', quote(s.format)],
    ['Title', quote(s.title)],
    ['Default', ptr(`${PKG}.JSON`, s.default)],
    ['Maximum', ptr('float64', s.maximum)],
    ['ExclusiveMaximum', bool(s.exclusiveMaximum)],
    ['Minimum', ptr('float64', s.minimum)],
    ['ExclusiveMinimum', bool(s.exclusiveMinimum)],
    ['MaxLength', ptr('int64', s.maxLength)],
    ['MinLength', ptr('int64', s.minLength)],
    ['Pattern', quote(s.pattern)],
    ['MaxItems', ptr('int64', s.maxItems)],
    ['MinItems', ptr('int64', s.minItems)],
    ['UniqueItems', bool(s.uniqueItems)],
    ['MultipleOf', ptr('float64', s.multipleOf)],
    ['Enum', Array.isArray(s.enum) ? `[]${PKG}.JSON{${s.enum.map(goValue).join(', ')}}` : `[]${PKG}.JSON(nil)`],
    ['MaxProperties', ptr('int64', s.maxProperties)],
    ['MinProperties', ptr('int64', s.minProperties)],
    ['Required', stringSlice(s.required)],
    ['Items', ptr(`${PKG}.JSONSchemaPropsOrArray`, s.items)],
    ['AllOf', schemaSlice(s.allOf)],
    ['OneOf', schemaSlice(s.oneOf)],
    ['AnyOf', schemaSlice(s.anyOf)],
    ['Not', ptr(`${PKG}.JSONSchemaProps`, s.not)],
    ['Properties', schemaMap(`map[string]${PKG}.JSONSchemaProps`, s.properties)],
    ['AdditionalProperties', ptr(`${PKG}.JSONSchemaPropsOrBool`, s.additionalProperties)],
    ['PatternProperties', schemaMap(`map[string]${PKG}.JSONSchemaProps`, s.patternProperties)],
    ['Dependencies', dependencies(s.dependencies)],
    ['AdditionalItems', ptr(`${PKG}.JSONSchemaPropsOrBool`, s.additionalItems)],
    ['Definitions', schemaMap(`${PKG}.JSONSchemaDefinitions`, s.definitions)],
    ['ExternalDocs', ptr(`${PKG}.ExternalDocumentation`, s.externalDocs)],
    ['Example', ptr(`${PKG}.JSON`, s.example)],
    ['XPreserveUnknownFields', ptr('bool', s[EXT.preserveUnknownFields])],
    ['XEmbeddedResource', bool(s[EXT.embeddedResource])],
    ['XIntOrString', bool(s[EXT.intOrString])],
    ['XListMapKeys', stringSlice(s[EXT.listMapKeys])],
    ['XListType', ptr('string', s[EXT.listType])],
    ['XMapType', ptr('string', s[EXT.mapType])],
    ['XValidations', rules(s[EXT.validations])],
  ];
  return `${PKG}.JSONSchemaProps{${fields.map(([k, v]) => `${k}:${v}`).join(', ')}}`;
}

/** The bad value `apiextensions.JSONSchemaProps{…}` upstream prints for a whole schema node. */
export function goSchemaProps(s: JSONSchemaProps): GoSyntax {
  return new GoSyntax(props(s));
}

/** The bad value `apiextensions.JSONSchemaPropsOrArray{…}` upstream prints for an `items` member (pointers are dereferenced). */
export function goSchemaPropsOrArray(s: JSONSchemaProps): GoSyntax {
  const single = schemaAt(s, 'items');
  return new GoSyntax(`${PKG}.JSONSchemaPropsOrArray{Schema:${ptr(`${PKG}.JSONSchemaProps`, single)}, JSONSchemas:${schemaSlice(Array.isArray(s.items) ? s.items : undefined)}}`);
}
