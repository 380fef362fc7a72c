/**
 * Turns a request body into an object of the addressed kind: the type meta must match the path,
 * the typed decoder checks field types and prunes unknown fields (reported per the field
 * validation level), and defaults are applied (spec 000 § Field validation levels; spec 001
 * § Errors 400).
 */
import { type StatusError, newBadRequest } from '../../apimachinery/errors.js';
import { goQuote } from '../../apimachinery/go-quote.js';
import { goStringFromBytes } from '../../apimachinery/serializers/go-json-errors.js';
import { decodeObject } from '../../apimachinery/schema/decode.js';
import { canonicalize } from '../../apimachinery/schema/canonical.js';
import { applyDefaults } from '../../apimachinery/schema/defaults.js';
import type { KindDefinition, Obj } from '../../apis/define.js';
import { addWarning, type RequestContext } from '../../request/context.js';
import { BodyDecodeError, decodeObjectBody } from './body.js';
import { decodeProtobufBody, protobufMediaTypes } from './protobuf.js';
import type { FieldValidation } from './write-options.js';

/** Checks `apiVersion`/`kind` of a body against the path; fills them when absent. */
export function checkTypeMeta(kind: KindDefinition, obj: Obj): void {
  if (obj.apiVersion !== undefined && obj.apiVersion !== '' && obj.apiVersion !== kind.apiVersion) {
    throw newBadRequest(`the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${kind.apiVersion})`);
  }
  if (obj.kind !== undefined && obj.kind !== '' && obj.kind !== kind.kind) {
    throw newBadRequest(`the kind in the data (${String(obj.kind)}) does not match the expected kind (${kind.kind})`);
  }
  obj.apiVersion = kind.apiVersion;
  obj.kind = kind.kind;
}

/**
 * A body that does not decode as its kind, in the words of upstream's decoder: a field of the
 * wrong type (`json: cannot unmarshal string into Go struct field ConfigMap.data of type
 * map[string]string`) or, at the Strict level, unknown and duplicate fields (`strict decoding
 * error: unknown field "a", duplicate field "b"`). What the client is told depends on the verb:
 * {@link cannotBeHandled} for a body (create, update, apply), a 422 on the field `patch` for a
 * patch (patch.ts).
 */
export class ObjectDecodeError extends Error {
  /**
   * A type error (`message`: the decoder's), or a strict decoding error when `unknown` or
   * `duplicates` (field paths) are given, its message listing the unknown fields first.
   */
  constructor(
    message: string,
    readonly unknown: readonly string[] = [],
    readonly duplicates: readonly string[] = [],
    /** A type error as upstream's unstructured converter words it (DecodeResult.converterError). */
    readonly converterMessage?: string,
  ) {
    super(message);
    this.name = 'ObjectDecodeError';
  }

  /** A strict decoding error for these fields (Strict level). */
  static strict(unknown: readonly string[], duplicates: readonly string[]): ObjectDecodeError {
    return new ObjectDecodeError(strictDecodingMessage(unknown, duplicates, false), unknown, duplicates);
  }

  /** True for a strict decoding error (unknown or duplicate fields), false for a type error. */
  get strict(): boolean {
    return this.unknown.length + this.duplicates.length > 0;
  }

  /**
   * The message, with a strict decoding error's duplicate fields listed first when
   * `duplicatesFirst` (a patch's own duplicates precede the result's unknown fields upstream).
   */
  messageListing(duplicatesFirst: boolean): string {
    return this.strict ? strictDecodingMessage(this.unknown, this.duplicates, duplicatesFirst) : this.message;
  }
}

/** sigs.k8s.io/json's strict error for an unknown field: `unknown field "spec.bogus"`, the path quoted as Go's strconv.Quote quotes it. */
const unknownFieldProblem = (path: string): string => `unknown field ${goQuote(path)}`;
/** sigs.k8s.io/json's strict error for a repeated field: `duplicate field "data.a"`. */
const duplicateFieldProblem = (path: string): string => `duplicate field ${goQuote(path)}`;

/** Upstream's `runtime.NewStrictDecodingError` text: `strict decoding error: unknown field "a", duplicate field "b"`. */
function strictDecodingMessage(unknown: readonly string[], duplicates: readonly string[], duplicatesFirst: boolean): string {
  const u = unknown.map(unknownFieldProblem);
  const d = duplicates.map(duplicateFieldProblem);
  return `strict decoding error: ${(duplicatesFirst ? [...d, ...u] : [...u, ...d]).join(', ')}`;
}

/**
 * 400 for a body of `kind` that does not decode, as upstream's transformDecodeError words it for
 * a body whose kind it read: `ConfigMap in version "v1" cannot be handled as a ConfigMap:
 * <decoder error>` (spec 001 § Errors 400).
 */
export function cannotBeHandled(kind: KindDefinition, err: ObjectDecodeError): StatusError {
  return newBadRequest(`${kind.kind} in version "${kind.version}" cannot be handled as a ${kind.kind}: ${err.message}`);
}

/**
 * Type-checks and prunes `obj` in place. Unknown fields and `duplicates` (keys repeated in the
 * body, found while parsing): dropped silently (Ignore), one warning each (Warn), or an
 * ObjectDecodeError listing all (Strict). A type error is an ObjectDecodeError without that list
 * whatever the level. `zeroNulls`: see decodeObject.
 */
export function checkFields(req: RequestContext, kind: KindDefinition, obj: Obj, validation: FieldValidation, duplicates: readonly string[] = [], zeroNulls = true): void {
  const res = decodeObject(kind.schema, obj, true, zeroNulls);
  if (res.typeError) throw new ObjectDecodeError(res.typeError, [], [], res.converterError);
  reportUnknownFields(req, res.unknownFields, duplicates, validation);
}

