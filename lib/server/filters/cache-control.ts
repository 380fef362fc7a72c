/**
 * The Cache-Control filter (upstream v1.30 `endpoints/filters/cachecontrol.go`; in
 * handler-chain.ts after request info and before the timeout, as in upstream's chain): every
 * response says `Cache-Control: no-cache, private` unless its handler sets another value (the
 * OpenAPI v3 documents at a content hash, the service account issuer's discovery documents).
 * What the server answers is for the authenticated client alone, so no shared cache may keep it
 * and no cache may reuse it without asking again. Errors written after this filter (401, 403,
 * 404, 429, 504) carry it too, as upstream's do.
 */
import type { Context, Next } from 'koa';

/** The `Cache-Control` value of every API response. */
export const NO_CACHE_PRIVATE = 'no-cache, private';

/** Koa middleware setting {@link NO_CACHE_PRIVATE} before the rest of the chain runs (handlers may replace it). */
export function withCacheControl() {
  return (koa: Context, next: Next): Promise<void> => {
    koa.res.setHeader('Cache-Control', NO_CACHE_PRIVATE);
    return next();
  };
}
