/**
 * The AdmissionReview exchanged with admission webhooks (admission.<vendor>/v1 and v1beta1,
 * upstream v1.30 `webhook/request`; spec 001 § Admission control): the request document a
 * webhook receives and the checks of its answer (decoding as upstream's typed decoder does, then
 * `VerifyAdmissionResponse`: present response, matching uid and type for v1, patch rules).
 */
import type { Obj } from '../../../apis/define.js';
import { canonicalGroup, vendorGroup } from '../../../apis/vendor.js';
import { admissionRequestValue, objectInMatchedVersion } from '../../cel/activation.js';
import type { AdmissionAttributes } from '../../interface.js';
import type { MatchedResource } from '../../matching/rules.js';

/** The group of AdmissionReview (`admission.<vendor>`). */
export const ADMISSION_GROUP = vendorGroup('admission');
/** The AdmissionReview versions this server speaks, in its order of preference when equal. */
export type ReviewVersion = 'v1' | 'v1beta1';

/**
 * The version to send a webhook: the first of its `admissionReviewVersions` this server speaks,
 * or null (the call fails with `webhook does not accept known AdmissionReview versions (v1, v1beta1)`).
 */
export function reviewVersion(accepted: readonly string[] | undefined): ReviewVersion | null {
  for (const v of accepted ?? []) if (v === 'v1' || v === 'v1beta1') return v;
  return null;
}

/**
 * The AdmissionReview request document (JSON text) for `attrs` matched as `matched`: uid, kind
 * and resource of the matched version, the addressed requestKind/requestResource, the objects
 * converted to the matched version (`null` when absent), dryRun and options. Empty optional
 * fields are left out as upstream's encoder does.
 */
export function encodeReviewRequest(version: ReviewVersion, uid: string, attrs: AdmissionAttributes, matched: MatchedResource): string {
  const r = admissionRequestValue(attrs, matched, uid);
  const user = r.userInfo as Obj;
  const userInfo: Obj = {};
  if (user.username) userInfo.username = user.username;
  if (user.uid) userInfo.uid = user.uid;
  if ((user.groups as string[]).length > 0) userInfo.groups = user.groups;
  if (Object.keys(user.extra as Obj).length > 0) userInfo.extra = user.extra;
  const request: Obj = { uid, kind: r.kind, resource: r.resource };
  if (r.subResource) request.subResource = r.subResource;
  request.requestKind = r.requestKind;
  request.requestResource = r.requestResource;
  if (r.requestSubResource) request.requestSubResource = r.requestSubResource;
  if (r.name) request.name = r.name;
  if (r.namespace) request.namespace = r.namespace;
  request.operation = r.operation;
  request.userInfo = userInfo;
  request.object = objectInMatchedVersion(attrs.object, matched);
  request.oldObject = objectInMatchedVersion(attrs.oldObject, matched);
  request.dryRun = r.dryRun;
  request.options = r.options;
  return JSON.stringify({ kind: 'AdmissionReview', apiVersion: `${ADMISSION_GROUP}/${version}`, request });
}

/** What a webhook answered, checked (upstream `AdmissionResponse`). */
export interface ReviewResponse {
  allowed: boolean;
  /** The decoded patch bytes (mutating webhooks only); absent when none. */
  patch?: Buffer;
  /** `JSONPatch` (v1beta1 answers with a patch are taken as JSONPatch); absent with no patch. */
  patchType?: string;
  /** `response.status` as answered (a Status, or anything: read defensively). */
  result?: unknown;
  auditAnnotations: Record<string, string>;
  warnings: string[];
}

/**
 * An answer that does not decode as an AdmissionReview (`stage` 'decode': reported as upstream's
 * `failed to call webhook: <message>`) or fails the checks (`stage` 'verify': `received invalid
 * webhook response: <message>`).
 */
export class ReviewError extends Error {
  override readonly name = 'ReviewError';
  constructor(
    readonly stage: 'decode' | 'verify',
    message: string,
  ) {
    super(message);
  }
}

const jsonType = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'boolean' ? 'bool' : typeof v);

function typeError(value: unknown, field: string, goType: string): ReviewError {
  return new ReviewError('decode', `json: cannot unmarshal ${jsonType(value)} into Go struct field AdmissionReview.response.${field} of type ${goType}`);
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function decodeBase64(text: string): Buffer {
  if (!BASE64.test(text) || text.length % 4 !== 0) {
    const bad = [...text].findIndex((c) => !/[A-Za-z0-9+/=]/.test(c));
    throw new ReviewError('decode', `illegal base64 data at input byte ${bad < 0 ? Math.max(0, text.length - (text.length % 4 || 4)) : bad}`);
  }
  return Buffer.from(text, 'base64');
}

function stringMap(value: unknown, field: string): Record<string, string> {
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw typeError(value, field, 'map[string]string');
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value as Obj)) {
    if (v === null) continue;
    if (typeof v !== 'string') throw typeError(v, field, 'string');
    out[k] = v;
  }
  return out;
}

