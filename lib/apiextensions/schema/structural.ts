/**
 * The structural-schema rules of a CRD's `openAPIV3Schema` (upstream apiserver/schema
 * NewStructural, ValidateStructural and validateStructuralCompleteness, v1.30): every node of the
 * structure has a type; logical junctors (allOf, anyOf, oneOf, not) only validate values and may
 * not declare types, defaults, descriptions, nullability, additionalProperties or extensions;
 * everything a junctor names is also declared in the structure; apiVersion, kind and metadata at
 * the root and in embedded resources keep their meaning; patterns compile. Walked directly on the
 * JSON schema, without building upstream's intermediate Structural value.
 */
import { type FieldError, type FieldPath, fieldErrorString, forbidden, invalid, required } from '../../apimachinery/field-errors.js';
import { EXT, type JSONSchemaProps } from '../types.js';
import { flag, isGoZero, isObject, isZero, itemsSchema, properties, SCHEMA_MEMBERS, schemaAt, schemaList, schemaMap, str } from './access.js';
import { compileRE2 } from '../../apimachinery/re2.js';

type Level = 'root' | 'item' | 'field';

const EMPTY_TYPE_DETAIL: Record<Level, string> = {
  root: 'must not be empty at the root',
  item: 'must not be empty for specified array items',
  field: 'must not be empty for specified object fields',
};

/**
 * Why upstream NewStructural cannot convert `s` (its error text), or undefined. Upstream reports
 * it as `openAPIV3Schema: Invalid value: "": <text>` only when no other schema error was found.
 * Checks in upstream's order: the node's unsupported keywords, its junctors, additionalProperties,
 * the preserve-unknown-fields marker, items, properties.
 */
export function structuralConversionError(s: JSONSchemaProps): string | undefined {
  return unsupported(s) ?? junctorsError(s) ?? apError(s) ?? preserveError(s) ?? itemsError(s, structuralConversionError) ?? propsError(s, structuralConversionError);
}

function nestedConversionError(s: JSONSchemaProps): string | undefined {
  return unsupported(s) ?? junctorsError(s) ?? apError(s) ?? preserveError(s) ?? itemsError(s, nestedConversionError) ?? propsError(s, nestedConversionError);
}

function unsupported(s: JSONSchemaProps): string | undefined {
  const checks: Array<[string, boolean]> = [
    ['id', str(s, 'id') !== ''],
    ['schema', str(s, '$schema') !== ''],
    ['$ref', str(s, '$ref') !== ''],
    ['patternProperties', !isZero(s.patternProperties)],
    ['dependencies', !isZero(s.dependencies)],
    ['additionalItems', s.additionalItems !== undefined && s.additionalItems !== null],
    ['definitions', !isZero(s.definitions)],
  ];
  const hit = checks.find(([, bad]) => bad);
  return hit ? `OpenAPIV3Schema '${hit[0]}' is not supported` : undefined;
}

function junctorsError(s: JSONSchemaProps): string | undefined {
  const not = schemaAt(s, 'not');
  const nested = [...(not ? [not] : []), ...['allOf', 'anyOf', 'oneOf'].flatMap((j) => schemaList(s, j).map(([, x]) => x))];
  for (const n of nested) {
    const e = nestedConversionError(n);
    if (e) return e;
  }
  return undefined;
}

function apError(s: JSONSchemaProps): string | undefined {
  const ap = schemaAt(s, 'additionalProperties');
  return ap ? structuralConversionError(ap) : undefined;
}

function preserveError(s: JSONSchemaProps): string | undefined {
  const v = s[EXT.preserveUnknownFields];
  return v !== undefined && v !== null && v !== true ? `internal error: '${EXT.preserveUnknownFields}' must be true or undefined` : undefined;
}

function itemsError(s: JSONSchemaProps, next: (s: JSONSchemaProps) => string | undefined): string | undefined {
  if (Array.isArray(s.items) && s.items.length > 0) return "OpenAPIV3Schema 'items' must be a schema, but is an array";
  const items = itemsSchema(s);
  return items ? next(items) : undefined;
}

function propsError(s: JSONSchemaProps, next: (s: JSONSchemaProps) => string | undefined): string | undefined {
  for (const [, p] of schemaMap(s, 'properties')) {
    const e = next(p);
    if (e) return e;
  }
  return undefined;
}

/**
 * The structural errors of a schema that converts (structuralConversionError is undefined), at
 * `path` (the root `openAPIV3Schema`), sorted by their text as upstream sorts them. Never throws.
 */
export function validateStructural(s: JSONSchemaProps, path: FieldPath): FieldError[] {
  const out: FieldError[] = [];
  invariants(s, 'root', path, out);
  valueValidationCompleteness(s, s, path, path, out);
  return out
    .map((e) => [fieldErrorString(e), e] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([, e]) => e);
}

