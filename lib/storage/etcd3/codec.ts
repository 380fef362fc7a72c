/**
 * How objects are held in etcd values: JSON in the canonical form of their kind, followed by a
 * newline (as upstream's JSON serializer writes them), without `metadata.resourceVersion`
 * (ARCHITECTURE.md § Storage rules: the resourceVersion is the etcd mod_revision and never stored
 * in the value; issue #23 item 3: the encoding order is applied once, when an object is written,
 * so reads and watch events pass the stored order through).
 */
import { goJSONSyntaxError } from '../../apimachinery/serializers/go-json-errors.js';
import { invalidObj } from '../errors.js';
import type { StoredObject } from '../interface.js';

/**
 * Puts an object of one resource in its canonical form: a fresh object, the input unmodified
 * (lib/apimachinery/schema/canonical.ts for the kinds of the API).
 */
export type Canonicalize = (obj: StoredObject) => StoredObject;

/** The ObjectMeta properties upstream declares before `resourceVersion`. */
const BEFORE_RESOURCE_VERSION = new Set(['name', 'generateName', 'namespace', 'selfLink', 'uid']);

/** The metadata with `resourceVersion` set to `rv` at its place in ObjectMeta's order (a copy). */
function stampedMetadata(meta: Record<string, unknown>, rv: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let placed = false;
  for (const k in meta) {
    if (k === 'resourceVersion') continue;
    if (!placed && !BEFORE_RESOURCE_VERSION.has(k)) {
      out.resourceVersion = rv;
      placed = true;
    }
    out[k] = meta[k];
  }
  if (!placed) out.resourceVersion = rv;
  return out;
}

/** The object without `metadata.resourceVersion` (the object itself when it has none). */
export function withoutResourceVersion(obj: StoredObject): StoredObject {
  const meta = obj.metadata;
  if (!meta || meta.resourceVersion === undefined) return obj;
  // A plain loop: rest destructuring (`{ resourceVersion, ...rest }`) takes V8's slow generic path.
  const rest: Record<string, unknown> = {};
  for (const k in meta) if (k !== 'resourceVersion') rest[k] = meta[k];
  return { ...obj, metadata: rest as StoredObject['metadata'] };
}

/** An object as written: its stored bytes and its canonical form (without resourceVersion). */
export interface EncodedObject {
  value: Buffer;
  canonical: StoredObject;
}

/** Marks a value written in the canonical form; a value without it is put in that form when read. */
const CANONICAL_SUFFIX = 0x0a;

/** The JSON value codec of one resource (`canonicalize` absent: objects are stored as given). */
export class ObjectCodec {
  constructor(private readonly canonicalize: Canonicalize = (obj) => obj) {}

  /** The stored bytes and canonical form of `obj`, its resourceVersion dropped. */
  encode(obj: StoredObject): EncodedObject {
    const canonical = this.canonicalize(withoutResourceVersion(obj));
    return { value: Buffer.from(`${JSON.stringify(canonical)}\n`), canonical };
  }

  /** The object just written (`encode`'s canonical form), stamped with `modRevision`, without parsing its bytes again. */
  written(e: EncodedObject, modRevision: string): StoredObject {
    return this.stamped(e.canonical, modRevision);
  }

  /** `obj` with `metadata.resourceVersion` set to `modRevision`: a new object and metadata, everything below them shared. */
  stamped(obj: StoredObject, modRevision: string): StoredObject {
    return { ...obj, metadata: stampedMetadata(obj.metadata ?? {}, modRevision) };
  }

  /**
   * Parses a stored value and stamps `metadata.resourceVersion` with `modRevision`; a value
   * written before the canonical form (no trailing newline) is put in that form.
   * @throws StorageError InvalidObj when the value is not a JSON object.
   */
  decode(key: string, value: Buffer, modRevision: string): StoredObject {
    let obj: StoredObject;
    try {
      obj = JSON.parse(value.toString('utf8')) as StoredObject;
    } catch {
      throw invalidObj(key, `stored value is not valid JSON: ${goJSONSyntaxError(value) ?? 'unexpected end of JSON input'}`);
    }
    if (!obj || typeof obj !== 'object' || Array.isArray(obj)) throw invalidObj(key, 'stored value is not an object');
    if (value[value.length - 1] !== CANONICAL_SUFFIX) obj = this.canonicalize(obj);
    obj.metadata = stampedMetadata(obj.metadata ?? {}, modRevision);
    return obj;
  }
}
