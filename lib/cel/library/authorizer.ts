/**
 * Authorizer library (variable `authorizer`). spec 000 § Expression language (CEL) in fields:
 * `authorizer.group(g).resource(r)` optionally chained with `subresource`, `namespace`, `name`,
 * then `check(verb)`; `authorizer.path(p).check(httpVerb)`; `serviceAccount(ns, name)` returns
 * an authorizer for that service account; a decision has `allowed()` and `reason()`.
 *
 * Evaluation is synchronous while authorizers answer asynchronously. Design: the library asks a
 * SYNCHRONOUS decision function. Callers either supply one (`authorizerValue(user, decide)`,
 * e.g. over pre-resolved decisions), or bind an asynchronous CelAuthorizer with
 * `bindAuthorizer(authorizer, user)`: its decision function answers from a cache and, on a miss,
 * records the request and aborts the evaluation; `Program.evaluateAsync` then resolves the
 * recorded requests and evaluates again, until every check the expression reaches is decided.
 * Evaluation is deterministic, so each round only adds decisions; an abort that the expression
 * absorbs (e.g. `true || check…`) did not influence the result.
 */

import { VENDOR } from '../../apis/vendor.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../apimachinery/validation/names.js';
import { LibraryError, type FunctionDecl } from './common.js';

/** The identity checks are made for. */
export interface AuthorizerUser {
  readonly username: string;
  readonly uid?: string;
  readonly groups?: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

/** The request an authorization check describes (resource or non-resource). */
export interface AuthorizationAttributes {
  readonly user: AuthorizerUser | undefined;
  readonly verb: string;
  readonly resourceRequest: boolean;
  readonly group: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
  readonly path: string;
}

/** An authorizer's answer. */
export interface AuthorizationDecision {
  readonly decision: 'Allow' | 'Deny' | 'NoOpinion';
  readonly reason: string;
}

/** The injected authorizer (the server's authorizer chain). */
export interface CelAuthorizer {
  authorize(attrs: AuthorizationAttributes): Promise<AuthorizationDecision>;
}

/** A synchronous decision function, consulted during evaluation. */
export type DecisionFunction = (attrs: AuthorizationAttributes) => AuthorizationDecision;

/** Type names in expressions. */
export const AUTHORIZER_TYPES = {
  authorizer: `${VENDOR}.authorization.Authorizer`,
  pathCheck: `${VENDOR}.authorization.PathCheck`,
  groupCheck: `${VENDOR}.authorization.GroupCheck`,
  resourceCheck: `${VENDOR}.authorization.ResourceCheck`,
  decision: `${VENDOR}.authorization.Decision`,
} as const;

/** Raised by a bound authorizer's decision function when the decision is not known yet. */
export class PendingAuthorization extends Error {
  override readonly name = 'PendingAuthorization';
}

/** The value of the `authorizer` variable. */
export class AuthorizerValue {
  constructor(
    readonly user: AuthorizerUser | undefined,
    readonly decide: DecisionFunction,
    /** Set when the decisions come from an asynchronous authorizer. */
    readonly binding?: AuthorizerBinding,
    /** `authorizer.requestResource`: the check of the request's own resource (admission; absent elsewhere). */
    readonly requestResource?: ResourceCheck,
  ) {}
}

/** The fields of the library's types (only the authorizer has one, `requestResource`). */
export const AUTHORIZER_FIELDS: Readonly<Partial<Record<keyof typeof AUTHORIZER_TYPES, Readonly<Record<string, string>>>>> = {
  authorizer: { requestResource: AUTHORIZER_TYPES.resourceCheck },
};

/** The resource an admission request addresses, as `authorizer.requestResource` checks it. */
export interface RequestResource {
  readonly group: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
}

/**
 * `a` with `requestResource` set to a check of `r` (upstream admission's
 * `authorizer.requestResource`: the request's group, resource, subresource, namespace and name,
 * so `authorizer.requestResource.check('delete')` asks about the object the request addresses).
 */
export function withRequestResource(a: AuthorizerValue, r: RequestResource): AuthorizerValue {
  const check = new ResourceCheck(new GroupCheck(a, r.group), r.resource, r.subresource, r.namespace, r.name);
  return new AuthorizerValue(a.user, a.decide, a.binding, check);
}

class PathCheck {
  constructor(
    readonly authorizer: AuthorizerValue,
    readonly path: string,
  ) {}
}

class GroupCheck {
  constructor(
    readonly authorizer: AuthorizerValue,
    readonly group: string,
  ) {}
}

class ResourceCheck {
  constructor(
    readonly groupCheck: GroupCheck,
    readonly resource: string,
    readonly subresource = '',
    readonly namespace = '',
    readonly name = '',
  ) {}