function invariants(s: JSONSchemaProps, lvl: Level, path: FieldPath, out: FieldError[]): void {
  const type = str(s, 'type');
  const items = itemsSchema(s);
  if (type === 'array' && !items) out.push(required(path.child('items'), 'must be specified'));
  if (items) invariants(items, 'item', path.child('items'), out);
  for (const [k, p] of schemaMap(s, 'properties')) invariants(p, 'field', path.child('properties').key(k), out);

  const hasAP = s.additionalProperties !== undefined && s.additionalProperties !== null;
  if (hasAP) {
    if (lvl === 'root') out.push(forbidden(path.child('additionalProperties'), 'must not be used at the root'));
    const ap = schemaAt(s, 'additionalProperties');
    if (ap) invariants(ap, 'field', path.child('additionalProperties'), out);
  }

  const intOrString = flag(s, EXT.intOrString);
  const preserve = flag(s, EXT.preserveUnknownFields);
  const embedded = flag(s, EXT.embeddedResource);
  if (intOrString && preserve) out.push(invalid(path.child(EXT.preserveUnknownFields), true, `must be false if ${EXT.intOrString} is true`));
  if (intOrString && embedded) out.push(invalid(path.child(EXT.embeddedResource), true, `must be false if ${EXT.intOrString} is true`));

  valueValidation(s, isIntOrStringAnyOf(s), isIntOrStringAllOf(s), path, out);

  const checkMetadata = lvl === 'root' || embedded;
  if (embedded && type !== 'object') {
    const detail = `must be object if ${EXT.embeddedResource} is true`;
    out.push(type === '' ? required(path.child('type'), detail) : invalid(path.child('type'), type, detail));
  } else if (type === '' && !intOrString && !preserve) {
    out.push(required(path.child('type'), EMPTY_TYPE_DETAIL[lvl]));
  }
  if (embedded && hasAP) out.push(forbidden(path.child('additionalProperties'), `must not be used if ${EXT.embeddedResource} is set`));
  if (lvl === 'root' && type !== '' && type !== 'object') out.push(invalid(path.child('type'), type, 'must be object at the root'));

  const props = properties(s) ?? {};
  for (const name of ['kind', 'apiVersion']) {
    const p = ownSchema(props, name);
    if (p && checkMetadata && str(p, 'type') !== 'string') out.push(invalid(path.child('properties').key(name).child('type'), str(p, 'type'), 'must be string'));
  }
  const metadata = ownSchema(props, 'metadata');
  if (metadata) metadataInvariants(metadata, checkMetadata, lvl, path.child('properties').key('metadata'), out);

  if (embedded && !preserve && Object.keys(props).length === 0) {
    out.push(required(path.child('properties'), `must not be empty if ${EXT.embeddedResource} is true without ${EXT.preserveUnknownFields}`));
  }
}

function ownSchema(props: Record<string, JSONSchemaProps>, name: string): JSONSchemaProps | undefined {
  return Object.prototype.hasOwnProperty.call(props, name) && isObject(props[name]) ? props[name] : undefined;
}

/** Keys NewStructural drops, and those the root metadata check clears (type, default, properties). */
const METADATA_IGNORED = new Set(['type', 'default', 'properties', 'externalDocs', 'example']);
/** Lists NewStructural rebuilds item by item: an empty one becomes nil. */
const REBUILT_LISTS = new Set(['enum', 'allOf', 'anyOf', 'oneOf']);

/** The JSONSchemaProps members of `s` set in upstream's converted (structural) value, by JSON key. */
function setMembers(s: JSONSchemaProps): string[] {
  return SCHEMA_MEMBERS.filter(([key, , kind]) => !isGoZero(s[key], kind) && !(REBUILT_LISTS.has(key) && isZero(s[key]))).map(([key]) => key);
}

