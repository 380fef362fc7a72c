/**
 * Turns a request body into an object of the addressed kind: the type meta must match the path,
 * the typed decoder checks field types and prunes unknown fields (reported per the field
 * validation level), and defaults are applied (spec 000 § Field validation levels; spec 001
 * § Errors 400).
 */
import { newBadRequest } from '../../apimachinery/errors.js';
import { decodeObject } from '../../apimachinery/schema/decode.js';
import { applyDefaults } from '../../apimachinery/schema/defaults.js';
import type { KindDefinition, Obj } from '../../apis/define.js';
import { addWarning, type RequestContext } from '../../request/context.js';
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
 * Type-checks, prunes and defaults `obj` in place. Unknown fields: dropped silently (Ignore),
 * one warning each (Warn), or 400 listing all (Strict). A type error is 400 without the
 * unknown-field list whatever the level.
 */
export function decodeTyped(req: RequestContext, kind: KindDefinition, obj: Obj, validation: FieldValidation): Obj {
  checkTypeMeta(kind, obj);
  const res = decodeObject(kind.schema, obj);
  if (res.typeError) {
    throw newBadRequest(`${kind.kind} in version "${kind.version}" cannot be handled as a ${kind.kind}: ${res.typeError}`);
  }
  if (res.unknownFields.length > 0) {
    if (validation === 'Strict') {
      throw newBadRequest(`strict decoding error: ${res.unknownFields.map((f) => `unknown field "${f}"`).join(', ')}`);
    }
    if (validation === 'Warn') for (const f of res.unknownFields) addWarning(req, `unknown field "${f}"`);
  }
  applyDefaults(kind.schema, obj);
  return obj;
}
