/**
 * Go's `%#v` rendering of an internal apiextensions JSONSchemaProps, which upstream prints as the
 * bad value of two schema errors (`openAPIV3Schema: Invalid value: apiextensions.JSONSchemaProps{…}:
 * only [...] fields are allowed at the root…` and the items of a map-list given as an array).
 * Fields follow upstream's struct order (apiextensions/types_jsonschema.go); the shared pieces
 * (strings, bools, pointers, rules) are in ../go-syntax.ts.
 */
import { GoSyntax } from '../../apimachinery/field-errors.js';
import { goSyntaxString } from '../../apimachinery/go-format.js';
import { goQuote } from '../../apimachinery/go-quote.js';
import { bool, PKG, pointer, quote, validationRuleText } from '../go-syntax.js';
import { EXT, type JSONSchemaProps } from '../types.js';
import { isObject, schemaAt } from './access.js';

function schemaSlice(v: unknown): string {
  const type = `[]${PKG}.JSONSchemaProps`;
  if (!Array.isArray(v)) return `${type}(nil)`;
  return `${type}{${v.map((s) => props(isObject(s) ? (s as JSONSchemaProps) : {})).join(', ')}}`;
}

function schemaMap(type: string, v: unknown): string {
  if (!isObject(v)) return `${type}(nil)`;
  const entries = Object.keys(v).sort().map((k) => `${goQuote(k)}:${props(isObject(v[k]) ? (v[k] as JSONSchemaProps) : {})}`);
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
    const schema = pointer(`${PKG}.JSONSchemaProps`, isObject(d) ? d : undefined);
    return `${goQuote(k)}:${PKG}.JSONSchemaPropsOrStringArray{Schema:${schema}, Property:${stringSlice(Array.isArray(d) ? d : undefined)}}`;
  });
  return `${type}{${entries.join(', ')}}`;
}

function rules(v: unknown): string {
  const type = `${PKG}.ValidationRules`;
  if (!Array.isArray(v)) return `${type}(nil)`;
  const items = v.map((r) => validationRuleText(isObject(r) ? r : {}));
  return `${type}{${items.join(', ')}}`;
}

/** `apiextensions.JSONSchemaProps{ID:"", Schema:"", …}` for `s`. */
function props(s: JSONSchemaProps): string {
  const fields: Array<[string, string]> = [
    ['ID', quote(s.id)],
    ['Schema', quote(s.$schema)],
    ['Ref', pointer('string', s.$ref)],
    ['Description', quote(s.description)],
    ['Type', quote(s.type)],
    ['Nullable', bool(s.nullable)],
    ['Format', quote(s.format)],
    ['Title', quote(s.title)],
    ['Default', pointer(`${PKG}.JSON`, s.default)],
    ['Maximum', pointer('float64', s.maximum)],
    ['ExclusiveMaximum', bool(s.exclusiveMaximum)],
    ['Minimum', pointer('float64', s.minimum)],
    ['ExclusiveMinimum', bool(s.exclusiveMinimum)],
    ['MaxLength', pointer('int64', s.maxLength)],
    ['MinLength', pointer('int64', s.minLength)],
    ['Pattern', quote(s.pattern)],
    ['MaxItems', pointer('int64', s.maxItems)],
    ['MinItems', pointer('int64', s.minItems)],
    ['UniqueItems', bool(s.uniqueItems)],
    ['MultipleOf', pointer('float64', s.multipleOf)],
    ['Enum', Array.isArray(s.enum) ? `[]${PKG}.JSON{${s.enum.map(goSyntaxString).join(', ')}}` : `[]${PKG}.JSON(nil)`],
    ['MaxProperties', pointer('int64', s.maxProperties)],
    ['MinProperties', pointer('int64', s.minProperties)],
    ['Required', stringSlice(s.required)],
    ['Items', pointer(`${PKG}.JSONSchemaPropsOrArray`, s.items)],
    ['AllOf', schemaSlice(s.allOf)],
    ['OneOf', schemaSlice(s.oneOf)],
    ['AnyOf', schemaSlice(s.anyOf)],
    ['Not', pointer(`${PKG}.JSONSchemaProps`, s.not)],
    ['Properties', schemaMap(`map[string]${PKG}.JSONSchemaProps`, s.properties)],
    ['AdditionalProperties', pointer(`${PKG}.JSONSchemaPropsOrBool`, s.additionalProperties)],
    ['PatternProperties', schemaMap(`map[string]${PKG}.JSONSchemaProps`, s.patternProperties)],
    ['Dependencies', dependencies(s.dependencies)],
    ['AdditionalItems', pointer(`${PKG}.JSONSchemaPropsOrBool`, s.additionalItems)],
    ['Definitions', schemaMap(`${PKG}.JSONSchemaDefinitions`, s.definitions)],
    ['ExternalDocs', pointer(`${PKG}.ExternalDocumentation`, s.externalDocs)],
    ['Example', pointer(`${PKG}.JSON`, s.example)],
    ['XPreserveUnknownFields', pointer('bool', s[EXT.preserveUnknownFields])],
    ['XEmbeddedResource', bool(s[EXT.embeddedResource])],
    ['XIntOrString', bool(s[EXT.intOrString])],
    ['XListMapKeys', stringSlice(s[EXT.listMapKeys])],
    ['XListType', pointer('string', s[EXT.listType])],
    ['XMapType', pointer('string', s[EXT.mapType])],
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
  return new GoSyntax(`${PKG}.JSONSchemaPropsOrArray{Schema:${pointer(`${PKG}.JSONSchemaProps`, single)}, JSONSchemas:${schemaSlice(Array.isArray(s.items) ? s.items : undefined)}}`);
}
