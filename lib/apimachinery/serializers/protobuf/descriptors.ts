/**
 * protobufjs message types derived at run time from the struct schemas of the type model
 * (schema/types.ts): one proto2 message per struct, with the upstream field numbers
 * (`Field.proto`) and types, built once per struct and cached; recursive structs refer to
 * themselves by name. Decoding reads messages through these types (reader.ts); writer.ts writes
 * the same messages directly. Spec 000 § Protobuf envelope; ARCHITECTURE.md § Layers (one
 * source of truth per kind).
 *
 * Mapping: string/bool/int32/int64/double/float/bytes as such; time → Time or MicroTime;
 * duration → Duration; quantity → Quantity; int-or-string → IntOrString; raw → RawExtension;
 * list → repeated (unpacked, as proto2); map → `map<string, V>`; a list or map nested directly
 * in a list or map → a wrapper message `{items = 1}` (upstream's form for named slice types such
 * as ExtraValue). Fields with `proto` 0 (apiVersion, kind) are not in the message. Go-inline
 * fields (`Field.embedded`) go into a message of their own carried at `embedded.proto` (nested
 * when that message is itself inline: `Embedding.within`).
 */
import protobuf from 'protobufjs';
import { embeddingPath, type Field, type Schema, type StructSchema, structFields } from '../../schema/types.js';
import { root } from './meta-types.js';

/** The field of a wrapper message for a nested list or map. */
export const WRAPPER_FIELD = 'items';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The protobufjs field name of JSON property `json` (number `proto`): the JSON name when usable. */
export function protoFieldName(json: string, proto: number): string {
  return IDENTIFIER.test(json) && !json.startsWith('__') ? json : `__f${proto}`;
}

/** The protobufjs field name of the inline struct carried at number `proto`. */
export function inlineFieldName(proto: number): string {
  return `__inline${proto}`;
}

const structTypes = new WeakMap<StructSchema, protobuf.Type>();
const wrapperTypes = new WeakMap<Schema, protobuf.Type>();

/** A fresh type name in the Root, derived from a definition id (`api.core.v1.Pod` → `api_core_v1_Pod`). */
function uniqueName(id: string): string {
  const base = id.replace(/[^A-Za-z0-9_]/g, '_').replace(/^(?=[0-9])/, '_');
  let name = base;
  for (let i = 2; root.get(name); i++) name = `${base}_${i}`;
  return name;
}

/** The types and cache entries of one build, resolved together (or all removed on error). */
interface Build {
  types: protobuf.Type[];
  keys: Schema[];
}

/** Adds a new empty message type to the Root, recording it in the build. */
function newType(id: string, build: Build): protobuf.Type {
  const t = new protobuf.Type(uniqueName(id));
  root.add(t);
  build.types.push(t);
  return t;
}

/** The protobufjs type name of a single (non-repeated, non-map) value of schema `s`. */
function valueTypeName(s: Schema, build: Build): string {
  switch (s.type) {
    case 'string':
      return 'string';
    case 'integer':
      return s.format;
    case 'number':
      return s.format === 'float' ? 'float' : 'double';
    case 'boolean':
      return 'bool';
    case 'bytes':
      return 'bytes';
    case 'time':
      return s.precision === 'micros' ? '.meta_v1_MicroTime' : '.meta_v1_Time';
    case 'duration':
      return '.meta_v1_Duration';
    case 'quantity':
      return '.resource_Quantity';
    case 'int-or-string':
      return '.intstr_IntOrString';
    case 'raw':
      return '.runtime_RawExtension';
    case 'struct':
      return `.${(structTypes.get(s) ?? buildStruct(s, build)).name}`;
    case 'list':
    case 'map':
      return `.${(wrapperTypes.get(s) ?? buildWrapper(s, build)).name}`;
  }
}

/** The protobufjs field for a property of schema `s` at number `id`. */
function fieldFor(name: string, id: number, s: Schema, build: Build): protobuf.FieldBase {
  if (s.type === 'list') return new protobuf.Field(name, id, valueTypeName(s.items, build), 'repeated');
  if (s.type === 'map') return new protobuf.MapField(name, id, 'string', valueTypeName(s.values, build));
  return new protobuf.Field(name, id, valueTypeName(s, build));
}

/** The wrapper message `{items = 1}` of a list or map nested in a list or map. */
function buildWrapper(s: Schema, build: Build): protobuf.Type {
  const t = newType(`wrapper_${s.type}`, build);
  wrapperTypes.set(s, t);
  build.keys.push(s);
  t.add(fieldFor(WRAPPER_FIELD, 1, s, build));
  return t;
}

/** Builds the message of a struct (and, recursively, of every struct it reaches that has none yet). */
function buildStruct(s: StructSchema, build: Build): protobuf.Type {
  const t = newType(s.id, build);
  structTypes.set(s, t);
  build.keys.push(s);
  const inline = new Map<number, InlineGroup>();
  for (const [json, f] of Object.entries(structFields(s))) {
    if (f.proto === 0) continue;
    if (f.embedded) {
      let groups = inline;
      let group: InlineGroup | undefined;
      for (const e of embeddingPath(f)) {
        group = groups.get(e.proto) ?? { id: e.id, fields: [], groups: new Map() };
        groups.set(e.proto, group);
        groups = group.groups;
      }
      group!.fields.push([json, f]);
      continue;
    }
    t.add(fieldFor(protoFieldName(json, f.proto), f.proto, f.schema, build));
  }
  addInlineGroups(t, inline, build);
  return t;
}

/** The members of one Go-inline message: its own fields and the inline messages nested in it. */
interface InlineGroup {
  id: string;
  fields: [string, Field][];
  groups: Map<number, InlineGroup>;
}

/** Adds to `t` one message field per inline group (named by inlineFieldName), recursively. */
function addInlineGroups(t: protobuf.Type, groups: Map<number, InlineGroup>, build: Build): void {
  for (const [proto, group] of groups) {
    const g = newType(group.id, build);
    for (const [json, f] of group.fields) g.add(fieldFor(protoFieldName(json, f.proto), f.proto, f.schema, build));
    addInlineGroups(g, group.groups, build);
    t.add(new protobuf.Field(inlineFieldName(proto), proto, `.${g.name}`));
  }
}

/**
 * The protobufjs message type of a struct schema, built on first use (with every struct it
 * reaches) and cached per schema object.
 * @throws Error `protobuf message of <id>: duplicate id 2 in Type …` when a struct gives two
 *   fields the same number (nothing of the failed build is kept).
 */
export function messageType(s: StructSchema): protobuf.Type {
  const cached = structTypes.get(s);
  if (cached) return cached;
  const build: Build = { types: [], keys: [] };
  try {
    const t = buildStruct(s, build);
    for (const c of build.types) c.resolveAll();
    return t;
  } catch (err) {
    for (const c of build.types) root.remove(c);
    for (const k of build.keys) {
      if (k.type === 'struct') structTypes.delete(k);
      else wrapperTypes.delete(k);
    }
    throw new Error(`protobuf message of ${s.id}: ${(err as Error).message}`, { cause: err });
  }
}
