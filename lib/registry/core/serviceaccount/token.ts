/**
 * The `serviceaccounts/<name>/token` subresource (TokenRequest, `authentication.<vendor>/v1`):
 * issues a bound token for an existing service account, as upstream's TokenREST (v1.30) does —
 * audiences default to the API audiences, `expirationSeconds` at least 10 minutes and at most 2^32
 * seconds, capped at `--service-account-max-token-expiration` with a warning, extended to a year
 * (warning after the hour) for a Pod-bound token asked for 3607 s with API audiences when
 * `--service-account-extend-token-expiration`; `boundObjectRef` to a Pod (which must run as the
 * service account; its Node is named in the token) or a Secret, with the uid checked when given.
 * spec 001 § Methods, "Service account token"; issue #10 item 2.
 */
import { type StatusError, isReason, newBadRequest, newConflict, newInvalid } from '../../../apimachinery/errors.js';
import { type FieldError, FieldPath, invalid } from '../../../apimachinery/field-errors.js';
import { tokenRequest, validateTokenRequest } from '../../../apis/authentication/v1/index.js';
import type { KindDefinition, Obj } from '../../../apis/define.js';
import { authenticationKey } from '../../../apis/vendor.js';
import { type RequestContext, addWarning } from '../../../request/context.js';
import type { Store } from '../../generic/store.js';
import type { CreateOnlyOptions, CreateTarget, Creater } from '../../rest/creater.js';

/** The lifetime of a TokenRequest that names none (v1 defaulting), seconds. */
export const DEFAULT_TOKEN_EXPIRATION_SECONDS = 3600;
/** Upstream `WarnOnlyBoundTokenExpirationSeconds`: the lifetime that asks for an extended token (seconds). */
const WARN_ONLY_EXPIRATION_SECONDS = 60 * 60 + 7;
/** Upstream `ExpirationExtensionSeconds`: the lifetime of an extended token (one year, seconds). */
const EXTENDED_EXPIRATION_SECONDS = 24 * 365 * 60 * 60;
/** Audit annotation naming the id of the issued token (upstream `authentication.kubernetes.io/issued-credential-id`). */
const ISSUED_CREDENTIAL_ID_ANNOTATION = authenticationKey('issued-credential-id');
/** The alpha gate upstream v1.30 keeps off, which binding to a Node needs. */
const NODE_BINDING_GATE = 'ServiceAccountTokenNodeBinding';

/** What issues the signed token (lib/authentication/serviceaccount's BoundTokenIssuer, wired by the control plane). */
export interface TokenIssuer {
  /** Signs a token for the service account, bound to the given Pod (with its Node) or Secret. */
  issue(r: {
    serviceAccount: Obj;
    pod?: Obj;
    secret?: Obj;
    node?: Obj;
    expirationSeconds: number;
    warnAfterSeconds: number;
    audiences: readonly string[];
    now: Date;
  }): Promise<{ token: string; jti: string }>;
}

/** What the TokenRequest subresource is built from. */
export interface TokenRESTConfig {
  serviceAccounts: Store;
  pods: Store;
  secrets: Store;
  nodes: Store;
  issuer: TokenIssuer;
  /** `--api-audiences` (defaulted to the issuers). */
  apiAudiences: readonly string[];
  /** `--service-account-max-token-expiration` in seconds; 0 = no cap. */
  maxExpirationSeconds: number;
  /** `--service-account-extend-token-expiration`. */
  extendExpiration: boolean;
}

/** Go's `GroupVersionKind.String()` of an apiVersion and kind: `apps/v1, Kind=Deployment`, `/v1, Kind=Pod`. */
function gvkString(apiVersion: string, kind: string): string {
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  return `${group}/${version}, Kind=${kind}`;
}

function metaOf(obj: Obj): Obj {
  return (obj.metadata ??= {}) as Obj;
}