  /** A copy with some of subresource, namespace and name replaced. */
  with(change: Partial<Pick<ResourceCheck, 'subresource' | 'namespace' | 'name'>>): ResourceCheck {
    const next = { subresource: this.subresource, namespace: this.namespace, name: this.name, ...change };
    return new ResourceCheck(this.groupCheck, this.resource, next.subresource, next.namespace, next.name);
  }
}

/** A decision as expressions see it. */
export class Decision {
  constructor(
    readonly allowed: boolean,
    readonly reason: string,
  ) {}
}

/** Runtime classes of the library's types, for registration with the engine. */
export const AUTHORIZER_CLASSES = {
  authorizer: AuthorizerValue,
  pathCheck: PathCheck,
  groupCheck: GroupCheck,
  resourceCheck: ResourceCheck,
  decision: Decision,
} as const;

/** The `authorizer` value for `user`, answering checks with the synchronous `decide`. */
export function authorizerValue(user: AuthorizerUser | undefined, decide: DecisionFunction): AuthorizerValue {
  return new AuthorizerValue(user, decide);
}

/**
 * An asynchronous authorizer bound for evaluation: decisions are cached per request; unknown
 * requests are recorded and raise PendingAuthorization until `resolvePending` has run.
 */
export class AuthorizerBinding {
  private readonly decisions = new Map<string, AuthorizationDecision>();
  private readonly pending = new Map<string, AuthorizationAttributes>();
  /** The value to put in the activation as `authorizer`. */
  readonly value: AuthorizerValue;

  constructor(
    private readonly authorizer: CelAuthorizer,
    user: AuthorizerUser | undefined,
  ) {
    this.value = new AuthorizerValue(user, (attrs) => this.decide(attrs), this);
  }

  /** True while some recorded request awaits a decision. */
  hasPending(): boolean {
    return this.pending.size > 0;
  }

  /** Asks the authorizer about every recorded request. */
  async resolvePending(): Promise<void> {
    const requests = [...this.pending];
    this.pending.clear();
    const answers = await Promise.all(requests.map(([, attrs]) => this.authorizer.authorize(attrs)));
    requests.forEach(([key], i) => this.decisions.set(key, answers[i]!));
  }

  private decide(attrs: AuthorizationAttributes): AuthorizationDecision {
    const key = JSON.stringify(attrs);
    const known = this.decisions.get(key);
    if (known) return known;
    this.pending.set(key, attrs);
    throw new PendingAuthorization('authorization decision pending');
  }
}

/** Binds an asynchronous authorizer for `user` (see the module comment). */
export function bindAuthorizer(authorizer: CelAuthorizer, user: AuthorizerUser | undefined): AuthorizerBinding {
  return new AuthorizerBinding(authorizer, user);
}

function authorize(a: AuthorizerValue, attrs: Omit<AuthorizationAttributes, 'user'>): Decision {
  const d = a.decide({ user: a.user, ...attrs });
  return new Decision(d.decision === 'Allow', d.reason);
}

const NON_RESOURCE = { resourceRequest: false, group: '', resource: '', subresource: '', namespace: '', name: '' };

function serviceAccount(a: AuthorizerValue, namespace: string, name: string): AuthorizerValue {
  if (isDNS1123Subdomain(name).length > 0) throw new LibraryError('Invalid service account name');
  if (isDNS1123Label(namespace).length > 0) throw new LibraryError('Invalid service account namespace');
  const user: AuthorizerUser = {
    username: `system:serviceaccount:${namespace}:${name}`,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`],
  };
  return new AuthorizerValue(user, a.decide, a.binding);
}

const T = AUTHORIZER_TYPES;

/** The authorizer library's functions. */
export const AUTHORIZER_FUNCTIONS: readonly FunctionDecl[] = [
  {
    name: 'path',
    receiver: T.authorizer,
    params: ['string'],
    result: T.pathCheck,
    handler: (a: AuthorizerValue, path: string) => {
      if (path.trim() === '') throw new LibraryError('path must not be empty');
      return new PathCheck(a, path);
    },
  },
  { name: 'group', receiver: T.authorizer, params: ['string'], result: T.groupCheck, handler: (a: AuthorizerValue, g: string) => new GroupCheck(a, g) },
  { name: 'serviceAccount', receiver: T.authorizer, params: ['string', 'string'], result: T.authorizer, handler: serviceAccount },
  {
    name: 'resource',
    receiver: T.groupCheck,
    params: ['string'],
    result: T.resourceCheck,
    handler: (g: GroupCheck, r: string) => {
      if (r.trim() === '') throw new LibraryError('resource must not be empty');
      return new ResourceCheck(g, r);
    },
  },
  { name: 'subresource', receiver: T.resourceCheck, params: ['string'], result: T.resourceCheck, handler: (r: ResourceCheck, s: string) => r.with({ subresource: s }) },
  { name: 'namespace', receiver: T.resourceCheck, params: ['string'], result: T.resourceCheck, handler: (r: ResourceCheck, s: string) => r.with({ namespace: s }) },
  { name: 'name', receiver: T.resourceCheck, params: ['string'], result: T.resourceCheck, handler: (r: ResourceCheck, s: string) => r.with({ name: s }) },
  {
    name: 'check',
    receiver: T.pathCheck,
    params: ['string'],
    result: T.decision,
    handler: (p: PathCheck, verb: string) => authorize(p.authorizer, { ...NON_RESOURCE, verb, path: p.path }),
  },
  {
    name: 'check',
    receiver: T.resourceCheck,
    params: ['string'],
    result: T.decision,
    handler: (r: ResourceCheck, verb: string) =>
      authorize(r.groupCheck.authorizer, {
        verb,
        resourceRequest: true,
        group: r.groupCheck.group,
        resource: r.resource,
        subresource: r.subresource,
        namespace: r.namespace,
        name: r.name,
        path: '',
      }),
  },
  { name: 'allowed', receiver: T.decision, params: [], result: 'bool', handler: (d: Decision) => d.allowed },
  { name: 'reason', receiver: T.decision, params: [], result: 'string', handler: (d: Decision) => d.reason },
];
