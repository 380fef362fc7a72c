/**
 * Service accounts from the flags (spec 001 § Methods, "Service account token"; issue #10 items 2
 * and 9): the keys, the issuers, the API audiences, the two token authenticators upstream runs
 * (legacy Secret-based tokens, bound tokens), the issuer of TokenRequest tokens and the issuer
 * discovery documents. Defaults that keep a server without flags working: the issuer is
 * DEFAULT_SERVICE_ACCOUNT_ISSUER and the serving key signs (and, with no key file, verifies).
 */
import { type KeyObject, createPublicKey } from 'node:crypto';
import { DEFAULT_SERVICE_ACCOUNT_ISSUER, LEGACY_SERVICE_ACCOUNT_ISSUER } from '../../apis/vendor.js';
import { ServiceAccountTokenAuthenticator } from './authenticator.js';
import { BoundTokenValidator, type ServiceAccountTokenGetter } from './claims.js';
import { type ServiceAccountPublicKey, algorithmOf, keyIdOf, parsePrivateKeyPEM, privateKeyFromFile, publicKeysFromFile } from './keys.js';
import { type LegacyTokenTracker, LegacyTokenValidator } from './legacy.js';
import { type OpenIDMetadata, newOpenIDMetadata } from './openid-metadata.js';
import { BoundTokenIssuer, JWTTokenGenerator } from './signer.js';

/** The service-account flags (AuthenticationOptions members of the same names). */
export interface ServiceAccountFlags {
  serviceAccountKeyFiles: readonly string[];
  serviceAccountSigningKeyFile?: string;
  serviceAccountIssuers: readonly string[];
  serviceAccountJwksUri?: string;
  serviceAccountLookup: boolean;
  apiAudiences: readonly string[];
}

/** What service accounts need from the running server. */
export interface ServiceAccountDeps {
  /** The PEM private key the server serves TLS with: the default signing and verification key. */
  servingKeyPem: string;
  /** Reads service accounts, Pods, Secrets and Nodes from the watch cache. */
  getter: ServiceAccountTokenGetter;
  /** Labels legacy token Secrets with their last-used date. */
  legacyTracker: LegacyTokenTracker;
}

/** Service accounts, set up. */
export interface ServiceAccounts {
  /** Accepted issuers; the first signs. */
  issuers: readonly string[];
  /** `--api-audiences`, defaulted to the issuers. */
  apiAudiences: readonly string[];
  /** Legacy Secret-based tokens (issuer LEGACY_SERVICE_ACCOUNT_ISSUER). */
  legacyAuthenticator: ServiceAccountTokenAuthenticator;
  /** Bound tokens of the issuers. */
  boundAuthenticator: ServiceAccountTokenAuthenticator;
  /** Issues TokenRequest tokens. */
  tokenIssuer: BoundTokenIssuer;
  /**
   * Signs legacy Secret-based tokens (issuer LEGACY_SERVICE_ACCOUNT_ISSUER, the signing key; claims
   * of legacy.ts `legacyClaims`) for the tokens controller; they verify with the keys above.
   */
  legacyTokenGenerator: JWTTokenGenerator;
  /** The discovery documents, or why they are not served (upstream logs it and serves none). */
  discovery: { metadata: OpenIDMetadata } | { error: string };
}

function publicKeyEntry(key: KeyObject): ServiceAccountPublicKey {
  const pub = createPublicKey(key);
  return { keyId: keyIdOf(pub), key: pub, algorithm: algorithmOf(pub)! };
}

/**
 * Loads the keys and builds the service-account authenticators, the token issuer and the
 * discovery documents. Verification keys are the key files, or the serving key when none is
 * given; when the serving key signs (no signing key file) its public key always verifies too, so
 * the tokens this server issues are accepted.
 * @throws Error when a key file cannot be read or parsed, or the signing key is not RSA/ECDSA (a start-up error).
 */
export async function setupServiceAccounts(flags: ServiceAccountFlags, deps: ServiceAccountDeps): Promise<ServiceAccounts> {
  const issuers = flags.serviceAccountIssuers.length > 0 ? [...flags.serviceAccountIssuers] : [DEFAULT_SERVICE_ACCOUNT_ISSUER];
  const apiAudiences = flags.apiAudiences.length > 0 ? [...flags.apiAudiences] : issuers;

  let signingKey: KeyObject;
  if (flags.serviceAccountSigningKeyFile) {
    signingKey = await privateKeyFromFile(flags.serviceAccountSigningKeyFile).catch((err: unknown) => {
      throw new Error(`failed to parse service-account-issuer-key-file: ${(err as Error).message}`, { cause: err });
    });
  } else {
    try {
      signingKey = parsePrivateKeyPEM(deps.servingKeyPem);
    } catch (err) {
      throw new Error('the serving key is not an RSA or ECDSA private key: set --service-account-signing-key-file and --service-account-key-file', { cause: err });
    }
  }
  const keys: ServiceAccountPublicKey[] = [];
  for (const file of flags.serviceAccountKeyFiles) keys.push(...(await publicKeysFromFile(file)));
  const signingPublic = publicKeyEntry(signingKey);
  if (!flags.serviceAccountSigningKeyFile && !keys.some((k) => k.keyId === signingPublic.keyId)) keys.push(signingPublic);

  const generator = new JWTTokenGenerator(issuers[0]!, signingKey);
  let discovery: ServiceAccounts['discovery'];
  try {
    discovery = { metadata: newOpenIDMetadata(issuers[0]!, flags.serviceAccountJwksUri, keys) };
  } catch (err) {
    discovery = { error: (err as Error).message };
  }
  return {
    issuers,
    apiAudiences,
    legacyAuthenticator: new ServiceAccountTokenAuthenticator({
      issuers: [LEGACY_SERVICE_ACCOUNT_ISSUER],
      keys,
      implicitAudiences: apiAudiences,
      validator: new LegacyTokenValidator(flags.serviceAccountLookup, deps.getter, deps.legacyTracker),
    }),
    boundAuthenticator: new ServiceAccountTokenAuthenticator({
      issuers,
      keys,
      implicitAudiences: apiAudiences,
      validator: new BoundTokenValidator(deps.getter),
    }),
    tokenIssuer: new BoundTokenIssuer(generator),
    legacyTokenGenerator: new JWTTokenGenerator(LEGACY_SERVICE_ACCOUNT_ISSUER, signingKey),
    discovery,
  };
}
