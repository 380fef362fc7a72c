/**
 * The service-account issuer discovery paths (upstream `pkg/routes/openidmetadata.go`; issue #10
 * item 2): `GET /.well-known/openid-configuration` (application/json) and `GET /openid/v1/jwks`
 * (application/jwk-set+json), both cacheable for an hour (`Cache-Control: public, max-age=3600`,
 * overriding the API's `no-cache, private`).
 */
import type Router from '@koa/router';
import { JWKS_PATH, OPENID_CONFIG_PATH, OPENID_METADATA_MAX_AGE_SECONDS, type OpenIDMetadata } from '../authentication/serviceaccount/openid-metadata.js';

/** Media type of the key set (RFC 7517 § 8.5.1). */
const JWKS_MEDIA_TYPE = 'application/jwk-set+json';
const CACHE_CONTROL = `public, max-age=${OPENID_METADATA_MAX_AGE_SECONDS}`;

/** Adds the two discovery routes; `serverAddress` (`host:port`) gives the default `jwks_uri`. */
export function installOpenIDMetadata(router: Router, metadata: OpenIDMetadata, serverAddress: () => string): void {
  router.get(OPENID_CONFIG_PATH, (koa) => {
    koa.body = metadata.configJSON(serverAddress());
    koa.set('Content-Type', 'application/json');
    koa.set('Cache-Control', CACHE_CONTROL);
  });
  router.get(JWKS_PATH, (koa) => {
    koa.body = metadata.keysetJSON;
    koa.set('Content-Type', JWKS_MEDIA_TYPE);
    koa.set('Cache-Control', CACHE_CONTROL);
  });
}
