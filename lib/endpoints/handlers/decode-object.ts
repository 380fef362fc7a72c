/**
 * Turns a request body into an object of the addressed kind: the type meta must match the path,
 * the typed decoder checks field types and prunes unknown fields (reported per the field
 * validation level), and defaults are applied (spec 000 § Field validation levels; spec 001
 * § Errors 400).
 */
import { type StatusError, newBadRequest } from '../../apimachinery/errors.js';
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
 * Type-checks and prunes `obj` in place. Unknown fields and `duplicates` (keys repeated in the
 * body, found while parsing): dropped silently (Ignore), one warning each (Warn), or 400 listing
 * all (Strict). A type error is 400 without that list whatever the level.
 */
export function checkFields(req: RequestContext, kind: KindDefinition, obj: Obj, validation: FieldValidation, duplicates: readonly string[] = []): void {
  const res = decodeObject(kind.schema, obj);
  if (res.typeError) {
    throw newBadRequest(`${kind.kind} in version "${kind.version}" cannot be handled as a ${kind.kind}: ${res.typeError}`);
  }
  reportUnknownFields(req, res.unknownFields, duplicates, validation);
}

/**
 * Reports unknown and duplicate fields per the field validation level: nothing (Ignore), one
 * warning each (Warn), or 400 listing all (Strict). spec 000 § Field validation levels.
 */
function reportUnknownFields(req: RequestContext, unknown: readonly string[], duplicates: readonly string[], validation: FieldValidation): void {
  const problems = [...unknown.map((f) => `unknown field "${f}"`), ...duplicates.map((f) => `duplicate field "${f}"`)];
  if (problems.length > 0) {
    if (validation === 'Strict') throw newBadRequest(`strict decoding error: ${problems.join(', ')}`);
    if (validation === 'Warn') for (const p of problems) addWarning(req, p);
  }
}

/**
 * Checks the type meta (checkTypeMeta), type-checks and prunes (checkFields) and defaults `obj`
 * in place, then returns its canonical form (a new object, lib/apimachinery/schema/canonical.ts):
 * what upstream's typed object holds after decoding, Go zero values included, so that admission,
 * validation and managed fields see what will be stored (`resources: {}` is a set field).
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
 * ignored; a body the decoder cannot read is 400 newUnrecognizedObject. Protobuf is taken in the
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
  return decodeTyped(req, kind, raw, validation, duplicates);
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