/**
 * Reports unknown and duplicate fields per the field validation level: nothing (Ignore), one
 * warning each (Warn), or an ObjectDecodeError listing all (Strict). spec 000 § Field validation
 * levels.
 */
function reportUnknownFields(req: RequestContext, unknown: readonly string[], duplicates: readonly string[], validation: FieldValidation): void {
  if (unknown.length + duplicates.length === 0 || validation === 'Ignore') return;
  if (validation === 'Strict') throw ObjectDecodeError.strict(unknown, duplicates);
  for (const f of unknown) addWarning(req, unknownFieldProblem(f));
  for (const f of duplicates) addWarning(req, duplicateFieldProblem(f));
}

/**
 * Checks the type meta (checkTypeMeta), type-checks and prunes (checkFields) and defaults `obj`
 * in place, then returns its canonical form (a new object, lib/apimachinery/schema/canonical.ts):
 * what upstream's typed object holds after decoding, Go zero values included, so that admission,
 * validation and managed fields see what will be stored (`resources: {}` is a set field).
 * @throws ObjectDecodeError for a field of the wrong type, or unknown or duplicate fields at the
 *   Strict level.
 */
export function decodeTyped(req: RequestContext, kind: KindDefinition, obj: Obj, validation: FieldValidation, duplicates: readonly string[] = []): Obj {
  checkTypeMeta(kind, obj);
  const custom = kind.custom;
  if (custom) {
    reportUnknownFields(req, custom.prune(obj), duplicates, validation);
    custom.applyDefaults(obj);
    return custom.canonicalize(obj);
  }
  checkFields(req, kind, obj, validation, duplicates);
  applyDefaults(kind.schema, obj);
  return canonicalize(kind.schema, obj);
}

/**
 * Reads, parses and type-decodes an object body, finding duplicate fields unless they are
 * ignored; a body the decoder cannot read is 400 newUnrecognizedObject, one that does not decode
 * as the kind 400 cannotBeHandled. Protobuf is taken in the
 * spellings the server speaks (`upstreamAliases`: `--upstream-aliases`, issue #9); any other
 * media type is 415.
 */
export function decodeBodyObject(
  req: RequestContext,
  kind: KindDefinition,
  contentType: string | undefined,
  body: Buffer,
  validation: FieldValidation,
  upstreamAliases: boolean,
): Obj {
  return decodeBodyObjectOf(req, [kind], contentType, body, validation, upstreamAliases);
}

/**
 * decodeBodyObject for a body that may name any of `kinds` (one kind in each accepted spelling:
 * the vendor group and its upstream alias, for a create-only subresource whose kind belongs to
 * another group than its path): decoded as the kind whose apiVersion the body names, else as the
 * first (whose type-meta check then answers the mismatch, 400). The result's `apiVersion` tells
 * which spelling was taken.
 */
export function decodeBodyObjectOf(
  req: RequestContext,
  kinds: readonly KindDefinition[],
  contentType: string | undefined,
  body: Buffer,
  validation: FieldValidation,
  upstreamAliases: boolean,
): Obj {
  const duplicates = validation === 'Ignore' ? undefined : [];
  let raw: Obj;
  try {
    // Custom kinds have no protobuf form: such a body is 415, as any unsupported media type.
    const mediaTypes = kinds[0]!.custom ? [] : protobufMediaTypes(upstreamAliases);
    raw = decodeObjectBody(contentType, body, duplicates, { mediaTypes, decode: (b) => decodeProtobufBody(kinds, b) });
  } catch (err) {
    if (err instanceof BodyDecodeError) throw newUnrecognizedObject(kinds[0]!.kind, err.decodeError, body);
    throw err;
  }
  const kind = kinds.find((k) => k.apiVersion === raw.apiVersion) ?? kinds[0]!;
  return decodeTypedBody(req, kind, raw, validation, duplicates);
}

/**
 * decodeTyped for a whole body of `kind` (a create's, an update's, an apply's merged object): an
 * object that does not decode is 400 {@link cannotBeHandled}.
 */
export function decodeTypedBody(req: RequestContext, kind: KindDefinition, obj: Obj, validation: FieldValidation, duplicates: readonly string[] = []): Obj {
  try {
    return decodeTyped(req, kind, obj, validation, duplicates);
  } catch (err) {
    if (err instanceof ObjectDecodeError) throw cannotBeHandled(kind, err);
    throw err;
  }
}

/**
 * Upstream's `summarizeData(body, 30)`: `<empty>`, an object body's first bytes as text, any other
 * body's first bytes in lower-case hex; ` ...` follows when the body is longer than `maxLength`.
 */
export function summarizeData(data: Uint8Array, maxLength = 30): string {
  if (data.length === 0) return '<empty>';
  const head = data.subarray(0, maxLength);
  const more = data.length > maxLength ? ' ...' : '';
  if (data[0] === 0x7b) return goStringFromBytes(head) + more;
  return Buffer.from(head).toString('hex') + more;
}

/**
 * 400 for a body the decoder could not read before it knew its kind, as upstream's
 * transformDecodeError words it: `the object provided is unrecognized (must be of type <Kind>):
 * <decoder error> (<summarizeData>)`.
 */
export function newUnrecognizedObject(kind: string, decodeError: string, body: Uint8Array): StatusError {
  return newBadRequest(`the object provided is unrecognized (must be of type ${kind}): ${decodeError} (${summarizeData(body)})`);
}
