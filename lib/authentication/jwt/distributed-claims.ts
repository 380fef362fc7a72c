/**
 * Distributed claims (OpenID Connect Core § 5.6.2) for the groups claim mapped by `claim` — from
 * the `--oidc-groups-claim` flag or `claimMappings.groups.claim` — as upstream v1.30's claim
 * resolver: when the token lacks the claim but `_claim_names` sends it to a `_claim_sources`
 * entry with an `endpoint`, the endpoint is fetched (with the entry's `access_token` as bearer
 * token, over the issuer's TLS trust), its answer must be a JWT that verifies against the
 * provider of the issuer it names (discovered in the background: the first token of a new
 * issuer is refused until it is ready), for the authenticator's audiences, and holding the claim,
 * whose value then stands in the token's claims. Expressions never see distributed claims (spec
 * 001 § Authentication configuration file: "distributed claims do not work with CEL").
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { goJSONTypeName } from '../../apimachinery/serializers/go-json-errors.js';
import { OIDCProvider, type ProviderTiming } from './provider.js';
import { checkAudiences, checkToken, untrustedIssuer, verifySignature } from './token.js';

/** Largest distributed claim answer read, in bytes. */
const MAX_ANSWER_BYTES = 1024 * 1024;
/** Timeout of one endpoint request (upstream's 30 s). */
const REQUEST_TIMEOUT_MS = 30_000;

/** How a resolver verifies and reaches the endpoints. */
export interface ClaimResolverOptions {
  /** The claim resolved (the groups claim). */
  claim: string;
  /** The authenticator's audiences: a distributed claim JWT must be for one of them. */
  audiences: readonly string[];
  signingAlgs: readonly string[];
  /** PEM CA bundle trusted for endpoints and providers (undefined: the default trust store). */
  ca?: string;
  timing?: ProviderTiming;
  now: () => number;
  onProviderError?: (issuer: string, err: Error) => void;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Resolves one distributed claim of the tokens of one authenticator. */
export class DistributedClaimResolver {
  private readonly providers = new Map<string, OIDCProvider>();

  constructor(private readonly opts: ClaimResolverOptions) {}

  /** Stops the providers of the distributed claims' issuers. */
  stop(): void {
    for (const p of this.providers.values()) p.stop();
  }

  /**
   * Puts the resolved claim into `claims` when the token distributes it; does nothing when the
   * claim is present, or not distributed, or aggregated (a source without `endpoint`).
   * @throws Error with upstream's reason (the caller prefixes `oidc: could not expand distributed claims: `).
   */
  async expand(claims: Record<string, unknown>): Promise<void> {
    const claim = this.opts.claim;
    if (Object.hasOwn(claims, claim) || !Object.hasOwn(claims, '_claim_names')) return;
    const names = claims._claim_names;
    if (!isObject(names) || !Object.values(names).every((v) => typeof v === 'string')) {
      throw new Error(`oidc: error parsing distributed claim names: json: cannot unmarshal ${goJSONTypeName(names)} into Go value of type map[string]string`);
    }
    if (!Object.hasOwn(claims, '_claim_sources')) throw new Error('oidc: no claim sources');
    const sources = claims._claim_sources;
    if (!isObject(sources) || !Object.values(sources).every(isObject)) {
      throw new Error(`oidc: could not parse claim sources: json: cannot unmarshal ${goJSONTypeName(sources)} into Go value of type map[string]oidc.endpoint`);
    }
    const src = names[claim] as string | undefined;
    if (src === undefined) return;
    const ep = sources[src] as Record<string, unknown> | undefined;
    if (!ep) throw new Error(`id token _claim_names contained a source ${src} missing in _claims_sources`);
    const url = typeof ep.endpoint === 'string' ? ep.endpoint : '';
    if (url === '') return;
    const accessToken = typeof ep.access_token === 'string' ? ep.access_token : '';
    claims[claim] = await this.resolve(url, accessToken);
  }

  private async resolve(url: string, accessToken: string): Promise<unknown> {
    const claim = this.opts.claim;
    let jwt: string;
    try {
      jwt = await this.fetch(url, accessToken);
    } catch (err) {
      throw new Error(`while getting distributed claim ${JSON.stringify(claim)}: ${(err as Error).message}`, { cause: err });
    }
    const iss = untrustedIssuer(jwt);
    if (iss === undefined) throw new Error(`getting untrusted issuer from endpoint ${url} failed for claim ${JSON.stringify(claim)}: malformed token`);
    const provider = this.providerOf(iss);
    if (!provider.ready) throw new Error(`verifying untrusted issuer ${iss} failed: verifier not initialized for issuer: ${JSON.stringify(iss)}`);
    let distClaims: Record<string, unknown>;
    try {
      const token = checkToken(jwt, { issuer: iss, audiences: this.opts.audiences, signingAlgs: this.opts.signingAlgs, now: this.opts.now() });
      const sig = await verifySignature(token, provider.currentKeys);
      if (!sig.ok) {
        provider.requestRefresh();
        throw new Error('failed to verify signature: failed to verify id token signature');
      }
      checkAudiences(token, this.opts.audiences);
      distClaims = token.claims;
    } catch (err) {
      throw new Error(`verify distributed claim token: ${(err as Error).message}`, { cause: err });
    }
    if (!Object.hasOwn(distClaims, claim)) throw new Error(`jwt returned by distributed claim endpoint ${JSON.stringify(url)} did not contain claim: ${claim}`);
    return distClaims[claim];
  }

  /** The provider of `issuer`, started on first use. */
  private providerOf(issuer: string): OIDCProvider {
    let p = this.providers.get(issuer);
    if (!p) {
      p = new OIDCProvider({ ...this.opts.timing, issuerURL: issuer, ca: this.opts.ca, onError: (err) => this.opts.onProviderError?.(issuer, err) });
      this.providers.set(issuer, p);
      p.start();
    }
    return p;
  }

  /** GET `url` (bearer `accessToken` when given); resolves the body of a 2xx answer. */
  private fetch(url: string, accessToken: string): Promise<string> {
    return new Promise((resolve, reject) => {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        reject(new Error(`while calling ${url}: parse ${JSON.stringify(url)}: invalid URL`));
        return;
      }
      const headers: Record<string, string> = accessToken ? { Authorization: `Bearer ${accessToken}` } : {};
      const send = parsed.protocol === 'http:' ? httpRequest : httpsRequest;
      const req = send(parsed, { method: 'GET', ca: this.opts.ca, timeout: REQUEST_TIMEOUT_MS, headers }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_ANSWER_BYTES) req.destroy(new Error('could not decode distributed claim response'));
          else chunks.push(c);
        });
        res.on('error', reject);
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          if (status < 200 || status > 226) reject(new Error(`error while getting distributed claim JWT: ${status} ${res.statusMessage ?? ''}`));
          else resolve(Buffer.concat(chunks).toString('utf8'));
        });
      });
      req.on('timeout', () => req.destroy(new Error(`Get ${JSON.stringify(url)}: context deadline exceeded`)));
      req.on('error', (err) => reject(new Error(`Get ${JSON.stringify(url)}: ${err.message}`)));
      req.end();
    });
  }
}
