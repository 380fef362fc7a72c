/**
 * Mounts the OpenAPI paths on the server's router, one OpenAPIService per installer, and the
 * invalidation hook for whoever changes what an installer serves (custom resources).
 * The router sits behind authentication and authorization: `/openapi/*` is readable by
 * authenticated users, as the default `system:discovery` role grants (RBAC).
 */
import type Router from '@koa/router';
import { serveOpenAPIV2, serveOpenAPIV3Document, serveOpenAPIV3Index } from './handler.js';
import { OpenAPIService, type ServedGroupVersions } from './service.js';

const services = new WeakMap<ServedGroupVersions, OpenAPIService>();

const V3_PREFIX = '/openapi/v3/';

/**
 * Adds `GET /openapi/v2`, `/openapi/v3` and `/openapi/v3/*` for `installer`'s resources;
 * `version` is the documents' `info.version`. Returns the service (also reachable through
 * `openAPIServiceOf`).
 */
export function installOpenAPI(router: Router, installer: ServedGroupVersions, version: string): OpenAPIService {
  const service = new OpenAPIService(installer, version);
  services.set(installer, service);
  router.get('/openapi/v2', (koa) => serveOpenAPIV2(koa, service));
  router.get('/openapi/v3', (koa) => serveOpenAPIV3Index(koa, service));
  router.get(`${V3_PREFIX}*document`, (koa) => serveOpenAPIV3Document(koa, service, koa.path.slice(V3_PREFIX.length)));
  return service;
}

/** The OpenAPI service mounted for `installer`, if any. */
export function openAPIServiceOf(installer: ServedGroupVersions): OpenAPIService | undefined {
  return services.get(installer);
}

/**
 * Invalidation hook: drops `installer`'s cached OpenAPI documents (a no-op when none is mounted).
 * Changes of the set of served kinds are also detected on the next request without it.
 */
export function invalidateOpenAPI(installer: ServedGroupVersions): void {
  services.get(installer)?.invalidate();
}
