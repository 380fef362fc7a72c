/**
 * OpenAPI schemas from the structural type model (lib/apimachinery/schema/types.ts): a struct
 * becomes a named definition, referenced by `$ref`; times, quantities and int-or-strings become
 * the upstream named definitions; lists and maps carry the merge markers of spec 000 § Merge
 * strategy markers (the `list-type`, `list-map-keys` and `map-type` extensions) and the
 * strategic-merge tags (`patch-strategy`, `patch-merge-key`), written by the document's
 * ExtensionWriter.
 */
import { type Field, type Schema, type StructSchema, structFields } from '../../apimachinery/schema/types.js';
import { type ExtensionWriter, type GVK, type JSONObject, definitionName, sortedObject } from './names.js';

/** The two dialects: Swagger 2.0 (`#/definitions/`) and OpenAPI 3.0 (`#/components/schemas/`). */
export type Dialect = 'v2' | 'v3';

const TIME_ID = 'apimachinery.pkg.apis.meta.v1.Time';
const MICRO_TIME_ID = 'apimachinery.pkg.apis.meta.v1.MicroTime';
const QUANTITY_ID = 'apimachinery.pkg.api.resource.Quantity';
const INT_OR_STRING_ID = 'apimachinery.pkg.util.intstr.IntOrString';

/** The named scalar definitions, per dialect. */
function scalarDefinition(id: string, dialect: Dialect, ext: ExtensionWriter): JSONObject {
  switch (id) {
    case TIME_ID:
      return { description: 'A timestamp in RFC 3339 form with second precision (`2006-01-02T15:04:05Z`).', type: 'string', format: 'date-time' };
    case MICRO_TIME_ID:
      return { description: 'A timestamp in RFC 3339 form with microsecond precision (`2006-01-02T15:04:05.000000Z`).', type: 'string', format: 'date-time' };
    case QUANTITY_ID: {
      const description =
        'A fixed-point number with an optional suffix: binary SI (`Ki`, `Mi`, `Gi`, `Ti`, `Pi`, `Ei`), decimal SI (`m`, `k`, `M`, `G`, `T`, `P`, `E`) or a decimal exponent (`e3`, `E6`). Accepted as a string or a number, always written as a canonical string.';
      return dialect === 'v2' ? { description, type: 'string' } : { description, oneOf: [{ type: 'string' }, { type: 'number' }] };
    }
    default: {
      const d: JSONObject =
        dialect === 'v2'
          ? { description: 'An int32 or a string; in JSON the inner value itself (`8080` or `"http"`, `"25%"`).', type: 'string', format: 'int-or-string' }
          : { description: 'An int32 or a string; in JSON the inner value itself (`8080` or `"http"`, `"25%"`).', format: 'int-or-string', oneOf: [{ type: 'integer' }, { type: 'string' }] };
      ext.set(d, 'int-or-string', true);
      return d;
    }
  }
}

/**
 * Collects the definitions reached from the types added to it, in the order first reached, in
 * one dialect (`#/definitions/` or `#/components/schemas/` references) with one ExtensionWriter
 * (which the operations of the same document use too).
 */
export class DefinitionSet {
  private readonly defs = new Map<string, JSONObject>();
  private readonly structs = new Map<string, StructSchema>();
  private readonly gvks = new Map<string, GVK[]>();

  constructor(
    readonly dialect: Dialect,
    readonly ext: ExtensionWriter,
  ) {}

  /** `#/definitions/<name>` or `#/components/schemas/<name>`. */
  ref(name: string): string {
    return `${this.dialect === 'v2' ? '#/definitions/' : '#/components/schemas/'}${name}`;
  }

  /** Adds a struct (and everything it reaches); returns its definition name. */
  addStruct(s: StructSchema): string {
    const name = definitionName(s.id);
    if (this.structs.has(name)) return name;
    this.structs.set(name, s);
    const def: JSONObject = {};
    this.defs.set(name, def);
    if (s.description) def.description = s.description;
    const fields = structFields(s);
    const properties: JSONObject = {};
    const required: string[] = [];
    for (const [prop, f] of Object.entries(fields)) {
      properties[prop] = this.property(f);
      if (f.required) required.push(prop);
    }
    def.type = 'object';
    if (Object.keys(properties).length > 0) def.properties = properties;
    if (required.length > 0) def.required = required;
    if (s.mapType) this.ext.set(def, 'map-type', s.mapType);
    if (s.preserveUnknownFields) this.ext.set(def, 'preserve-unknown-fields', true);
    const gvks = this.gvks.get(name);
    if (gvks) this.ext.gvk(def, gvks);
    return name;
  }

