/**
 * Conformance data → runtime values and type names, and the strict comparison the conformance
 * suite needs (int, uint and double are different; NaN equals NaN).
 */

import { UnsignedInt, Duration } from '@marcbachmann/cel-js/evaluator';
import { Message, type FieldValue } from './textproto.js';

/** Thrown for data that needs protobuf messages, which our environment does not have. */
export class NotApplicable extends Error {}

function scalarText(v: FieldValue | undefined): string {
  if (!v || v instanceof Message) throw new Error('expected a scalar');
  return v.kind === 'string' ? Buffer.from(v.bytes).toString('utf8') : v.text;
}

function parseDouble(text: string): number {
  const t = text.toLowerCase();
  if (t === 'inf' || t === 'infinity' || t === '+inf') return Infinity;
  if (t === '-inf' || t === '-infinity') return -Infinity;
  if (t === 'nan') return NaN;
  return Number(text);
}

function wellKnown(any: Message): unknown {
  for (const [name, values] of any.fields) {
    const body = values[0] instanceof Message ? values[0] : new Message();
    const seconds = BigInt(body.token('seconds') ?? '0');
    const nanos = Number(body.token('nanos') ?? '0');
    if (name.endsWith('/google.protobuf.Duration]')) return new Duration(seconds, nanos);
    if (name.endsWith('/google.protobuf.Timestamp]')) return new Date(Number(seconds) * 1000 + Math.floor(nanos / 1e6));
  }
  throw new NotApplicable('protobuf message value');
}

/** Converts a `cel.expr.Value` message to a runtime value. */
export function toRuntime(v: Message): unknown {
  if (v.has('null_value')) return null;
  if (v.has('bool_value')) return scalarText(v.one('bool_value')) === 'true';
  if (v.has('int64_value')) return BigInt(scalarText(v.one('int64_value')));
  if (v.has('uint64_value')) return new UnsignedInt(BigInt(scalarText(v.one('uint64_value'))));
  if (v.has('double_value')) return parseDouble(scalarText(v.one('double_value')));
  if (v.has('string_value')) return v.str('string_value');
  if (v.has('bytes_value')) {
    const b = v.one('bytes_value');
    return b && !(b instanceof Message) && b.kind === 'string' ? b.bytes : new Uint8Array();
  }
  if (v.has('list_value')) return (v.msg('list_value')?.all('values') ?? []).map((x) => toRuntime(x as Message));
  if (v.has('map_value')) {
    const m = new Map<unknown, unknown>();
    for (const e of v.msg('map_value')?.all('entries') ?? []) {
      const entry = e as Message;
      m.set(toRuntime(entry.msg('key')!), toRuntime(entry.msg('value')!));
    }
    return m;
  }
  if (v.has('type_value')) return { typeName: v.str('type_value') };
  if (v.has('object_value')) return wellKnown(v.msg('object_value')!);
  if (v.fields.size === 0) throw new NotApplicable('empty value');
  throw new NotApplicable(`value kind ${[...v.fields.keys()].join(',')}`);
}

const PRIMITIVES: Record<string, string> = {
  BOOL: 'bool',
  INT64: 'int',
  UINT64: 'uint',
  DOUBLE: 'double',
  STRING: 'string',
  BYTES: 'bytes',
};
const WELL_KNOWN: Record<string, string> = {
  DURATION: 'google.protobuf.Duration',
  TIMESTAMP: 'google.protobuf.Timestamp',
};

/** The expression-language name of a `cel.expr.Type` message. */
export function typeName(t: Message): string {
  if (t.has('primitive')) return PRIMITIVES[t.token('primitive')!]!;
  if (t.has('well_known') && WELL_KNOWN[t.token('well_known')!]) return WELL_KNOWN[t.token('well_known')!]!;
  if (t.has('list_type')) return `list<${typeName(t.msg('list_type')!.msg('elem_type')!)}>`;
  if (t.has('map_type')) {
    const m = t.msg('map_type')!;
    return `map<${typeName(m.msg('key_type')!)}, ${typeName(m.msg('value_type')!)}>`;
  }
  if (t.has('dyn')) return 'dyn';
  if (t.has('null')) return 'null';
  if (t.has('type')) return 'type';
  if (t.has('abstract_type') && t.msg('abstract_type')!.str('name') === 'optional_type') {
    return `optional<${typeName(t.msg('abstract_type')!.msg('parameter_types')!)}>`;
  }
  throw new NotApplicable('protobuf type');
}

function sameNumber(a: number, b: number): boolean {
  return (Number.isNaN(a) && Number.isNaN(b)) || a === b;
}

function entries(v: unknown): Map<string, unknown> | undefined {
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [String(k instanceof UnsignedInt ? k.valueOf() : k), x]));
  if (v && typeof v === 'object' && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype) return new Map(Object.entries(v));
  return undefined;
}

/** Type-strict equality of an actual result and an expected value. */
export function strictEquals(actual: unknown, expected: unknown): boolean {
  if (expected === null || typeof expected === 'boolean' || typeof expected === 'string' || typeof expected === 'bigint') {
    return actual === expected;
  }
  if (typeof expected === 'number') return typeof actual === 'number' && sameNumber(actual, expected);
  if (expected instanceof UnsignedInt) return actual instanceof UnsignedInt && actual.valueOf() === expected.valueOf();
  if (expected instanceof Uint8Array) return actual instanceof Uint8Array && Buffer.from(actual).equals(Buffer.from(expected));
  if (expected instanceof Duration) return actual instanceof Duration && actual.seconds === expected.seconds && actual.nanos === expected.nanos;
  if (expected instanceof Date) return actual instanceof Date && actual.getTime() === expected.getTime();
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => strictEquals(actual[i], e));
  }
  if (expected instanceof Map) {
    const a = entries(actual);
    const e = entries(expected)!;
    return !!a && a.size === e.size && [...e].every(([k, x]) => a.has(k) && strictEquals(a.get(k), x));
  }
  const typeValue = (expected as { typeName?: string }).typeName;
  if (typeValue !== undefined) {
    const name = (actual as { name?: string } | null)?.name;
    return name === typeValue || (typeValue === 'null_type' && name === 'null');
  }
  return false;
}
