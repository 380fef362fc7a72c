/**
 * The claims of a bound service-account token (upstream `pkg/serviceaccount/claims.go`, v1.30):
 * the registered claims `aud`, `exp`, `iat`, `iss`, `jti`, `nbf`, `sub`, and the private claim
 * (`kubernetes.io` upstream, the vendor domain here) naming the namespace, the service account,
 * the object the token is bound to (Pod — with its Node —, Secret or Node) and, for tokens whose
 * expiry was extended, `warnafter`. Also the validator that checks them against the stored
 * objects when a token is presented (spec 001 § Methods, "Service account token").
 */
import { SERVICE_ACCOUNT_PRIVATE_CLAIM } from '../../apis/vendor.js';
import { AuthenticationError } from '../interface.js';
import { type ServiceAccountInfo, credentialIdForJTI, makeUsername } from './util.js';

/** go-jose's `DefaultLeeway` (seconds): clock skew tolerated on `exp`, `nbf`, `iat` and deletion times. */
export const CLAIM_LEEWAY_SECONDS = 60;

/** A decoded API object, as the stores return it. */
export type APIObject = Record<string, unknown>;

/** A `{name, uid}` reference inside the private claim. */
export interface ClaimRef {
  name?: string;
  uid?: string;
}

/** The private claim of a bound token. */
export interface BoundPrivateClaims {
  namespace?: string;
  serviceaccount?: ClaimRef;
  pod?: ClaimRef;
  secret?: ClaimRef;
  node?: ClaimRef;
  /** Seconds since the epoch after which an extended token is reported stale. */
  warnafter?: number;
}

/** The registered claims (RFC 7519 § 4.1); times in seconds since the epoch. */
export interface RegisteredClaims {
  iss?: string;
  sub?: string;
  aud?: string[];
  exp?: number;
  nbf?: number;
  iat?: number;
  jti?: string;
}

/** A token's claims: the registered ones and the raw payload (private claims by name). */
export interface TokenClaims extends RegisteredClaims {
  payload: Record<string, unknown>;
}

function metaOf(obj: APIObject): Record<string, unknown> {
  return (obj.metadata as Record<string, unknown> | undefined) ?? {};
}

function refOf(obj: APIObject | undefined): ClaimRef | undefined {
  if (!obj) return undefined;
  const m = metaOf(obj);
  const ref: ClaimRef = {};
  if (m.name) ref.name = m.name as string;
  if (m.uid) ref.uid = m.uid as string;
  return ref;
}

/** What a bound token is issued for. */
export interface BoundTokenSubject {
  serviceAccount: APIObject;
  /** The Pod the token is bound to (its Node, when known, goes in `node`). */
  pod?: APIObject;
  secret?: APIObject;
  /** The Node of `pod`, or the Node the token is bound to. */
  node?: APIObject;
}

/** The parameters of one bound token. */
export interface BoundTokenRequest extends BoundTokenSubject {
  /** Lifetime in seconds (`exp` = now + this). */
  expirationSeconds: number;
  /** Seconds after `iat` when an extended token becomes stale; 0 = not extended. */
  warnAfterSeconds: number;
  audiences: readonly string[];
  /** Issue time, whole seconds since the epoch. */
  now: number;
  /** The token id (`jti`). */
  jti: string;
}

/**
 * The claims of a bound token without `iss` (the signer adds it), in upstream's layout (upstream
 * `Claims`). A token binds to at most one of Pod and Secret; a Pod's Node goes with it.
 * @throws Error when both a Secret and a Pod or Node are given.
 */
export function boundTokenClaims(r: BoundTokenRequest): Record<string, unknown> {
  if (r.secret && (r.pod || r.node)) throw new Error('internal error, token can only be bound to one object type');
  const m = metaOf(r.serviceAccount);
  const priv: BoundPrivateClaims = { serviceaccount: refOf(r.serviceAccount) };
  if (m.namespace) priv.namespace = m.namespace as string;
  if (r.pod) priv.pod = refOf(r.pod);
  if (r.node) priv.node = refOf(r.node);
  if (r.secret) priv.secret = refOf(r.secret);
  if (r.warnAfterSeconds !== 0) priv.warnafter = r.now + r.warnAfterSeconds;
  const claims: Record<string, unknown> = {
    sub: makeUsername(m.namespace as string, m.name as string),
    iat: r.now,
    nbf: r.now,
    exp: r.now + r.expirationSeconds,
    jti: r.jti,
    [SERVICE_ACCOUNT_PRIVATE_CLAIM]: priv,
  };
  if (r.audiences.length > 0) claims.aud = [...r.audiences];
  return claims;
}

