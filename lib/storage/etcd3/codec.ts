/**
 * How objects are held in etcd values: JSON in the canonical form of their kind, followed by a
 * newline (as upstream's JSON serializer writes them), without `metadata.resourceVersion`
 * (ARCHITECTURE.md § Storage rules: the resourceVersion is the etcd mod_revision and never stored
 * in the value; issue #23 item 3: the encoding order is applied once, when an object is written,
 * so reads and watch events pass the stored order through).
 */
import { goJSONSyntaxError } from '../../apimachinery/serializers/go-json-errors.js';
import { rememberWrittenBody } from '../../apimachinery/serializers/json-cache.js';
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

/**
 * The JSON body of `canonical` stamped with `rv` (what `JSON.stringify(stamped) + "\n"` gives,
 * UTF-8), made from its stored bytes `value` (`JSON.stringify(canonical) + "\n"`) by inserting
 * `"resourceVersion":"<rv>"` at its place (see {@link stampedMetadata}), without serializing the
 * object: the text before that place is the serialization of the top-level properties before
 * `metadata` and of the metadata properties before `resourceVersion` (kind, apiVersion, name,
 * namespace, uid: short). A new Buffer: with `own`, in memory of its own (to be kept with the
 * object); else small ones are carved from Node's shared pool (for a response, not to be kept).
 * Undefined when `canonical` has no `metadata` object (the stamp then appends one), or when
 * `value` does not start with that text (bytes not written by this codec: the place is unknown).
 */
export function stampedBody(canonical: StoredObject, value: Buffer, rv: string, own = false): Buffer | undefined {
  const meta = canonical.metadata as Record<string, unknown> | undefined;
  if (!meta || typeof meta !== 'object' || Array.isArray(meta)) return undefined;
  const head: Record<string, unknown> = {};
  for (const k in canonical) {
    if (k === 'metadata') break;
    head[k] = canonical[k];
  }
  const before: Record<string, unknown> = {};
  let more = false;
  for (const k in meta) {
    if (k === 'resourceVersion') continue;
    if (!BEFORE_RESOURCE_VERSION.has(k)) {
      more = true;
      break;
    }
    before[k] = meta[k];
  }
  head.metadata = before;
  const headText = JSON.stringify(head);
  // The head's text without its two closing braces: the metadata is still open.
  const at = Buffer.byteLength(headText, 'utf8') - 2;
  if (value.length < at || value.toString('utf8', 0, at) !== headText.slice(0, -2)) return undefined;
  const opened = headText.charCodeAt(headText.length - 3) === 0x7b;
  const field = `"resourceVersion":${JSON.stringify(rv)}`;
  const inserted = opened ? (more ? `${field},` : field) : `,${field}`;
  const size = Buffer.byteLength(inserted, 'utf8');
  const body = own ? Buffer.allocUnsafeSlow(value.length + size) : Buffer.allocUnsafe(value.length + size);
  value.copy(body, 0, 0, at);
  body.write(inserted, at, 'utf8');
  value.copy(body, at + size, at);
  return body;
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

/** Whether `value` was written in the canonical form (its trailing newline). */
const isCanonical = (value: Buffer): boolean => value[value.length - 1] === CANONICAL_SUFFIX;

/** The JSON value codec of one resource (`canonicalize` absent: objects are stored as given). */
export class ObjectCodec {
  constructor(private readonly canonicalize: Canonicalize = (obj) => obj) {}

  /** The stored bytes and canonical form of `obj`, its resourceVersion dropped. */
  encode(obj: StoredObject): EncodedObject {
    const canonical = this.canonicalize(withoutResourceVersion(obj));
    return { value: Buffer.from(`${JSON.stringify(canonical)}\n`), canonical };
  }

  /**
   * The object just written (`encode`'s canonical form), stamped with `modRevision`, without
   * parsing its bytes again; its JSON body is made from those bytes when a response asks for it
   * (json-cache.ts `writtenJSONBody`), without serializing it again. `modRevision` '' (a dry-run
   * create, which has no revision): no resourceVersion, as upstream's empty one is left out.
   */
  written(e: EncodedObject, modRevision: string): StoredObject {
    if (modRevision === '') {
      const unversioned = { ...e.canonical, metadata: { ...e.canonical.metadata } };
      rememberWrittenBody(unversioned, () => Buffer.from(e.value));
      return unversioned;
    }
    const obj = this.stamped(e.canonical, modRevision);
    rememberWrittenBody(obj, () => stampedBody(e.canonical, e.value, modRevision) ?? Buffer.from(`${JSON.stringify(obj)}\n`));
    return obj;
  }

  /**
   * The maker of the compact JSON body of `obj`, read from the stored bytes `value` at
   * `modRevision` (decode's result, or a write's object whose stored bytes these are): the bytes
   * with the resourceVersion inserted, in memory of its own, no serialization. Undefined when
   * `value` is not in the canonical form (decode changed the object: its JSON is not the bytes).
   * The maker holds `value`, a slice of etcd's response: call it while handling the event, never
   * keep it.
   */
  storedBody(obj: StoredObject, value: Buffer, modRevision: string): (() => Buffer | undefined) | undefined {
    if (!isCanonical(value)) return undefined;
    return () => stampedBody(obj, value, modRevision, true);
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
    if (!isCanonical(value)) obj = this.canonicalize(obj);
    obj.metadata = stampedMetadata(obj.metadata ?? {}, modRevision);
    return obj;
  }
}
