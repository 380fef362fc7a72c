/**
 * Correlating a new value with its old value during an update (upstream apiserver
 * pkg/cel/common CorrelatedObject, MapList, and the ratcheting options of
 * apiextensions-apiserver pkg/apiserver/schema/cel validation.go): object fields and map
 * values by name, items of `map` lists by their key fields; items of atomic and `set` lists are
 * not correlatable. A rule error is ratcheted (reported as a warning) when the value it was
 * raised on — or, when that value cannot be correlated, its nearest correlatable ancestor — is
 * unchanged. spec 000 § Field validation levels (CRD validation ratcheting, on by default in
 * 1.30).
 */
import { EXT, type JSONSchemaProps } from '../types.js';

type Json = unknown;

function isObject(v: Json): v is Record<string, Json> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The key fields of a `map` list schema, or undefined for other lists. */
export function mapListKeys(schema: JSONSchemaProps): readonly string[] | undefined {
  if (schema[EXT.listType] !== 'map') return undefined;
  const keys = schema[EXT.listMapKeys];
  return Array.isArray(keys) ? keys.map(String) : [];
}

function keyOf(item: Json, keys: readonly string[]): string | undefined {
  if (!isObject(item)) return undefined;
  return JSON.stringify(keys.map((k) => item[k] ?? null));
}

/** The items of an old `map` list by their keys (the first item wins for a repeated key). */
export class MapList {
  private readonly byKey = new Map<string, Json>();

  constructor(
    old: readonly Json[],
    private readonly keys: readonly string[],
  ) {
    for (const item of old) {
      const k = keyOf(item, keys);
      if (k !== undefined && !this.byKey.has(k)) this.byKey.set(k, item);
    }
  }

  /** The old item with the same key values as `item`, or undefined. */
  get(item: Json): Json {
    const k = keyOf(item, this.keys);
    return k === undefined ? undefined : this.byKey.get(k);
  }
}

/** One correlated node: a new value, its old value and the schema of both. */
export class Correlated {
  private equal: boolean | undefined;
  private mapList: MapList | undefined;
  private readonly children = new Map<string | number, Correlated | undefined>();

  constructor(
    readonly value: Json,
    readonly old: Json,
    readonly schema: JSONSchemaProps,
  ) {}

  /** The child under property or map key `field`, when both values have it. */
  key(field: string): Correlated | undefined {
    if (this.children.has(field)) return this.children.get(field);
    let child: Correlated | undefined;
    if (isObject(this.value) && isObject(this.old) && Object.hasOwn(this.value, field) && Object.hasOwn(this.old, field)) {
      const props = this.schema.properties;
      const extra = this.schema.additionalProperties;
      const schema = props && Object.hasOwn(props, field) ? props[field] : isObject(extra) ? (extra as JSONSchemaProps) : undefined;
      if (schema) child = new Correlated(this.value[field], this.old[field], schema);
    }
    this.children.set(field, child);
    return child;
  }

  /** The child at index `i` of a `map` list, paired with the old item of the same keys. */
  index(i: number): Correlated | undefined {
    if (this.children.has(i)) return this.children.get(i);
    let child: Correlated | undefined;
    const keys = mapListKeys(this.schema);
    const items = this.schema.items;
    if (keys && isObject(items) && Array.isArray(this.value) && Array.isArray(this.old) && i < this.value.length) {
      this.mapList ??= new MapList(this.old, keys);
      const oldItem = this.mapList.get(this.value[i]);
      if (oldItem !== undefined) child = new Correlated(this.value[i], oldItem, items as JSONSchemaProps);
    }
    this.children.set(i, child);
    return child;
  }

  /** Whether the value equals its old value (map lists compared item by item through their keys). */
  unchanged(): boolean {
    this.equal ??= this.compare();
    return this.equal;
  }

  private compare(): boolean {
    const { value, old } = this;
    if (value === undefined || value === null || old === undefined || old === null) return (value ?? null) === (old ?? null);
    if (Array.isArray(value) && Array.isArray(old)) {
      if (value.length !== old.length) return false;
      if (!mapListKeys(this.schema)) return deepEqual(value, old);
      for (let i = 0; i < value.length; i++) if (!this.index(i)?.unchanged()) return false;
      return true;
    }
    if (isObject(value) && isObject(old)) {
      const keys = Object.keys(value);
      if (keys.length !== Object.keys(old).length) return false;
      return keys.every((k) => this.key(k)?.unchanged() ?? false);
    }
    return deepEqual(value, old);
  }
}

/** Structural equality of JSON values. */
export function deepEqual(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

/**
 * Where ratcheting stands at a node: the node's correlation (undefined when it cannot be
 * correlated) and the nearest correlatable ancestor's.
 */
export class Ratchet {
  /** No ratcheting (creates, or ratcheting turned off). */
  static readonly NONE = new Ratchet(undefined, undefined, false);

  private constructor(
    private readonly current: Correlated | undefined,
    private readonly parent: Correlated | undefined,
    private readonly root: boolean,
  ) {}

  /** Ratcheting from the root of an update. */
  static root(value: Json, old: Json, schema: JSONSchemaProps): Ratchet {
    return new Ratchet(new Correlated(value, old, schema), undefined, true);
  }

  /** Moves to a property or map value (apiVersion and kind of the root never ratchet). */
  key(field: string): Ratchet {
    if (!this.current) return this;
    if (this.root && (field === 'apiVersion' || field === 'kind')) return Ratchet.NONE;
    return new Ratchet(this.current.key(field), this.current, false);
  }

  /** Moves to a list item. */
  index(i: number): Ratchet {
    if (!this.current) return this;
    return new Ratchet(this.current.index(i), this.current, false);
  }

  /** Whether errors of this node become warnings. */
  shouldRatchet(): boolean {
    if (this.current) return this.current.unchanged();
    return this.parent?.unchanged() ?? false;
  }
}
