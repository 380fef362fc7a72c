/**
 * The ConversionReview exchanged with conversion webhooks (apiextensions.<vendor>/v1 and
 * v1beta1; upstream apiextensions-apiserver conversion `createConversionReviewObjects`,
 * `getConvertedObjectsFromResponse`, `getRawExtensionObject`). The request names the vendor
 * group, as this server's AdmissionReview does; an answer in the vendor group or its upstream
 * alias (`apiextensions.k8s.io`) is accepted. Every check throws a plain Error with upstream's
 * text; the converter adds the `conversion webhook for …` prefix.
 */
import { canonicalGroup, vendorGroup } from '../../apis/vendor.js';

type Obj = Record<string, unknown>;

/** The group of ConversionReview and of CustomResourceDefinition (`apiextensions.<vendor>`). */
export const APIEXTENSIONS_GROUP = vendorGroup('apiextensions');
const REVIEW_KIND = 'ConversionReview';

/** The ConversionReview versions this server speaks. */
export type ConversionReviewVersion = 'v1' | 'v1beta1';

/**
 * The version to send: the first of the CRD's `conversionReviewVersions` this server speaks.
 * @throws Error `no supported conversion review versions` when there is none.
 */
export function conversionReviewVersion(accepted: readonly string[] | undefined): ConversionReviewVersion {
  for (const v of accepted ?? []) if (v === 'v1' || v === 'v1beta1') return v;
  throw new Error('no supported conversion review versions');
}

/** The request document (JSON text): `{kind, apiVersion, request: {uid, desiredAPIVersion, objects}}`. */
export function encodeConversionReview(version: ConversionReviewVersion, uid: string, desiredAPIVersion: string, objects: readonly Obj[]): string {
  return JSON.stringify({ kind: REVIEW_KIND, apiVersion: `${APIEXTENSIONS_GROUP}/${version}`, request: { uid, desiredAPIVersion, objects } });
}

function typeError(value: unknown, field: string, goType: string): Error {
  return new Error(`json: cannot unmarshal ${jsonKind(value)} into Go struct field ConversionReview.response.${field} of type ${goType}`);
}

/** encoding/json's name of a JSON value's kind. */
function jsonKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v;
}

const isMap = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `group/version, Kind=<kind>` of a type meta, as Go prints a GroupVersionKind. */
function gvkOf(group: string, version: string): string {
  return `${group}/${version}, Kind=${REVIEW_KIND}`;
}

/** The type meta of an answer, checked as upstream's decoder and `getConvertedObjectsFromResponse` do. */
function checkTypeMeta(version: ConversionReviewVersion, body: unknown): void {
  if (!isMap(body)) {
    throw new Error(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonKind(body)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    );
  }
  const { apiVersion, kind } = body;
  if (typeof kind !== 'string' || kind === '') {
    const text = JSON.stringify(body);
    throw new Error(`Object 'Kind' is missing in '${text.length > 512 ? `${text.slice(0, 512)}…` : text}'`);
  }
  const av = typeof apiVersion === 'string' ? apiVersion : '';
  const slash = av.indexOf('/');
  const group = slash < 0 ? '' : canonicalGroup(av.slice(0, slash));
  const got = slash < 0 ? av : av.slice(slash + 1);
  if (kind !== REVIEW_KIND || group !== APIEXTENSIONS_GROUP || (got !== 'v1' && got !== 'v1beta1')) {
    throw new Error(`no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(av)}`);
  }
  if (version === 'v1' && got !== 'v1') {
    throw new Error(`expected webhook response of ${gvkOf(APIEXTENSIONS_GROUP, 'v1')}, got ${gvkOf(APIEXTENSIONS_GROUP, got)}`);
  }
}

/**
 * Checks a webhook's answer (parsed JSON) to a review of `version` with `uid` and returns its
 * `response.convertedObjects` as answered (not yet checked one by one). For v1: the answer is a
 * v1 ConversionReview whose `response.uid` is `uid`; for both versions: a response is present
 * and `response.result.status` is `Success` (otherwise the webhook's `result.message`, or
 * `response.result.status was '<status>', not 'Success'`).
 * @throws Error with upstream's text.
 */
export function decodeConversionResponse(version: ConversionReviewVersion, uid: string, body: unknown): unknown[] {
  checkTypeMeta(version, body);
  const response = (body as Obj).response;
  if (response === undefined || response === null) throw new Error('no response provided');
  if (!isMap(response)) throw new Error(`json: cannot unmarshal ${jsonKind(response)} into Go struct field ConversionReview.response of type ${version}.ConversionResponse`);
  const got = response.uid ?? '';
  if (typeof got !== 'string') throw typeError(got, 'uid', 'types.UID');
  const result = response.result ?? {};
  if (!isMap(result)) throw typeError(result, 'result', 'v1.Status');
  const status = result.status ?? '';
  if (typeof status !== 'string') throw typeError(status, 'result.status', 'string');
  const message = result.message ?? '';
  if (typeof message !== 'string') throw typeError(message, 'result.message', 'string');
  const converted = response.convertedObjects ?? [];
  if (!Array.isArray(converted)) throw typeError(converted, 'convertedObjects', '[]runtime.RawExtension');
  if (version === 'v1' && got !== uid) throw new Error(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(got)}`);
  if (status !== 'Success') throw new Error(message !== '' ? message : `response.result.status was '${status}', not 'Success'`);
  return converted;
}

/**
 * One converted object as upstream's unstructured decoder reads it: a JSON object with a kind.
 * @throws Error `Object 'Kind' is missing in '<json>'` or a decoding error for a non-object.
 */
export function convertedObject(raw: unknown): Obj {
  if (!isMap(raw)) throw new Error(`json: cannot unmarshal ${jsonKind(raw)} into Go value of type map[string]interface {}`);
  if (typeof raw.kind !== 'string' || raw.kind === '') throw new Error(`Object 'Kind' is missing in '${JSON.stringify(raw)}'`);
  return raw;
}
