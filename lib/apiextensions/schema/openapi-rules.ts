/**
 * The OpenAPI-level checks of a CRD's `openAPIV3Schema`, node by node, as upstream
 * ValidateCustomResourceDefinitionOpenAPISchema and its specStandardValidatorV3 apply them for
 * apiextensions v1 (upstream apiextensions validation, v1.30): unsupported keywords, `uniqueItems`,
 * properties vs additionalProperties, where defaults may appear (not in top-level metadata,
 * apiVersion or kind), embedded resources inside resource metadata, the list-type / list-map-keys /
 * map-type markers and the map-list key rules. Not here: the values of defaults and the
 * `x-<vendor>-validations` rules (other modules check those).
 */
import { type FieldError, FieldPath, forbidden, goStringSlice, invalid, notSupported, required } from '../../apimachinery/field-errors.js';
import { EXT, type JSONSchemaProps } from '../types.js';
import { flag, isObject, itemsSchema, listType, mapType, properties, schemaAt, schemaList, schemaMap, str, strings } from './access.js';
import { goSchemaPropsOrArray } from './go-syntax.js';

const OPENAPI_V3_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const META_FIELDS = new Set(['metadata', 'kind', 'apiVersion']);

/** Where the walk is (upstream specStandardValidatorV3's state). */
interface Walk {
  allowDefaults: boolean;
  disallowDefaultsReason: string;
  insideResourceMeta: boolean;
}

const ROOT_WALK: Walk = { allowDefaults: true, disallowDefaultsReason: '', insideResourceMeta: false };

/**
 * All OpenAPI-level errors of `schema` (the root `openAPIV3Schema` at `path`), in upstream's
 * order: the node's own keywords, then additionalProperties, properties, not, allOf, oneOf,
 * anyOf, definitions, items, dependencies, then the node's markers. Never throws.
 */
export function validateOpenAPISchema(schema: JSONSchemaProps, path: FieldPath): FieldError[] {
  const out: FieldError[] = [];
  walk(schema, path, ROOT_WALK, true, out);
  return out;
}

function withForbiddenDefaults(w: Walk, reason: string): Walk {
  return { ...w, allowDefaults: false, disallowDefaultsReason: reason };
}

function walk(s: JSONSchemaProps, path: FieldPath, w: Walk, isRoot: boolean, out: FieldError[]): void {
  checkKeywords(s, path, w, out);
  if (s.uniqueItems === true) out.push(forbidden(path.child('uniqueItems'), 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));

  const props = properties(s);
  const ap = s.additionalProperties;
  if (ap !== undefined && ap !== null) {
    if (props && (ap === false || isObject(ap))) out.push(forbidden(path.child('additionalProperties'), 'additionalProperties and properties are mutual exclusive'));
    const apSchema = schemaAt(s, 'additionalProperties');
    if (apSchema) {
      const sub = w.insideResourceMeta ? withForbiddenDefaults(w, 'inside additionalProperties applying to object metadata') : w;
      walk(apSchema, path.child('additionalProperties'), sub, false, out);
    }
  }

  for (const [name, prop] of schemaMap(s, 'properties')) {
    let sub = w;
    if ((isRoot || flag(s, EXT.embeddedResource)) && META_FIELDS.has(name)) {
      sub = { ...sub, insideResourceMeta: true };
      if (isRoot) sub = withForbiddenDefaults(sub, `in top-level ${name}`);
    }
    walk(prop, path.child('properties').key(name), sub, false, out);
  }

  const not = schemaAt(s, 'not');
  if (not) walk(not, path.child('not'), w, false, out);
  for (const junctor of ['allOf', 'oneOf', 'anyOf']) {
    for (const [i, sub] of schemaList(s, junctor)) walk(sub, path.child(junctor).index(i), w, false, out);
  }
  for (const [name, def] of schemaMap(s, 'definitions')) walk(def, path.child('definitions').key(name), w, false, out);

  const items = itemsSchema(s);
  if (items) walk(items, path.child('items'), w, false, out);
  for (const [i, item] of schemaList(s, 'items')) walk(item, path.child('items').index(i), w, false, out);

  for (const [name, dep] of schemaMap(s, 'dependencies')) walk(dep, path.child('dependencies').key(name), w, false, out);

  checkMarkers(s, path, out);
  checkMapListKeysMapSet(s, path, out);
}

