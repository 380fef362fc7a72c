/**
 * PATCH of an object or subresource with JSON Patch (RFC 6902), JSON Merge Patch (RFC 7386),
 * strategic merge patch, or server-side apply (apply.ts) (spec 000 § Patch content types). The patch is applied to the CURRENT object inside the
 * optimistic-concurrency loop; a `metadata.resourceVersion` in the result makes it conditional.
 */
import { deepCopy } from '../../apimachinery/deep-equal.js';
import { StatusError, newBadRequest, newInvalid, newJSONPatchNotApplied, newNotFound, newRequestEntityTooLarge, newUnsupportedMediaType } from '../../apimachinery/errors.js';
import { invalid } from '../../apimachinery/field-errors.js';
import { goSprint } from '../../apimachinery/go-format.js';
import { jsonPatchedJSON, mergePatchedJSON } from '../../apimachinery/patch/patched-json.js';
import { applyJSONPatch, JSONPatchError, jsonPatchShapeError, tooManyOperations } from '../../apimachinery/patch/json-patch.js';
import { applyMergePatch } from '../../apimachinery/patch/merge-patch.js';
import { applyStrategicMergePatch } from '../../apimachinery/patch/strategic-merge.js';
import type { StructSchema } from '../../apimachinery/schema/types.js';
import { decodeJSON } from '../../apimachinery/serializers/json.js';
import { MAX_OBJECT_DEPTH, valueTooDeep } from '../../apimachinery/serializers/nesting.js';
import type { Obj } from '../../apis/define.js';
import { readBody, requestMediaType } from './body.js';
import { decodeTyped, ObjectDecodeError } from './decode-object.js';
import { admissionAttributes, type ObjectScope, recordWrite, toServed, toStorage, writeObject } from './scope.js';
import { handleApply } from './apply.js';
import { managerOf } from './field-manager.js';
import { parseWriteOptions } from './write-options.js';

export const JSON_PATCH = 'application/json-patch+json';
export const MERGE_PATCH = 'application/merge-patch+json';
export const STRATEGIC_MERGE_PATCH = 'application/strategic-merge-patch+json';

export const APPLY_PATCH = 'application/apply-patch+yaml';

/** Patch media types this server accepts (listed in 415 responses). */
export const PATCH_TYPES = [JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH, APPLY_PATCH] as const;

/** A patch of one of the three kinds, ready to apply. */
interface Patcher {
  /**
   * Applies the patch to `current` (the storage's object, possibly the watch cache's): returns an
   * object of its own, which the decoder then prunes and defaults in place; `current` is only read.
   */
  apply(current: Obj): Obj;
  /**
   * The text upstream quotes as the bad value of the field `patch` when the result does not
   * decode: the patched object as its JSON patch library writes it (patched-json.ts), or the
   * strategic merge patch itself printed as a Go map (`map[spec:map[replicas:2 wat:1]]`).
   */
  quoted(current: Obj): string;
  /** What upstream says of a result that does not decode (a strategic merge patch's is converted, not decoded). */
  detail(err: ObjectDecodeError): string;
}

/**
 * 422 for a patch whose result does not decode as the kind (a field of the wrong type, or unknown
 * or duplicate fields at the Strict level), as upstream answers it: ` "" is invalid: patch:
 * Invalid value: "<quoted>": strict decoding error: unknown field "spec.wat"`.
 */
function undecodablePatch(quoted: string, detail: string): StatusError {
  return newInvalid({ group: '', kind: '' }, '', [invalid('patch', quoted, detail)]);
}

/** A decode error of a JSON or merge patch's result: the decoder's words, the patch's own duplicates first. */
const decoderDetail = (err: ObjectDecodeError): string => err.messageListing(true);

function invalidPatch(message: string): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Invalid', code: 422 });
}

