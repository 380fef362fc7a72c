/**
 * The create-only capability: a resource or subresource whose one verb is `create`, whose POST
 * body and response are objects of its own kind, and which need not store anything — TokenReview,
 * SelfSubjectReview, the `serviceaccounts/<name>/token` subresource (TokenRequest) and, later,
 * the access reviews (spec 001 § Access-review resources; ARCHITECTURE.md § Layers: the installer
 * offers the verbs a resource's storage implements).
 */
import type { KindDefinition, Obj } from '../../apis/define.js';
import type { RequestContext } from '../../request/context.js';

/** What the create is addressed to. */
export interface CreateTarget {
  /** The request's namespace ('' for a cluster-scoped kind). */
  namespace: string;
  /** For a subresource, the parent object's name (`serviceaccounts/<name>/token`); '' otherwise. */
  name: string;
}

/** Options of one create (`?dryRun=All`). */
export interface CreateOnlyOptions {
  dryRun: boolean;
}

/** A create-only resource or subresource. */
export interface Creater {
  /** The kind of the request body and of the response (e.g. TokenRequest for `serviceaccounts/token`). */
  readonly kind: KindDefinition;
  /**
   * Handles one create of a decoded, schema-checked body; returns the response object, written
   * with status 201. Mutating admission has run on `obj`; `validate` runs validating admission
   * and must be called before any effect.
   * @throws StatusError (Invalid, NotFound, Forbidden…) to answer with that Status.
   */
  create(ctx: RequestContext, target: CreateTarget, obj: Obj, opts: CreateOnlyOptions & { validate: (o: Obj) => Promise<void> }): Promise<Obj>;
}
