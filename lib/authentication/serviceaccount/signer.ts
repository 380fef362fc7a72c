/**
 * Signing service-account tokens (upstream `JWTTokenGenerator`): a compact JWS with the protected
 * header `{"alg", "kid"}` — RS256 for an RSA key, ES256/384/512 by ECDSA curve, the key id
 * derived from the public key — over the claims with `iss` set to the signing issuer, serialized
 * with the keys sorted at every level as go-jose writes them. spec 001 § Methods,
 * "Service account token"; issue #10 item 2.
 */
import { type KeyObject, createPublicKey, randomUUID } from 'node:crypto';
import { CompactSign } from 'jose';
import { type BoundTokenSubject, boundTokenClaims } from './claims.js';
import { type SigningAlgorithm, algorithmOf, keyIdOf } from './keys.js';

/** JSON with object keys sorted at every level (go-jose normalizes claims through a map). */
function sortedJSON(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJSON).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${sortedJSON(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Signs claims as service-account tokens of one issuer with one private key. */
export class JWTTokenGenerator {
  /** The algorithm the key signs with. */
  readonly algorithm: SigningAlgorithm;
  /** The key id in every token's header. */
  readonly keyId: string;
  private readonly encoder = new TextEncoder();

  /**
   * @param issuer the `iss` of every token (the first `--service-account-issuer`).
   * @param privateKey an RSA or P-256/384/521 ECDSA private key.
   * @throws Error when the key is of another kind (upstream: `unknown private key type …`).
   */
  constructor(
    readonly issuer: string,
    private readonly privateKey: KeyObject,
  ) {
    const alg = privateKey.type === 'private' ? algorithmOf(privateKey) : undefined;
    if (!alg) throw new Error('unknown private key type, must be an RSA or ECDSA (P-256, P-384, P-521) private key');
    this.algorithm = alg;
    this.keyId = keyIdOf(createPublicKey(privateKey));
  }

  /** Signs `claims` (the issuer's `iss` replaces any given); resolves to the compact token. */
  async generateToken(claims: Record<string, unknown>): Promise<string> {
    const payload = sortedJSON({ ...claims, iss: this.issuer });
    return new CompactSign(this.encoder.encode(payload)).setProtectedHeader({ alg: this.algorithm, kid: this.keyId }).sign(this.privateKey);
  }
}

/** One bound token to issue (TokenRequest): what it is bound to, its lifetime and audiences. */
export interface IssueRequest extends BoundTokenSubject {
  /** Lifetime in seconds. */
  expirationSeconds: number;
  /** Seconds after issue when an extended token is reported stale; 0 = not extended. */
  warnAfterSeconds: number;
  audiences: readonly string[];
  /** Issue time (whole seconds are used). */
  now: Date;
}

/** The issued token and its id. */
export interface IssuedToken {
  token: string;
  /** The `jti` claim. */
  jti: string;
}

/** Issues bound service-account tokens (the claims of claims.ts, signed by a generator). */
export class BoundTokenIssuer {
  constructor(private readonly generator: JWTTokenGenerator) {}

  /** The issuer tokens are signed for. */
  get issuer(): string {
    return this.generator.issuer;
  }

  /**
   * Builds and signs one token.
   * @throws Error when the request binds to both a Secret and a Pod or Node.
   */
  async issue(r: IssueRequest): Promise<IssuedToken> {
    const jti = randomUUID();
    const claims = boundTokenClaims({ ...r, now: Math.floor(r.now.getTime() / 1000), jti });
    return { token: await this.generator.generateToken(claims), jti };
  }
}