  /** Declares the group-version-kinds of a definition (a kind, a list kind, DeleteOptions…). */
  addGVK(s: StructSchema, gvk: GVK): void {
    const name = definitionName(s.id);
    const list = this.gvks.get(name) ?? [];
    if (!list.some((g) => g.group === gvk.group && g.version === gvk.version && g.kind === gvk.kind)) list.push(gvk);
    this.gvks.set(name, list);
    const def = this.defs.get(name);
    if (def) this.ext.gvk(def, list);
  }

  /** All definitions, sorted by name (as upstream serializes them). */
  definitions(): JSONObject {
    return sortedObject(this.defs);
  }

  /** A property's schema: its type, description, default and struct-field patch strategy. */
  private property(f: Field): JSONObject {
    const siblings: JSONObject = {};
    const description = f.description ?? (f.schema.type === 'struct' ? undefined : f.schema.description);
    if (description) siblings.description = description;
    if (f.default !== undefined) siblings.default = f.default;
    if (f.patchStrategy) this.ext.set(siblings, 'patch-strategy', f.patchStrategy);
    return this.schemaWith(f.schema, siblings);
  }

  /** The schema of `s` with extra keywords (`description`, `default`, extensions) merged in. */
  private schemaWith(s: Schema, siblings: JSONObject): JSONObject {
    const named = this.namedRef(s);
    if (named === undefined) return Object.assign(siblings.description ? { description: siblings.description } : {}, this.inline(s), siblings);
    const ref = { $ref: this.ref(named) };
    if (Object.keys(siblings).length === 0) return ref;
    return this.dialect === 'v2' ? { ...ref, ...siblings } : { allOf: [ref], ...siblings };
  }

  /** The definition name when `s` is rendered by reference (structs and named scalars). */
  private namedRef(s: Schema): string | undefined {
    switch (s.type) {
      case 'struct':
        return this.addStruct(s);
      case 'time':
        return this.addScalar(s.precision === 'micros' ? MICRO_TIME_ID : TIME_ID);
      case 'quantity':
        return this.addScalar(QUANTITY_ID);
      case 'int-or-string':
        return this.addScalar(INT_OR_STRING_ID);
      default:
        return undefined;
    }
  }

  private addScalar(id: string): string {
    const name = definitionName(id);
    if (!this.defs.has(name)) this.defs.set(name, scalarDefinition(id, this.dialect, this.ext));
    return name;
  }

  /** Inline schemas of the unnamed types. */
  private inline(s: Schema): JSONObject {
    const out: JSONObject = {};
    switch (s.type) {
      case 'string':
        out.type = 'string';
        if (s.format) out.format = s.format;
        if (s.enum) out.enum = [...s.enum];
        if (s.maxLength !== undefined) out.maxLength = s.maxLength;
        if (s.minLength !== undefined) out.minLength = s.minLength;
        if (s.pattern !== undefined) out.pattern = s.pattern;
        break;
      case 'integer':
        out.type = 'integer';
        out.format = s.format;
        if (s.minimum !== undefined) out.minimum = s.minimum;
        if (s.maximum !== undefined) out.maximum = s.maximum;
        break;
      case 'number':
        out.type = 'number';
        out.format = s.format ?? 'double';
        break;
      case 'boolean':
        out.type = 'boolean';
        break;
      case 'bytes':
        out.type = 'string';
        out.format = 'byte';
        break;
      case 'duration':
        out.type = 'string';
        break;
      case 'raw':
        out.type = 'object';
        if (s.embeddedResource) this.ext.set(out, 'embedded-resource', true);
        break;
      case 'map':
        out.type = 'object';
        out.additionalProperties = this.schemaWith(s.values, this.itemSiblings(s.values));
        if (s.mapType) this.ext.set(out, 'map-type', s.mapType);
        break;
      case 'list':
        out.type = 'array';
        out.items = this.schemaWith(s.items, this.itemSiblings(s.items));
        if (s.maxItems !== undefined) out.maxItems = s.maxItems;
        if (s.listType) this.ext.set(out, 'list-type', s.listType);
        if (s.listMapKeys) this.ext.set(out, 'list-map-keys', [...s.listMapKeys]);
        if (s.patchStrategy) this.ext.set(out, 'patch-strategy', s.patchStrategy);
        if (s.patchMergeKey) this.ext.set(out, 'patch-merge-key', s.patchMergeKey);
        break;
      default:
        throw new Error(`openapi: unexpected schema type ${s.type}`);
    }
    if (s.description) out.description = s.description;
    if (s.nullable && this.dialect === 'v3') out.nullable = true;
    return out;
  }

  /** v3 gives list items and map values of a struct type the zero default `{}`, as upstream. */
  private itemSiblings(s: Schema): JSONObject {
    return this.dialect === 'v3' && s.type === 'struct' ? { default: {} } : {};
  }
}