function jsonPatcher(body: Buffer): Patcher {
  const doc = decodeJSON(body);
  const shape = jsonPatchShapeError(doc);
  if (shape) throw newBadRequest(shape);
  const ops = (doc ?? []) as unknown[];
  const tooMany = tooManyOperations(ops.length);
  if (tooMany) throw newRequestEntityTooLarge(tooMany);
  return {
    apply: (current) => {
      let patched: Obj;
      try {
        // Applied to a copy of the current object (deepCopy: the library's own copy is a JSON round
        // trip), with a copy of the operations per attempt: their values end up in the result, which
        // the decoder prunes and defaults in place, and a retry on conflict applies them again.
        // `__proto__` is an ordinary key in this process (lib/server/prototype-hardening.ts), so it
        // is not banned.
        patched = applyJSONPatch(deepCopy(current), deepCopy(ops)) as Obj;
      } catch (err) {
        // Upstream tells no more than this: the library's reason (`testing value /a failed`,
        // the copy bound…) stays in the server.
        if (err instanceof JSONPatchError) throw newJSONPatchNotApplied();
        throw err;
      }
      // Operations can add (or copy) a value as deep as the body below a path as deep as the object:
      // each patch could nest the object further. A merge patch's result is never deeper than the
      // object or the patch, so only this patcher checks.
      if (valueTooDeep(patched)) throw invalidPatch(`the patched object nests objects and arrays deeper than ${MAX_OBJECT_DEPTH} levels, the most this server accepts`);
      return patched;
    },
    quoted: (current) => {
      // Applied once more (it applied before), noting the containers each operation walks.
      const walked = new Set<object>();
      return jsonPatchedJSON(applyJSONPatch(deepCopy(current), deepCopy(ops), undefined, walked), walked);
    },
    detail: decoderDetail,
  };
}

function objectPatch(body: Buffer, duplicates?: string[]): Obj {
  const patch = decodeJSON(body, duplicates);
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) {
    throw newBadRequest('error decoding patch: json: cannot unmarshal non-object into Go value of type map[string]interface {}');
  }
  return patch as Obj;
}

function mergePatcher(body: Buffer, duplicates?: string[]): Patcher {
  const patch = objectPatch(body, duplicates);
  return { apply: (current) => applyMergePatch(current, patch) as Obj, quoted: (current) => mergePatchedJSON(current, patch), detail: decoderDetail };
}

function strategicPatcher(body: Buffer, schema: StructSchema, duplicates?: string[]): Patcher {
  const patch = objectPatch(body, duplicates);
  return {
    // The result shares with its input the parts the patch leaves alone: the input is a copy.
    apply: (current) => applyStrategicMergePatch(deepCopy(current), patch, schema),
    quoted: () => goSprint(patch),
    detail: (err) => (err.strict ? err.messageListing(true) : (err.converterMessage ?? err.message)),
  };
}

/** Patch media types of custom resources: no strategic merge patch, which needs Go struct tags (spec 000 § Patch content types). */
export const CUSTOM_PATCH_TYPES = [JSON_PATCH, MERGE_PATCH, APPLY_PATCH] as const;

/** Serves `patch`. */
export async function handlePatch(s: ObjectScope): Promise<void> {
  const mt = requestMediaType(s.koa.get('Content-Type'));
  const accepted: readonly string[] = s.kind.custom ? CUSTOM_PATCH_TYPES : PATCH_TYPES;
  if (!accepted.includes(mt)) throw newUnsupportedMediaType(accepted);
  const opts = parseWriteOptions(s.query, 'PatchOptions', mt === APPLY_PATCH);
  const body = await readBody(s.koa.req);
  if (mt === APPLY_PATCH) return handleApply(s, body, opts);
  const manager = managerOf(opts.fieldManager, s.req.userAgent);
  let patcher: Patcher;
  const duplicates = opts.fieldValidation === 'Ignore' ? undefined : [];
  if (mt === JSON_PATCH) patcher = jsonPatcher(body);
  else if (mt === MERGE_PATCH) patcher = mergePatcher(body, duplicates);
  else patcher = strategicPatcher(body, s.kind.schema, duplicates);
  const { obj } = await s.store.update(
    s.req,
    s.namespace,
    s.name,
    async (current) => {
      if (!current) throw newNotFound(s.store.gr, s.name);
      // The patch applies to the object as the client sees it (its served spelling), as upstream
      // patches the object converted to the request's version.
      const served = toServed(s, current);
      const patched = patcher.apply(served);
      if (patched === null || typeof patched !== 'object' || Array.isArray(patched)) throw invalidPatch('the patch result is not an object');
      let decoded: Obj;
      try {
        decoded = decodeTyped(s.req, s.kind, patched, opts.fieldValidation, duplicates);
      } catch (err) {
        if (err instanceof ObjectDecodeError) throw undecodablePatch(patcher.quoted(served), patcher.detail(err));
        throw err;
      }
      const next = toStorage(s, decoded);
      // Managed fields first, as upstream: what mutating admission adds belongs to no manager.
      recordWrite(s, current, next, manager);
      await s.admission.admit(s.req, admissionAttributes(s, 'UPDATE', next, current, opts.dryRun));
      return next;
    },
    {
      dryRun: opts.dryRun,
      // Every patcher leaves the current object as it was: the old object of managed fields and admission.
      transformReadsOnly: true,
      updateValidation: async (o, old) => s.admission.validate(s.req, admissionAttributes(s, 'UPDATE', o, old, opts.dryRun)),
    },
  );
  await writeObject(s, 200, obj);
}
