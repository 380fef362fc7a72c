/**
 * Legacy Secret-based service-account tokens (upstream `pkg/serviceaccount/legacy.go`, v1.30):
 * JWTs of the legacy issuer whose claims name the namespace, the service account (name, uid)
 * and the Secret holding the token. With `--service-account-lookup` (default true) the Secret
 * must exist, hold exactly this token under `token` and not carry the invalid-since label, and
 * the service account must exist with the same uid; each day a token is used its Secret gets the
 * last-used label (spec 001 § Methods: "tokens deleted from the API are revoked when enabled").
 */
import { timingSafeEqual } from 'node:crypto';
import { LEGACY_TOKEN_INVALID_SINCE_LABEL, LEGACY_TOKEN_LAST_USED_LABEL, legacyServiceAccountClaim } from '../../apis/vendor.js';
import { AuthenticationError } from '../interface.js';
import type { APIObject, ServiceAccountTokenGetter, TokenClaims, TokenValidator } from './claims.js';
import { type ServiceAccountInfo, splitUsername } from './util.js';

/** The claims of a legacy token, vendor-spelled (upstream `kubernetes.io/serviceaccount/…`). */
export const LEGACY_CLAIMS = {
  serviceAccountName: legacyServiceAccountClaim('service-account.name'),
  serviceAccountUID: legacyServiceAccountClaim('service-account.uid'),
  secretName: legacyServiceAccountClaim('secret.name'),
  namespace: legacyServiceAccountClaim('namespace'),
} as const;

/**
 * The claims of a legacy token for service account `namespace/name` (uid `uid`) held by Secret
 * `secretName` (upstream `LegacyClaims`): the service-account username as `sub` and the four
 * private claims; no expiry, no audience. The signer adds `iss`.
 */
export function legacyClaims(namespace: string, name: string, uid: string, secretName: string): Record<string, unknown> {
  return {
    sub: `system:serviceaccount:${namespace}:${name}`,
    [LEGACY_CLAIMS.namespace]: namespace,
    [LEGACY_CLAIMS.serviceAccountName]: name,
    [LEGACY_CLAIMS.serviceAccountUID]: uid,
    [LEGACY_CLAIMS.secretName]: secretName,
  };
}

/** Records that a legacy token Secret was used today (the last-used label); failures are the tracker's to report. */
export interface LegacyTokenTracker {
  /** Sets the last-used label of Secret `namespace/name` (uid `uid`) to `date` (`YYYY-MM-DD`, UTC). */
  markUsed(namespace: string, name: string, uid: string, date: string): void;
}

function stringClaim(payload: Record<string, unknown>, key: string): string {
  const v = payload[key];
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') throw new AuthenticationError('service account token claims could not be decoded');
  return v;
}

function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The validator of legacy tokens (upstream `legacyValidator.Validate`). */
export class LegacyTokenValidator implements TokenValidator {
  constructor(
    private readonly lookup: boolean,
    private readonly getter: ServiceAccountTokenGetter,
    private readonly tracker: LegacyTokenTracker,
  ) {}

  async validate(token: string, claims: TokenClaims): Promise<ServiceAccountInfo> {
    const p = claims.payload;
    if (!claims.sub) throw new AuthenticationError('sub claim is missing');
    const namespace = stringClaim(p, LEGACY_CLAIMS.namespace);
    if (!namespace) throw new AuthenticationError('namespace claim is missing');
    const secretName = stringClaim(p, LEGACY_CLAIMS.secretName);
    if (!secretName) throw new AuthenticationError('secretName claim is missing');
    const saName = stringClaim(p, LEGACY_CLAIMS.serviceAccountName);
    if (!saName) throw new AuthenticationError('serviceAccountName claim is missing');
    const saUID = stringClaim(p, LEGACY_CLAIMS.serviceAccountUID);
    if (!saUID) throw new AuthenticationError('serviceAccountUID claim is missing');
    const subject = splitUsername(claims.sub);
    if (!subject || subject.namespace !== namespace || subject.name !== saName) throw new AuthenticationError('sub claim is invalid');

    if (this.lookup) {
      const secret = await this.read(() => this.getter.getSecret(namespace, secretName));
      if (!secret) throw new AuthenticationError('Token has been invalidated');
      const meta = (secret.metadata as Record<string, unknown> | undefined) ?? {};
      if (meta.deletionTimestamp) throw new AuthenticationError('Token has been invalidated');
      if (!sameToken(secret, token)) throw new AuthenticationError("Token does not match server's copy");

      const sa = await this.read(() => this.getter.getServiceAccount(namespace, saName));
      if (!sa) throw new AuthenticationError(`serviceaccounts "${saName}" not found`);
      const saMeta = (sa.metadata as Record<string, unknown> | undefined) ?? {};
      if (saMeta.deletionTimestamp) throw new AuthenticationError(`ServiceAccount ${namespace}/${saName} has been deleted`);
      if (saMeta.uid !== saUID) throw new AuthenticationError(`ServiceAccount UID (${(saMeta.uid as string | undefined) ?? ''}) does not match claim (${saUID})`);

      const labels = (meta.labels as Record<string, string> | undefined) ?? {};
      if (labels[LEGACY_TOKEN_INVALID_SINCE_LABEL]) {
        this.markUsed(namespace, secretName, (meta.uid as string | undefined) ?? '', labels);
        throw new AuthenticationError(
          `the token in secret ${namespace}/${secretName} for service account ${namespace}/${saName} has been marked invalid. Use tokens from the TokenRequest API or manually created secret-based tokens, or remove the '${LEGACY_TOKEN_INVALID_SINCE_LABEL}' label from the secret to temporarily allow use of this token`,
        );
      }
      this.markUsed(namespace, secretName, (meta.uid as string | undefined) ?? '', labels);
    }
    return { namespace, name: saName, uid: saUID };
  }

  private async read(get: () => Promise<APIObject | null>): Promise<APIObject | null> {
    try {
      return await get();
    } catch (err) {
      throw new AuthenticationError((err as Error).message);
    }
  }

  /** Labels the Secret with today's date unless it already carries today's or tomorrow's (upstream tolerance of clock skew). */
  private markUsed(namespace: string, name: string, uid: string, labels: Record<string, string>): void {
    const now = Date.now();
    const today = utcDate(now);
    const last = labels[LEGACY_TOKEN_LAST_USED_LABEL];
    if (last !== today && last !== utcDate(now + 86_400_000)) this.tracker.markUsed(namespace, name, uid, today);
  }
}

/** Whether the Secret's `data.token` (base64 in the stored object) is exactly `token`, compared in constant time. */
function sameToken(secret: APIObject, token: string): boolean {
  const data = (secret.data as Record<string, unknown> | undefined) ?? {};
  const stored = typeof data.token === 'string' ? Buffer.from(data.token, 'base64') : Buffer.alloc(0);
  const given = Buffer.from(token, 'utf8');
  return stored.length === given.length && timingSafeEqual(stored, given);
}