function metadataInvariants(s: JSONSchemaProps, checkMetadata: boolean, lvl: Level, path: FieldPath, out: FieldError[]): void {
  if (checkMetadata && str(s, 'type') !== 'object') out.push(invalid(path.child('type'), str(s, 'type'), 'must be object'));
  if (lvl !== 'root') return;
  const names = Object.keys(properties(s) ?? {});
  const onlyNames = names.every((n) => n === 'name' || n === 'generateName');
  const other = setMembers(s).some((k) => !METADATA_IGNORED.has(k));
  if (!onlyNames || other) out.push(forbidden(path, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
}

/** True for a junctor member that is exactly `{type: <type>}` (Go's DeepEqual on the nested value validation). */
function onlyType(s: JSONSchemaProps, type: string): boolean {
  return str(s, 'type') === type && setMembers(s).every((k) => k === 'type' || k === 'externalDocs' || k === 'example');
}

function isIntOrStringPair(list: unknown): boolean {
  return Array.isArray(list) && list.length === 2 && isObject(list[0]) && isObject(list[1]) && onlyType(list[0], 'integer') && onlyType(list[1], 'string');
}

function isIntOrStringAnyOf(s: JSONSchemaProps): boolean {
  return isIntOrStringPair(s.anyOf);
}

function isIntOrStringAllOf(s: JSONSchemaProps): boolean {
  return Array.isArray(s.allOf) && s.allOf.length >= 1 && isObject(s.allOf[0]) && isIntOrStringPair((s.allOf[0] as JSONSchemaProps).anyOf);
}

function valueValidation(s: JSONSchemaProps, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, path: FieldPath, out: FieldError[]): void {
  if (!skipAnyOf) for (const [i, n] of schemaList(s, 'anyOf')) nested(n, false, path.child('anyOf').index(i), out);
  for (const [i, n] of schemaList(s, 'allOf')) nested(n, skipFirstAllOfAnyOf && i === 0, path.child('allOf').index(i), out);
  for (const [i, n] of schemaList(s, 'oneOf')) nested(n, false, path.child('oneOf').index(i), out);
  const not = schemaAt(s, 'not');
  if (not) nested(not, false, path.child('not'), out);
  const pattern = str(s, 'pattern');
  if (pattern !== '') {
    const compiled = compileRE2(pattern);
    if (typeof compiled === 'string') out.push(invalid(path.child('pattern'), pattern, `must be a valid regular expression, but isn't: ${compiled}`));
  }
}

/** A schema under a junctor: value validation only (upstream validateNestedValueValidation). */
function nested(s: JSONSchemaProps, skipAnyOf: boolean, path: FieldPath, out: FieldError[]): void {
  valueValidation(s, skipAnyOf, false, path, out);
  const items = itemsSchema(s);
  if (items) nested(items, false, path.child('items'), out);
  for (const [k, p] of schemaMap(s, 'properties')) nested(p, false, path.child('properties').key(k), out);

  const mustBe = (key: string, detail: string): void => {
    out.push(forbidden(path.child(key), detail));
  };
  if (str(s, 'type') !== '') mustBe('type', 'must be empty to be structural');
  if (s.additionalProperties !== undefined && s.additionalProperties !== null) mustBe('additionalProperties', 'must be undefined to be structural');
  if (s.default !== undefined && s.default !== null) mustBe('default', 'must be undefined to be structural');
  if (str(s, 'title') !== '') mustBe('title', 'must be empty to be structural');
  if (str(s, 'description') !== '') mustBe('description', 'must be empty to be structural');
  if (s.nullable === true) mustBe('nullable', 'must be false to be structural');
  if (flag(s, EXT.preserveUnknownFields)) mustBe(EXT.preserveUnknownFields, 'must be false to be structural');
  if (flag(s, EXT.embeddedResource)) mustBe(EXT.embeddedResource, 'must be false to be structural');
  if (flag(s, EXT.intOrString)) mustBe(EXT.intOrString, 'must be false to be structural');
  if (!isZero(s[EXT.listMapKeys])) mustBe(EXT.listMapKeys, 'must be empty to be structural');
  if (s[EXT.listType] !== undefined && s[EXT.listType] !== null) mustBe(EXT.listType, 'must be undefined to be structural');
  if (s[EXT.mapType] !== undefined && s[EXT.mapType] !== null) mustBe(EXT.mapType, 'must be undefined to be structural');
  if (!isZero(s[EXT.validations])) mustBe(EXT.validations, 'must be empty to be structural');
  if (ownSchema(properties(s) ?? {}, 'metadata')) out.push(forbidden(path.child('properties').key('metadata'), 'must not be specified in a nested context'));
}

function missing(sPath: FieldPath, vPath: FieldPath, out: FieldError[]): void {
  out.push(required(sPath, `because it is defined in ${vPath.toString()}`));
}

/** Everything the junctors of `v` name is declared in the structure `s` (upstream complete.go). */
function valueValidationCompleteness(v: JSONSchemaProps, s: JSONSchemaProps, sPath: FieldPath, vPath: FieldPath, out: FieldError[]): void {
  const not = schemaAt(v, 'not');
  if (not) nestedCompleteness(not, s, sPath, vPath.child('not'), out);
  for (const junctor of ['allOf', 'anyOf', 'oneOf']) {
    for (const [i, n] of schemaList(v, junctor)) nestedCompleteness(n, s, sPath, vPath.child(junctor).index(i), out);
  }
}

function nestedCompleteness(v: JSONSchemaProps, s: JSONSchemaProps | undefined, sPath: FieldPath, vPath: FieldPath, out: FieldError[]): void {
  if (!s) {
    missing(sPath, vPath, out);
    return;
  }
  valueValidationCompleteness(v, s, sPath, vPath, out);
  const vItems = itemsSchema(v);
  if (vItems) nestedCompleteness(vItems, itemsSchema(s), sPath.child('items'), vPath.child('items'), out);
  const sProps = properties(s) ?? {};
  for (const [k, p] of schemaMap(v, 'properties')) {
    const sp = ownSchema(sProps, k);
    if (!sp) missing(sPath.child('properties').key(k), vPath.child('properties').key(k), out);
    else nestedCompleteness(p, sp, sPath.child('properties').key(k), vPath.child('properties').key(k), out);
  }
}