function stringList(value: unknown, field: string): string[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) throw typeError(value, field, '[]string');
  return value.map((v) => {
    if (v === null) return '';
    if (typeof v !== 'string') throw typeError(v, field, 'string');
    return v;
  });
}

/** The type meta of an answer, checked as upstream's decoder does. */
function checkTypeMeta(body: unknown, text: string): { group: string; version: string } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ReviewError('decode', `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonType(body)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`);
  }
  const { apiVersion, kind } = body as Obj;
  if (typeof kind !== 'string' || kind === '') throw new ReviewError('decode', `Object 'Kind' is missing in '${text.length > 512 ? `${text.slice(0, 512)}…` : text}'`);
  const av = typeof apiVersion === 'string' ? apiVersion : '';
  const slash = av.indexOf('/');
  const group = slash < 0 ? '' : canonicalGroup(av.slice(0, slash));
  const version = slash < 0 ? av : av.slice(slash + 1);
  if (kind !== 'AdmissionReview' || group !== ADMISSION_GROUP || (version !== 'v1' && version !== 'v1beta1')) {
    throw new ReviewError('decode', `no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(av)}`);
  }
  return { group, version };
}

/**
 * Decodes and checks a webhook's answer (`text`, the body of a 2xx response) to a review of
 * `version` with `uid`. A v1 review must answer a v1 AdmissionReview with the same
 * `response.uid`; a mutating webhook's `patch` and `patchType` come together; a validating
 * webhook sends neither.
 * @throws ReviewError with upstream's wording.
 */
export function decodeReviewResponse(version: ReviewVersion, uid: string, mutating: boolean, text: string): ReviewResponse {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    throw new ReviewError('decode', `couldn't get version/kind; json parse error: ${(err as Error).message}`);
  }
  const gv = checkTypeMeta(body, text);
  const response = (body as Obj).response;
  if (response === undefined || response === null) throw new ReviewError('verify', 'webhook response was absent');
  if (typeof response !== 'object' || Array.isArray(response)) {
    throw new ReviewError('decode', `json: cannot unmarshal ${jsonType(response)} into Go struct field AdmissionReview.response of type v1.AdmissionResponse`);
  }
  const r = response as Obj;
  const got = r.uid ?? '';
  if (typeof got !== 'string') throw typeError(got, 'uid', 'types.UID');
  const allowed = r.allowed ?? false;
  if (typeof allowed !== 'boolean') throw typeError(allowed, 'allowed', 'bool');
  const patchText = r.patch ?? '';
  if (typeof patchText !== 'string') throw typeError(patchText, 'patch', '[]uint8');
  const patch = decodeBase64(patchText);
  const patchType = r.patchType ?? null;
  if (patchType !== null && typeof patchType !== 'string') throw typeError(patchType, 'patchType', 'v1.PatchType');
  const result = r.status ?? undefined;
  if (result !== undefined && (typeof result !== 'object' || Array.isArray(result))) throw typeError(result, 'status', 'v1.Status');
  const out: ReviewResponse = {
    allowed,
    result,
    auditAnnotations: stringMap(r.auditAnnotations, 'auditAnnotations'),
    warnings: stringList(r.warnings, 'warnings'),
  };
  if (version === 'v1beta1') {
    if (mutating && patch.length > 0) Object.assign(out, { patch, patchType: 'JSONPatch' });
    return out;
  }
  if (got !== uid) throw new ReviewError('verify', `expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(got)}`);
  if (gv.version !== 'v1') {
    throw new ReviewError('verify', `expected webhook response of ${ADMISSION_GROUP}/v1, Kind=AdmissionReview, got ${ADMISSION_GROUP}/${gv.version}, Kind=AdmissionReview`);
  }
  if (mutating) {
    if (patch.length > 0 && patchType === null) throw new ReviewError('verify', 'webhook returned response.patch but not response.patchType');
    if (patch.length === 0 && patchType !== null) throw new ReviewError('verify', 'webhook returned response.patchType but not response.patch');
    if (patchType === '') throw new ReviewError('verify', `webhook returned invalid response.patchType of ""`);
    if (patch.length > 0) Object.assign(out, { patch, patchType });
  } else {
    if (patch.length > 0) throw new ReviewError('verify', 'validating webhook may not return response.patch');
    if (patchType !== null) throw new ReviewError('verify', 'validating webhook may not return response.patchType');
  }
  return out;
}