/**
 * Upstream's check of the registered time claims (go-jose `Claims.Validate` with the default
 * one-minute leeway).
 * @throws AuthenticationError `service account token is not valid yet` / `has expired` / `is issued in the future`.
 */
export function validateTimes(c: RegisteredClaims, nowSeconds: number): void {
  if (c.nbf !== undefined && nowSeconds + CLAIM_LEEWAY_SECONDS < c.nbf) throw new AuthenticationError('service account token is not valid yet');
  if (c.exp !== undefined && nowSeconds - CLAIM_LEEWAY_SECONDS > c.exp) throw new AuthenticationError('service account token has expired');
  if (c.iat !== undefined && nowSeconds + CLAIM_LEEWAY_SECONDS < c.iat) throw new AuthenticationError('service account token is issued in the future');
}

/**
 * Reads the objects a token names. Each returns the object, or null when it does not exist;
 * reads come from the watch cache (a live read only when the cache does not hold the object),
 * never a quorum read per request.
 */
export interface ServiceAccountTokenGetter {
  getServiceAccount(namespace: string, name: string): Promise<APIObject | null>;
  getPod(namespace: string, name: string): Promise<APIObject | null>;
  getSecret(namespace: string, name: string): Promise<APIObject | null>;
  getNode(name: string): Promise<APIObject | null>;
}

/** Checks a verified token's claims and returns who it is for. */
export interface TokenValidator {
  /**
   * `token` is the raw token, `claims` its verified claims.
   * @throws AuthenticationError when the token is not (or no longer) valid.
   */
  validate(token: string, claims: TokenClaims): Promise<ServiceAccountInfo>;
}

/** True when a deletion timestamp (RFC 3339) lies before `limitSeconds`. */
export function deletedBefore(obj: APIObject, limitSeconds: number): boolean {
  const ts = metaOf(obj).deletionTimestamp;
  return typeof ts === 'string' && Date.parse(ts) / 1000 < limitSeconds;
}

function uidOf(obj: APIObject): string {
  return (metaOf(obj).uid as string | undefined) ?? '';
}

/** Reads an object, turning a failed read into an authentication error with its message. */
async function lookup(read: () => Promise<APIObject | null>): Promise<APIObject | null> {
  try {
    return await read();
  } catch (err) {
    throw new AuthenticationError((err as Error).message);
  }
}

function asRef(v: unknown): ClaimRef | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw new AuthenticationError('service account token claims could not be decoded');
  const r = v as Record<string, unknown>;
  if ((r.name !== undefined && typeof r.name !== 'string') || (r.uid !== undefined && typeof r.uid !== 'string')) {
    throw new AuthenticationError('service account token claims could not be decoded');
  }
  return { name: (r.name as string | undefined) ?? '', uid: (r.uid as string | undefined) ?? '' };
}

/**
 * The private claim of a bound token, decoded with upstream's tolerance (missing fields are empty).
 * @throws AuthenticationError when a field has the wrong JSON type.
 */
export function decodeBoundPrivateClaims(payload: Record<string, unknown>): BoundPrivateClaims {
  const raw = payload[SERVICE_ACCOUNT_PRIVATE_CLAIM];
  if (raw === undefined || raw === null) return { namespace: '', serviceaccount: { name: '', uid: '' } };
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new AuthenticationError('service account token claims could not be decoded');
  const p = raw as Record<string, unknown>;
  if ((p.namespace !== undefined && typeof p.namespace !== 'string') || (p.warnafter !== undefined && typeof p.warnafter !== 'number')) {
    throw new AuthenticationError('service account token claims could not be decoded');
  }
  return {
    namespace: (p.namespace as string | undefined) ?? '',
    serviceaccount: asRef(p.serviceaccount) ?? { name: '', uid: '' },
    pod: asRef(p.pod),
    secret: asRef(p.secret),
    node: asRef(p.node),
    warnafter: p.warnafter as number | undefined,
  };
}

