/**
 * Serves `/openapi/v2`, `/openapi/v3` and `/openapi/v3/<api/v1 | apis/<group>/<version>>` from the
 * cached documents of service.ts (spec 000 § Other paths), as kube-openapi's `handler` and
 * `handler3`: Accept negotiation over the forms offered (first matching clause wins, 406 when
 * none), a quoted ETag with `If-None-Match` (and `If-Modified-Since`) answered 304, `Vary: Accept`;
 * v2 gzipped for clients accepting it; v3 documents requested with the current `?hash=` are
 * `Cache-Control: public, immutable` with an `Expires` a year ahead, a stale hash is redirected
 * (301) to the current one, and anything else is `no-cache, private` as upstream's default filter.
 */
import type { Context } from 'koa';
import { newNotAcceptable } from '../../apimachinery/errors.js';
import { newResourceNotFound } from '../installer.js';
import { acceptsGzip } from '../handlers/compression.js';
import { parseAccept } from '../negotiation/media-type.js';
import { OPENAPI_V2_PROTOBUF_MEDIA_TYPE, OPENAPI_V2_PROTOBUF_REQUEST_SUBTYPE, OPENAPI_V2_PROTOBUF_SUBTYPE } from './media-types.js';
import { type CachedBody, type OpenAPIService, serverRelativeURL } from './service.js';

const JSON_MEDIA_TYPE = 'application/json';
/** Bodies below this size are not gzipped (the gzip handler upstream wraps `/openapi/v2` with). */
const GZIP_MIN_BYTES = 1400;
const ONE_YEAR_MS = 365 * 24 * 3600 * 1000;

/** One form an endpoint offers: the `application/<subtype>` it matches and the body it answers. */
interface Form {
  subtype: string;
  contentType: string;
  body: () => Promise<CachedBody>;
}

/** The first form matched by the Accept clauses in their negotiated order; 406 when none. */
function chooseForm(koa: Context, forms: readonly Form[]): Form {
  koa.vary('Accept');
  for (const clause of parseAccept(koa.get('Accept'))) {
    const form = forms.find((f) => (clause.type === 'application' || clause.type === '*') && (clause.subtype === f.subtype || clause.subtype === '*'));
    if (form) return form;
  }
  throw newNotAcceptable(forms.map((f) => `application/${f.subtype}`));
}

/** True when the request's validators still match (`If-None-Match`, else `If-Modified-Since`). */
function notModified(koa: Context, etag: string, lastModified: Date): boolean {
  const inm = koa.get('If-None-Match');
  if (inm) {
    return inm.split(',').some((t) => {
      const tag = t.trim();
      return tag === '*' || tag.replace(/^W\//, '') === `"${etag}"`;
    });
  }
  const ims = koa.get('If-Modified-Since');
  if (!ims) return false;
  const since = Date.parse(ims);
  return Number.isFinite(since) && lastModified.getTime() <= since;
}

/** Writes a cached body with its validators (304 when the client's copy is current). */
function writeCached(koa: Context, contentType: string, c: CachedBody, allowGzip: boolean): void {
  koa.set('ETag', `"${c.etag}"`);
  koa.set('Last-Modified', c.lastModified.toUTCString());
  if (notModified(koa, c.etag, c.lastModified)) {
    koa.status = 304;
    return;
  }
  koa.status = 200;
  let body = c.body;
  if (allowGzip && c.body.length >= GZIP_MIN_BYTES) {
    koa.vary('Accept-Encoding');
    if (acceptsGzip(koa.get('Accept-Encoding'))) {
      body = c.gzip;
      koa.set('Content-Encoding', 'gzip');
    }
  }
  koa.body = body;
  koa.set('Content-Type', contentType);
}

/** `GET /openapi/v2`: JSON, or the gnostic protobuf answered with the dot-form media type. */
export async function serveOpenAPIV2(koa: Context, service: OpenAPIService): Promise<void> {
  const protobuf = async () => (await service.swagger()).protobuf;
  const form = chooseForm(koa, [
    { subtype: 'json', contentType: JSON_MEDIA_TYPE, body: () => service.swaggerJSONBody() },
    { subtype: OPENAPI_V2_PROTOBUF_REQUEST_SUBTYPE, contentType: OPENAPI_V2_PROTOBUF_MEDIA_TYPE, body: protobuf },
    { subtype: OPENAPI_V2_PROTOBUF_SUBTYPE, contentType: OPENAPI_V2_PROTOBUF_MEDIA_TYPE, body: protobuf },
  ]);
  writeCached(koa, form.contentType, await form.body(), true);
}

/** `GET /openapi/v3`: the index of group-version documents with their hashed URLs. */
export async function serveOpenAPIV3Index(koa: Context, service: OpenAPIService): Promise<void> {
  const { index } = await service.v3();
  writeCached(koa, JSON_MEDIA_TYPE, index, false);
}

/** `GET /openapi/v3/<documentPath>` (`api/v1`, `apis/apps/v1`); 404 for a path not in the index. */
export async function serveOpenAPIV3Document(koa: Context, service: OpenAPIService, documentPath: string): Promise<void> {
  const doc = (await service.v3()).documents.get(documentPath);
  if (!doc) throw newResourceNotFound();
  const form = chooseForm(koa, [{ subtype: 'json', contentType: JSON_MEDIA_TYPE, body: async () => doc }]);
  const c = await form.body();
  const hash = new URLSearchParams(koa.querystring).get('hash');
  if (hash) {
    if (hash !== c.etag) {
      koa.set('ETag', `"${c.etag}"`);
      koa.status = 301;
      koa.redirect(serverRelativeURL(documentPath, c.etag));
      return;
    }
    koa.set('Cache-Control', 'public, immutable');
    koa.set('Expires', new Date(Date.now() + ONE_YEAR_MS).toUTCString());
  }
  writeCached(koa, form.contentType, c, false);
}