/** upstream specStandardValidatorV3.validate: keywords a CRD schema may not use. */
function checkKeywords(s: JSONSchemaProps, path: FieldPath, w: Walk, out: FieldError[]): void {
  const type = str(s, 'type');
  if (type !== '' && !OPENAPI_V3_TYPES.includes(type)) out.push(notSupported(path.child('type'), type, OPENAPI_V3_TYPES));
  if (s.default !== undefined && s.default !== null && !w.allowDefaults) {
    const detail = w.disallowDefaultsReason ? `must not be set ${w.disallowDefaultsReason}` : 'must not be set';
    out.push(forbidden(path.child('default'), detail));
  }
  if (str(s, 'id') !== '') out.push(forbidden(path.child('id'), 'id is not supported'));
  if (s.additionalItems !== undefined && s.additionalItems !== null) out.push(forbidden(path.child('additionalItems'), 'additionalItems is not supported'));
  if (schemaMap(s, 'patternProperties').length > 0) out.push(forbidden(path.child('patternProperties'), 'patternProperties is not supported'));
  if (schemaMap(s, 'definitions').length > 0) out.push(forbidden(path.child('definitions'), 'definitions is not supported'));
  if (isObject(s.dependencies)) out.push(forbidden(path.child('dependencies'), 'dependencies is not supported'));
  if (s.$ref !== undefined && s.$ref !== null) out.push(forbidden(path.child('$ref'), '$ref is not supported'));
  if (type === 'null') out.push(forbidden(path.child('type'), 'type cannot be set to null, use nullable as an alternative'));
  if (Array.isArray(s.items) && s.items.length > 0) out.push(forbidden(path.child('items'), 'items must be a schema object and not an array'));
  if (w.insideResourceMeta && flag(s, EXT.embeddedResource)) out.push(forbidden(path.child(EXT.embeddedResource), 'must not be used inside of resource meta'));
}

/** The preserve-unknown-fields, map-type, list-type and list-map-keys markers of one node. */
function checkMarkers(s: JSONSchemaProps, path: FieldPath, out: FieldError[]): void {
  const type = str(s, 'type');
  const preserve = s[EXT.preserveUnknownFields];
  if (preserve !== undefined && preserve !== null && preserve !== true) out.push(invalid(path.child(EXT.preserveUnknownFields), preserve, 'must be true or undefined'));

  const mt = mapType(s);
  if (mt !== undefined && type !== 'object') {
    const detail = `must be object if ${EXT.mapType} is specified`;
    out.push(type === '' ? required(path.child('type'), detail) : invalid(path.child('type'), type, detail));
  }
  if (mt !== undefined && mt !== 'atomic' && mt !== 'granular') out.push(notSupported(path.child(EXT.mapType), mt, ['atomic', 'granular']));

  const lt = listType(s);
  const items = itemsSchema(s);
  if (lt !== undefined && type !== 'array') {
    const detail = `must be array if ${EXT.listType} is specified`;
    out.push(type === '' ? required(path.child('type'), detail) : invalid(path.child('type'), type, detail));
  } else if (lt === 'set' && items) {
    const detail = `must be atomic as item of a list with ${EXT.listType}=set`;
    const itemType = str(items, 'type');
    const itemListType = listType(items);
    if (itemType === 'array' && itemListType !== undefined && itemListType !== 'atomic') {
      out.push(invalid(path.child('items').child(EXT.listType), itemListType, detail));
    } else if (itemType === 'object' && mapType(items) !== 'atomic') {
      // upstream reports the item's list type here (usually unset, printed "null")
      out.push(invalid(path.child('items').child(EXT.mapType), itemListType, detail));
    }
  }
  if (lt !== undefined && lt !== 'atomic' && lt !== 'set' && lt !== 'map') out.push(notSupported(path.child(EXT.listType), lt, ['atomic', 'set', 'map']));

  const keys = strings(s, EXT.listMapKeys);
  if (keys.length > 0) {
    const detail = `must be map if ${EXT.listMapKeys} is non-empty`;
    if (lt === undefined) out.push(required(path.child(EXT.listType), detail));
    else if (lt !== 'map') out.push(invalid(path.child(EXT.listType), lt, detail));
  }
  if (lt === 'map') checkMapList(s, path, keys, out);
}