/** RFC 3339 at whole seconds, as metav1.Time is written. */
function rfc3339Seconds(ms: number): string {
  return `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}

/** The TokenRequest Creater (upstream `TokenREST`). */
export class TokenREST implements Creater {
  /** TokenRequest of `authentication.<vendor>/v1`. */
  readonly kind: KindDefinition = tokenRequest;

  constructor(private readonly cfg: TokenRESTConfig) {}

  private invalid(name: string, errs: FieldError[]): StatusError {
    return newInvalid({ group: this.kind.group, kind: this.kind.kind }, name, errs);
  }

  /**
   * Issues one token for service account `target.name` in `target.namespace`; answers the request
   * with `status.token` and `status.expirationTimestamp`.
   * @throws StatusError 404 (service account, Pod or Secret not found), 422 (name mismatch, bad
   *   expirationSeconds), 400 (Pod of another service account, unsupported bound kind), 409 (bound uid mismatch).
   */
  async create(ctx: RequestContext, target: CreateTarget, obj: Obj, opts: CreateOnlyOptions & { validate: (o: Obj) => Promise<void> }): Promise<Obj> {
    const { namespace, name } = target;
    if (!namespace) throw newBadRequest('namespace is required');
    const req = structuredClone(obj);
    const meta = metaOf(req);
    if (meta.name && meta.name !== name) {
      throw this.invalid(name, [invalid(FieldPath.of('metadata').child('name'), meta.name, 'must match the service account name if specified')]);
    }
    if (meta.namespace && meta.namespace !== namespace) {
      throw this.invalid(name, [invalid(FieldPath.of('metadata').child('namespace'), meta.namespace, 'must match the service account namespace if specified')]);
    }
    const sa = await this.cfg.serviceAccounts.get(ctx, namespace, name);

    const spec = (req.spec ??= {}) as Obj;
    const audiences = Array.isArray(spec.audiences) && spec.audiences.length > 0 ? (spec.audiences as string[]) : [...this.cfg.apiAudiences];
    spec.audiences = audiences;
    spec.expirationSeconds ??= DEFAULT_TOKEN_EXPIRATION_SECONDS;
    meta.name ||= name;
    meta.namespace ||= namespace;
    const now = Date.now();
    meta.creationTimestamp = rfc3339Seconds(now);
    delete req.status;

    const exp = spec.expirationSeconds as number;
    const errs = validateTokenRequest(req);
    if (errs.length > 0) throw this.invalid('', errs);
    await opts.validate(structuredClone(req));

    const bound = await this.boundObjects(ctx, namespace, name, spec.boundObjectRef as Obj | undefined);

    const max = this.cfg.maxExpirationSeconds;
    if (max > 0 && exp > max) {
      addWarning(ctx, `requested expiration of ${exp} seconds shortened to ${max} seconds`);
      spec.expirationSeconds = max;
    }
    const granted = spec.expirationSeconds as number;
    let tokenExpiration = granted;
    let warnAfter = 0;
    const apiAudiences = this.cfg.apiAudiences;
    if (this.cfg.extendExpiration && bound.pod && granted === WARN_ONLY_EXPIRATION_SECONDS && audiences.every((a) => apiAudiences.includes(a))) {
      warnAfter = granted;
      tokenExpiration = EXTENDED_EXPIRATION_SECONDS;
    }
    const { token, jti } = await this.cfg.issuer.issue({
      serviceAccount: sa,
      ...bound,
      expirationSeconds: tokenExpiration,
      warnAfterSeconds: warnAfter,
      audiences,
      now: new Date(now),
    });
    req.status = { token, expirationTimestamp: rfc3339Seconds(now + granted * 1000) };
    ctx.auditAnnotations[ISSUED_CREDENTIAL_ID_ANNOTATION] = `JTI=${jti}`;
    return req;
  }

  /**
   * The objects `boundObjectRef` names: a Pod of this service account (with its Node when
   * scheduled and known: a Node that does not exist is named without uid) or a Secret.
   */
  private async boundObjects(ctx: RequestContext, namespace: string, saName: string, ref: Obj | undefined): Promise<{ pod?: Obj; secret?: Obj; node?: Obj }> {
    if (!ref) return {};
    const apiVersion = (ref.apiVersion as string | undefined) ?? '';
    const kind = (ref.kind as string | undefined) ?? '';
    const refName = (ref.name as string | undefined) ?? '';
    const coreGroup = !apiVersion.includes('/');
    let out: { pod?: Obj; secret?: Obj; node?: Obj };
    let obj: Obj;
    if (coreGroup && kind === 'Pod') {
      obj = await this.cfg.pods.get(ctx, namespace, refName);
      const podSpec = (obj.spec as Obj | undefined) ?? {};
      if (podSpec.serviceAccountName !== saName) {
        throw newBadRequest(`cannot bind token for serviceaccount ${JSON.stringify(saName)} to pod running with different serviceaccount name.`);
      }
      out = { pod: obj };
      const nodeName = (podSpec.nodeName as string | undefined) ?? '';
      if (nodeName) out.node = await this.nodeOf(ctx, nodeName);
    } else if (coreGroup && kind === 'Node') {
      throw newBadRequest(`cannot bind token to a Node object as the ${JSON.stringify(NODE_BINDING_GATE)} feature-gate is disabled`);
    } else if (coreGroup && kind === 'Secret') {
      obj = await this.cfg.secrets.get(ctx, namespace, refName);
      out = { secret: obj };
    } else {
      throw newBadRequest(`cannot bind token to object of type ${gvkString(apiVersion, kind)}`);
    }
    const uid = (metaOf(obj).uid as string | undefined) ?? '';
    if (ref.uid && ref.uid !== uid) {
      throw newConflict(
        { group: '', resource: kind },
        refName,
        `the UID in the bound object reference (${ref.uid as string}) does not match the UID in record. The object might have been deleted and then recreated`,
      );
    }
    return out;
  }

  /** The Pod's Node from the watch cache (a live read when the cache fails); a missing Node is `{name}` only. */
  private async nodeOf(ctx: RequestContext, nodeName: string): Promise<Obj> {
    const read = async (resourceVersion: string) => {
      try {
        return await this.cfg.nodes.get(ctx, '', nodeName, { resourceVersion });
      } catch (err) {
        if (isReason(err, 'NotFound')) return { metadata: { name: nodeName } };
        throw err;
      }
    };
    try {
      return await read('0');
    } catch {
      return read('');
    }
  }
}