/**
 * The validator of bound tokens (upstream `validator.Validate`, v1.30 with the
 * ServiceAccountTokenJTI, ServiceAccountTokenPodNodeInfo and ServiceAccountTokenNodeBindingValidation
 * gates at their defaults, on): the time claims, then the service account (same uid, not deleted
 * for more than the leeway), the bound Secret, Pod or Node likewise. Always looks the objects up
 * (`--service-account-lookup` concerns legacy tokens only, as upstream).
 */
export class BoundTokenValidator implements TokenValidator {
  constructor(private readonly getter: ServiceAccountTokenGetter) {}

  async validate(_token: string, claims: TokenClaims): Promise<ServiceAccountInfo> {
    const now = Math.floor(Date.now() / 1000);
    validateTimes(claims, now);
    const priv = decodeBoundPrivateClaims(claims.payload);
    const invalidIfDeletedBefore = now - CLAIM_LEEWAY_SECONDS;
    const namespace = priv.namespace ?? '';
    const saRef = priv.serviceaccount ?? { name: '', uid: '' };
    const sa = await lookup(() => this.getter.getServiceAccount(namespace, saRef.name ?? ''));
    if (!sa) throw new AuthenticationError(`serviceaccounts "${saRef.name ?? ''}" not found`);
    if (uidOf(sa) !== saRef.uid) throw new AuthenticationError(`service account UID (${uidOf(sa)}) does not match claim (${saRef.uid ?? ''})`);
    if (deletedBefore(sa, invalidIfDeletedBefore)) throw new AuthenticationError(`service account ${namespace}/${saRef.name ?? ''} has been deleted`);

    if (priv.secret) {
      const secret = await lookup(() => this.getter.getSecret(namespace, priv.secret!.name ?? ''));
      if (!secret) throw new AuthenticationError('service account token has been invalidated');
      if (uidOf(secret) !== priv.secret.uid) {
        throw new AuthenticationError(`secret UID (${uidOf(secret)}) does not match service account secret ref claim (${priv.secret.uid ?? ''})`);
      }
      if (deletedBefore(secret, invalidIfDeletedBefore)) throw new AuthenticationError('service account token has been invalidated');
    }

    const info: ServiceAccountInfo = { namespace, name: saRef.name ?? '', uid: saRef.uid ?? '' };
    if (priv.pod) {
      const pod = await lookup(() => this.getter.getPod(namespace, priv.pod!.name ?? ''));
      if (!pod) throw new AuthenticationError('service account token has been invalidated');
      if (uidOf(pod) !== priv.pod.uid) throw new AuthenticationError(`pod UID (${uidOf(pod)}) does not match service account pod ref claim (${priv.pod.uid ?? ''})`);
      if (deletedBefore(pod, invalidIfDeletedBefore)) throw new AuthenticationError('service account token has been invalidated');
      info.podName = priv.pod.name;
      info.podUID = priv.pod.uid;
    }

    if (priv.node) {
      if (priv.pod) {
        info.nodeName = priv.node.name;
        info.nodeUID = priv.node.uid;
      } else {
        const node = await lookup(() => this.getter.getNode(priv.node!.name ?? ''));
        if (!node) throw new AuthenticationError('service account token has been invalidated');
        if (uidOf(node) !== priv.node.uid) {
          throw new AuthenticationError(`node UID (${uidOf(node)}) does not match service account node ref claim (${priv.node.uid ?? ''})`);
        }
        if (deletedBefore(node, invalidIfDeletedBefore)) throw new AuthenticationError('service account token has been invalidated');
        info.nodeName = priv.node.name;
        info.nodeUID = priv.node.uid;
      }
    }
    const credentialId = credentialIdForJTI(claims.jti);
    if (credentialId) info.credentialId = credentialId;
    return info;
  }
}