/** A list with list-type map: keys present, one object items schema whose keys are scalar properties. */
function checkMapList(s: JSONSchemaProps, path: FieldPath, keys: string[], out: FieldError[]): void {
  if (keys.length === 0) out.push(required(path.child(EXT.listMapKeys), `must not be empty if ${EXT.listType} is map`));
  if (s.items === undefined || s.items === null) {
    out.push(required(path.child('items'), `must have a schema if ${EXT.listType} is map`));
    return;
  }
  const items = itemsSchema(s);
  if (!items) {
    out.push(invalid(path.child('items'), goSchemaPropsOrArray(s), `must only have a single schema if ${EXT.listType} is map`));
    return;
  }
  const itemType = str(items, 'type');
  if (itemType !== 'object') {
    out.push(invalid(path.child('items').child('type'), itemType, `must be object if parent array's ${EXT.listType} is map`));
    return;
  }
  const itemProps = properties(items) ?? {};
  const seen = new Set<string>();
  for (const k of keys) {
    const prop = Object.prototype.hasOwnProperty.call(itemProps, k) ? itemProps[k] : undefined;
    if (prop !== undefined) {
      const t = isObject(prop) ? str(prop, 'type') : '';
      // upstream reports the items' type ("object") as the bad value
      if (t === 'array' || t === 'object') out.push(invalid(path.child('items').child('properties').key(k).child('type'), itemType, `must be a scalar type if parent array's ${EXT.listType} is map`));
    } else {
      out.push(invalid(path.child(EXT.listMapKeys), goStringSlice(keys), 'entries must all be names of item properties'));
    }
    if (seen.has(k)) out.push(invalid(path.child(EXT.listMapKeys), goStringSlice(keys), 'must not contain duplicate entries'));
    seen.add(k);
  }
}

/** upstream validateMapListKeysMapSet: set/map items not nullable; map keys required or defaulted, never nullable. */
function checkMapListKeysMapSet(s: JSONSchemaProps, path: FieldPath, out: FieldError[]): void {
  const items = itemsSchema(s);
  const lt = listType(s);
  if (!items || (lt !== 'set' && lt !== 'map')) return;
  if (items.nullable === true) out.push(forbidden(path.child('items').child('nullable'), `cannot be nullable when ${EXT.listType} is ${lt}`));
  if (lt !== 'map') return;
  const req = new Set(strings(items, 'required'));
  const itemProps = properties(items) ?? {};
  for (const k of strings(s, EXT.listMapKeys)) {
    const prop = Object.prototype.hasOwnProperty.call(itemProps, k) && isObject(itemProps[k]) ? itemProps[k] : undefined;
    if (!prop) continue;
    const keyPath = path.child('items').child('properties').key(k);
    if (!req.has(k) && (prop.default === undefined || prop.default === null)) {
      out.push(required(keyPath.child('default'), `this property is in ${EXT.listMapKeys}, so it must have a default or be a required property`));
    }
    if (prop.nullable === true) out.push(forbidden(keyPath.child('nullable'), `this property is in ${EXT.listMapKeys}, so it cannot be nullable`));
  }
}
