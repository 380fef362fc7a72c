/**
 * Service-account issuer discovery (upstream `pkg/serviceaccount/openidmetadata.go`): the OpenID
 * provider configuration served at `/.well-known/openid-configuration` and the JSON Web Key Set
 * served at `/openid/v1/jwks`, so that systems outside the cluster can verify service-account
 * tokens (issue #10 item 2). The documents are rendered once; only the default `jwks_uri`, which
 * names the server's own address, waits for the listening port.
 */
import type { ServiceAccountPublicKey } from './keys.js';

/** Path of the discovery document. */
export const OPENID_CONFIG_PATH = '/.well-known/openid-configuration';
/** Path of the key set. */
export const JWKS_PATH = '/openid/v1/jwks';
/** Cache lifetime of both documents (seconds), as upstream's `Cache-Control: public, max-age=3600`. */
export const OPENID_METADATA_MAX_AGE_SECONDS = 3600;

/** The rendered documents. */
export interface OpenIDMetadata {
  /** The discovery document; `serverAddress` (`host:port`) builds the default `jwks_uri`. */
  configJSON(serverAddress: string): string;
  /** The key set. */
  readonly keysetJSON: string;
}

/** One public JWK in go-jose's member order (`use`, `kty`, `kid`, `crv`, `alg`, `x`, `y`, `n`, `e`). */
function jwkOf(k: ServiceAccountPublicKey): Record<string, string> {
  const raw = k.key.export({ format: 'jwk' }) as Record<string, string>;
  const jwk: Record<string, string> = { use: 'sig', kty: raw.kty!, kid: k.keyId };
  if (raw.crv) jwk.crv = raw.crv;
  jwk.alg = k.algorithm;
  for (const m of ['x', 'y', 'n', 'e']) if (raw[m]) jwk[m] = raw[m]!;
  return jwk;
}

/**
 * Renders the issuer discovery documents (upstream `NewOpenIDMetadataProvider`): `issuer` is the
 * first `--service-account-issuer`, `jwksURI` the `--service-account-jwks-uri` (default
 * `https://<server address>/openid/v1/jwks`), `keys` every public key of `--service-account-key-file`.
 * @throws Error when the issuer is not an https URL without query and fragment, or there are no
 *   keys (upstream then serves no discovery endpoints and logs why).
 */
export function newOpenIDMetadata(issuer: string, jwksURI: string | undefined, keys: readonly ServiceAccountPublicKey[]): OpenIDMetadata {
  if (issuer === '') throw new Error('empty issuer URL');
  if (!URL.canParse(issuer)) throw new Error(`issuer URL must use https scheme, got: ${issuer}`);
  const iss = new URL(issuer);
  if (iss.protocol !== 'https:') throw new Error(`issuer URL must use https scheme, got: ${issuer}`);
  if (iss.search !== '') throw new Error(`issuer URL may not include a query, got: ${issuer}`);
  if (iss.hash !== '') throw new Error(`issuer URL may not include a fragment, got: ${issuer}`);
  if (keys.length === 0) throw new Error('no keys provided for validating keyset');
  const keysetJSON = JSON.stringify({ keys: keys.map(jwkOf) });
  const algs = [...new Set(keys.map((k) => k.algorithm))].sort();
  const render = (uri: string) =>
    JSON.stringify({
      issuer,
      jwks_uri: uri,
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: algs,
    });
  const fixed = jwksURI ? render(jwksURI) : undefined;
  let byAddress: { address: string; json: string } | undefined;
  return {
    keysetJSON,
    configJSON(serverAddress: string): string {
      if (fixed) return fixed;
      if (byAddress?.address !== serverAddress) byAddress = { address: serverAddress, json: render(`https://${serverAddress}${JWKS_PATH}`) };
      return byAddress.json;
    },
  };
}
