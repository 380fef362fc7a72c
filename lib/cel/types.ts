/**
 * Declared types of expression variables: the expression-language type plus the size bounds the
 * cost estimator needs (spec 001 § Limits, expression cost) and the list semantics spec 000
 * § Expression language (CEL) in fields gives to `set` and `map` lists.
 */

/** Largest size or cost, standing for "unbounded" (upstream uses the uint64 maximum; 2^64 as a double). */
export const UNBOUNDED = 2 ** 64;

/** Scalar expression types. Timestamps and durations use the protobuf well-known names. */
export type PrimitiveName =
  | 'int'
  | 'uint'
  | 'double'
  | 'string'
  | 'bool'
  | 'bytes'
  | 'null'
  | 'type'
  | 'google.protobuf.Timestamp'
  | 'google.protobuf.Duration';

interface Bounds {
  /** Largest size (characters, bytes, items or entries) a value of this type can have. */
  readonly maxElements: number;
  /** Smallest JSON serialization of a value, used to bound list and map sizes per request. */
  readonly minSerializedSize: number;
}

/** A scalar; `format` records the schema format a string was converted from. */
export interface PrimitiveDecl extends Bounds {
  readonly kind: 'primitive';
  readonly name: PrimitiveName;
  readonly format?: 'byte' | 'date' | 'date-time' | 'duration';
}

/** A dynamically typed value (int-or-string, preserved unknown data, untyped variables). */
export interface DynDecl extends Bounds {
  readonly kind: 'dyn';
  readonly intOrString: boolean;
}

/** A list; `set` and `map` lists compare and concatenate with their own semantics. */
export interface ListDecl extends Bounds {
  readonly kind: 'list';
  readonly elem: DeclType;
  readonly listType: 'atomic' | 'set' | 'map';
  /** Escaped key field names of a `map` list. */
  readonly mapKeys: readonly string[];
}

/** A map with string keys (`additionalProperties`) or a declared map type. */
export interface MapDecl extends Bounds {
  readonly kind: 'map';
  readonly key: DeclType;
  readonly value: DeclType;
}

/** One field of an object type: the schema property name and its type. */
export interface FieldDecl {
  readonly property: string;
  readonly type: DeclType;
}

/** An object with declared properties, keyed by escaped identifier. */
export interface ObjectDecl extends Bounds {
  readonly kind: 'object';
  readonly name: string;
  readonly fields: ReadonlyMap<string, FieldDecl>;
}

/** `optional<T>`. */
export interface OptionalDecl extends Bounds {
  readonly kind: 'optional';
  readonly inner: DeclType;
}

/** A library type with no fields (quantities, URLs, authorizer values). */
export interface OpaqueDecl extends Bounds {
  readonly kind: 'opaque';
  readonly name: string;
}

/** Any declared type. */
export type DeclType = PrimitiveDecl | DynDecl | ListDecl | MapDecl | ObjectDecl | OptionalDecl | OpaqueDecl;

const PRIMITIVES: ReadonlySet<string> = new Set<PrimitiveName>([
  'int', 'uint', 'double', 'string', 'bool', 'bytes', 'null', 'type',
  'google.protobuf.Timestamp', 'google.protobuf.Duration',
]);

const ALIASES: Readonly<Record<string, PrimitiveName>> = {
  null_type: 'null',
  timestamp: 'google.protobuf.Timestamp',
  duration: 'google.protobuf.Duration',
};

/** A scalar type with unbounded size. */
export function primitive(name: PrimitiveName, minSerializedSize = 1): PrimitiveDecl {
  return { kind: 'primitive', name, maxElements: UNBOUNDED, minSerializedSize };
}

/** The dynamic type with unbounded size. */
export const DYN: DynDecl = { kind: 'dyn', intOrString: false, maxElements: UNBOUNDED, minSerializedSize: 1 };

/** The expression-language spelling of a declared type (`list<int>`, `map<string, dyn>`…). */
export function celTypeName(t: DeclType): string {
  switch (t.kind) {
    case 'primitive':
      return t.name;
    case 'dyn':
      return 'dyn';
    case 'list':
      return `list<${celTypeName(t.elem)}>`;
    case 'map':
      return `map<${celTypeName(t.key)}, ${celTypeName(t.value)}>`;
    case 'optional':
      return `optional<${celTypeName(t.inner)}>`;
    case 'object':
    case 'opaque':
      return t.name;
  }
}

/**
 * Parses a type written as in expressions: `int`, `list<string>`, `map<string, list<int>>`,
 * `optional<T>`, `dyn`, the aliases `timestamp` / `duration` / `null_type`, or one of the
 * `opaque` names given. Sizes are unbounded. Throws Error for anything else.
 */
export function parseTypeName(text: string, opaque: ReadonlySet<string> = new Set()): DeclType {
  const s = text.trim();
  const generic = /^(list|map|optional)<(.*)>$/.exec(s);
  if (generic) {
    const args = splitTypeArgs(generic[2]!);
    if (generic[1] === 'map') {
      if (args.length !== 2) throw new Error(`invalid type "${text}": map takes two type arguments`);
      return {
        kind: 'map',
        key: parseTypeName(args[0]!, opaque),
        value: parseTypeName(args[1]!, opaque),
        maxElements: UNBOUNDED,
        minSerializedSize: 2,
      };
    }
    if (args.length !== 1) throw new Error(`invalid type "${text}": ${generic[1]} takes one type argument`);
    const inner = parseTypeName(args[0]!, opaque);
    if (generic[1] === 'optional') return { kind: 'optional', inner, maxElements: inner.maxElements, minSerializedSize: 0 };
    return { kind: 'list', elem: inner, listType: 'atomic', mapKeys: [], maxElements: UNBOUNDED, minSerializedSize: 2 };
  }
  if (s === 'dyn') return DYN;
  const name = ALIASES[s] ?? s;
  if (PRIMITIVES.has(name)) return primitive(name as PrimitiveName);
  if (opaque.has(s)) return { kind: 'opaque', name: s, maxElements: UNBOUNDED, minSerializedSize: 1 };
  throw new Error(`unknown type "${text}"`);
}

function splitTypeArgs(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '<') depth++;
    if (ch === '>') depth--;
    if (ch === ',' && depth === 0) {
      out.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  out.push(current);
  return out.map((a) => a.trim());
}
