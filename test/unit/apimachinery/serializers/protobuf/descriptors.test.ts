/**
 * The protobufjs messages derived from the kind definitions: one per struct, cached, carrying
 * exactly the struct's field numbers with the upstream types.
 */
import { expect } from 'chai';
import type protobuf from 'protobufjs';
import { field, string, struct } from '../../../../../lib/apimachinery/schema/builder.js';
import { embeddingPath, type Schema, type StructSchema, structFields } from '../../../../../lib/apimachinery/schema/types.js';
import { messageType } from '../../../../../lib/apimachinery/serializers/protobuf/descriptors.js';
import { statusSchema } from '../../../../../lib/apimachinery/serializers/protobuf/index.js';
import { objectMeta } from '../../../../../lib/apis/meta/v1/types.js';
import { ALL_KINDS } from './kinds.js';

/** The protobufjs type of a single value of `s`, as the upstream proto declares it. */
function expectedType(s: Schema): string {
  switch (s.type) {
    case 'string':
    case 'bytes':
      return s.type;
    case 'integer':
      return s.format;
    case 'number':
      return 'double';
    case 'boolean':
      return 'bool';
    case 'time':
      return s.precision === 'micros' ? 'meta_v1_MicroTime' : 'meta_v1_Time';
    case 'duration':
      return 'meta_v1_Duration';
    case 'quantity':
      return 'resource_Quantity';
    case 'int-or-string':
      return 'intstr_IntOrString';
    case 'raw':
      return 'runtime_RawExtension';
    case 'struct':
      return messageType(s).name;
    default:
      return 'wrapper';
  }
}

/** `id name type [repeated|map]` lines of a protobufjs message. */
function describeType(t: protobuf.Type): string[] {
  return t.fieldsArray.map((f) => {
    f.resolve();
    // Wrapper messages of nested collections are named `wrapper_list`, `wrapper_map` (and numbered).
    const type = f.resolvedType ? f.resolvedType.name.replace(/^wrapper_.*/, 'wrapper') : f.type;
    return `${f.id} ${type}${f.repeated ? ' repeated' : ''}${f.map ? ' map' : ''}`;
  });
}

/** The lines of a message predicted from the struct schema: its own, and each inline group's by number (nested as the fields' embedding paths). */
interface Predicted {
  own: string[];
  inline: Map<number, Predicted>;
}

function predicted(s: StructSchema): Predicted {
  const root: Predicted = { own: [], inline: new Map() };
  for (const f of Object.values(structFields(s))) {
    if (f.proto === 0) continue;
    const sch = f.schema;
    const line =
      sch.type === 'list' ? `${f.proto} ${expectedType(sch.items)} repeated` : sch.type === 'map' ? `${f.proto} ${expectedType(sch.values)} map` : `${f.proto} ${expectedType(sch)}`;
    let group = root;
    for (const e of embeddingPath(f)) {
      const inner = group.inline.get(e.proto) ?? { own: [], inline: new Map() };
      group.inline.set(e.proto, inner);
      group = inner;
    }
    group.own.push(line);
  }
  return root;
}

/** Mismatches between message `t` and its prediction (inline groups compared recursively). */
function mismatchesOf(id: string, t: protobuf.Type, want: Predicted): string[] {
  const actual = describeType(t);
  const inlineLines = [...want.inline.keys()].map((n) => actual.find((l) => l.startsWith(`${n} `)));
  const ownActual = actual.filter((l) => !inlineLines.includes(l));
  const out = JSON.stringify([...ownActual].sort()) !== JSON.stringify([...want.own].sort()) ? [`${id}: ${ownActual} ≠ ${want.own}`] : [];
  for (const [n, group] of want.inline) out.push(...mismatchesOf(`${id} inline ${n}`, t.fieldsById[n]!.resolve().resolvedType as protobuf.Type, group));
  return out;
}

function structsOf(roots: Schema[]): StructSchema[] {
  const seen = new Set<StructSchema>();
  const visit = (s: Schema): void => {
    if (s.type === 'list') return visit(s.items);
    if (s.type === 'map') return visit(s.values);
    if (s.type !== 'struct' || seen.has(s)) return;
    seen.add(s);
    for (const f of Object.values(structFields(s))) visit(f.schema);
  };
  roots.forEach(visit);
  return [...seen];
}

describe('protobuf messages derived from the kind definitions', () => {
  const structs = structsOf([...ALL_KINDS.flatMap((k) => [k.schema, k.listSchema]), statusSchema]);

  it(`every struct reachable from the ${ALL_KINDS.length} kinds, their lists and Status has its message (${structs.length} structs)`, () => {
    expect(structs.length).to.be.greaterThan(150);
    const mismatches: string[] = [];
    for (const s of structs) mismatches.push(...mismatchesOf(s.id, messageType(s), predicted(s)));
    expect(mismatches).to.deep.equal([]);
  });

  it('builds each struct’s message once (cached per schema)', () => {
    expect(messageType(objectMeta)).to.equal(messageType(objectMeta));
    const podType = messageType(ALL_KINDS.find((k) => k.kind === 'Pod')!.schema);
    expect(podType.fieldsById[1]!.resolvedType).to.equal(messageType(objectMeta));
  });

  it('repeated scalars are unpacked, as proto2 writes them', () => {
    for (const s of structs) for (const f of messageType(s).fieldsArray) if (f.repeated) expect(f.packed, `${s.id}.${f.name}`).to.equal(false);
  });

  it('two fields with the same number are an error naming the struct', () => {
    const bad = struct('test.Clash', { a: field(1, string), b: field(1, string) });
    expect(() => messageType(bad)).to.throw(/^protobuf message of test\.Clash: duplicate id 1/);
    expect(() => messageType(bad), 'nothing of the failed build is cached').to.throw(/duplicate id 1/);
  });
});
