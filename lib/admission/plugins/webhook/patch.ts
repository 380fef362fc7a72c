/**
 * Applying a mutating webhook's JSONPatch (upstream v1.30 `callAttrMutatingHook` after the call;
 * spec 001 § Admission control): the patch is applied to the object in the version the webhook
 * was sent (RFC 6902, with the project's JSON Patch library), and the result decoded as that
 * kind (unknown fields dropped, a field of the wrong type refused), defaulted, and converted back
 * to the stored version. An undecodable patch or an unsupported patch type is a failure of the
 * call (the failure policy decides); a patch that does not apply, or whose result does not
 * decode, is a 500 whatever the policy, as upstream.
 */
import { deepCopy, deepEqual } from '../../../apimachinery/deep-equal.js';
import { newInternalError } from '../../../apimachinery/errors.js';
import { applyJSONPatch, jsonPatchShapeError } from '../../../apimachinery/patch/json-patch.js';
import { canonicalize } from '../../../apimachinery/schema/canonical.js';
import { goJSONSyntaxError } from '../../../apimachinery/serializers/go-json-errors.js';
import { decodeObject } from '../../../apimachinery/schema/decode.js';
import { applyDefaults } from '../../../apimachinery/schema/defaults.js';
import type { KindDefinition, Obj } from '../../../apis/define.js';
import { objectInMatchedVersion } from '../../cel/activation.js';
import type { AdmissionAttributes } from '../../interface.js';
import type { MatchedResource } from '../../matching/rules.js';
import { patchWithoutObjectMessage } from './call.js';
import { CallingWebhookError } from './errors.js';

/** The outcome of a patch: the new object in the stored version, and whether it differs. */
export interface PatchOutcome {
  object: Obj;
  changed: boolean;
  /** The decoded operations (for the audit annotation). */
  operations: unknown[];
}

function decodeOperations(webhook: string, patch: Buffer): unknown[] {
  let ops: unknown;
  try {
    ops = JSON.parse(patch.toString('utf8'));
  } catch {
    throw new CallingWebhookError(webhook, `received undecodable patch in webhook response: ${goJSONSyntaxError(patch) ?? 'unexpected end of JSON input'}`);
  }
  const shape = jsonPatchShapeError(ops);
  if (shape) throw new CallingWebhookError(webhook, `received undecodable patch in webhook response: ${shape}`);
  return (ops ?? []) as unknown[];
}

/**
 * Applies the webhook's `patch` of `patchType` to `attrs.object` as sent (matched as
 * `matched`); `kind` is the stored kind of the resource (undefined when the object is of
 * another kind, such as a Scale: it is then taken as patched).
 * @returns null when the patch is empty.
 * @throws CallingWebhookError (undecodable patch, unsupported type); StatusError 500.
 */
export function applyWebhookPatch(webhook: string, attrs: AdmissionAttributes, matched: MatchedResource, patch: Buffer, patchType: string, kind: KindDefinition | undefined): PatchOutcome | null {
  const operations = decodeOperations(webhook, patch);
  if (operations.length === 0) return null;
  if (attrs.object === null) throw newInternalError(patchWithoutObjectMessage(webhook));
  if (patchType !== 'JSONPatch') throw new CallingWebhookError(webhook, `unsupported patch type ${JSON.stringify(patchType)}`);
  const conversion = matched.served?.conversion;
  const before = objectInMatchedVersion(attrs.object, matched)!;
  let patched: Obj;
  try {
    const result = applyJSONPatch(deepCopy(before), operations);
    if (result === null || typeof result !== 'object' || Array.isArray(result)) throw new Error('the patched document is not an object');
    patched = result as Obj;
  } catch (err) {
    throw newInternalError((err as Error).message.split('\n')[0] ?? 'invalid patch');
  }
  const versionedKind = conversion ? conversion.servedKind : kind;
  let after = patched;
  let baseline = before;
  if (versionedKind && (before.kind ?? versionedKind.kind) === versionedKind.kind) {
    baseline = canonicalize(versionedKind.schema, before);
    for (const key of ['apiVersion', 'kind']) {
      if (before[key] === undefined) delete patched[key];
      else patched[key] = before[key];
    }
    const decoded = decodeObject(versionedKind.schema, patched);
    if (decoded.typeError) throw newInternalError(decoded.typeError);
    applyDefaults(versionedKind.schema, patched);
    after = canonicalize(versionedKind.schema, patched);
  }
  const changed = !deepEqual(baseline, after);
  return { object: conversion ? conversion.toStorage(after) : after, changed, operations };
}
