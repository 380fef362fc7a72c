/**
 * The authenticator unions (spec 001 § Authentication, § Anonymous requests). Every configured
 * method runs until one succeeds — the first success decides; a method that recognises its
 * credential and rejects it does not stop the others, but when nobody succeeds the request is
 * unauthorized (401) even if anonymous requests are allowed; with no credential at all the
 * request is anonymous when that is on. Every authenticated user also gets `system:authenticated`.
 */
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { type TokenReviewOutcome, ANONYMOUS_USER, AUTHENTICATED_GROUP, UNAUTHENTICATED_GROUP } from '../request/user.js';
import { type AuthResult, AuthenticationError, type RequestAuthenticator, type TokenAuthenticator } from './interface.js';

/**
 * Several rejections at once. Its message is that of upstream's error aggregate, which is what a
 * TokenReview's `status.error` shows: nested aggregates flattened, repeated messages once, one
 * message as is, several as `[first, second]`.
 */
export class AggregateAuthenticationError extends AuthenticationError {
  /** The distinct messages, flattened, in order. */
  readonly messages: readonly string[];

  constructor(errors: readonly AuthenticationError[]) {
    const messages = [...new Set(errors.flatMap((e) => (e instanceof AggregateAuthenticationError ? e.messages : [e.message])))];
    super(messages.length === 1 ? messages[0]! : `[${messages.join(', ')}]`);
    this.name = 'AggregateAuthenticationError';
    this.messages = messages;
  }
}

/**
 * Records a method's rejection (an AuthenticationError) in `errors`; any other error (a defect)
 * propagates. The unions call their methods inline (no wrapper closure or extra async frame per
 * method: authentication ran about eight async frames per request).
 */
function collect(errors: AuthenticationError[], err: unknown): void {
  if (!(err instanceof AuthenticationError)) throw err;
  errors.push(err);
}

/**
 * The token authenticators as one (upstream `tokenunion`): asked in order, the first success
 * decides; rejections are collected and thrown together only when nobody succeeds; null when
 * nobody knows the token.
 */
export class TokenUnion implements TokenAuthenticator {
  constructor(private readonly authenticators: readonly TokenAuthenticator[]) {}

  async authenticateToken(token: string, audiences: readonly string[]): Promise<AuthResult | null> {
    const errors: AuthenticationError[] = [];
    for (const a of this.authenticators) {
      let res: AuthResult | null;
      try {
        res = await a.authenticateToken(token, audiences);
      } catch (err) {
        collect(errors, err);
        continue;
      }
      if (res) return res;
    }
    if (errors.length > 0) throw new AggregateAuthenticationError(errors);
    return null;
  }
}

/**
 * Upstream's default of `--anonymous-auth`: anonymous requests are allowed unless the flag turns
 * them off or the authorization modes (`--authorization-mode`) include `AlwaysAllow`, which
 * switches them off whatever the flag says (spec 001 § Anonymous requests).
 */
export function anonymousAllowed(anonymousAuth: boolean, authorizationModes: readonly string[]): boolean {
  return anonymousAuth && !authorizationModes.includes('AlwaysAllow');
}

/** Options of the union. */
export interface UnionOptions {
  /** Whether a request no method claims runs as `system:anonymous` (see {@link anonymousAllowed}); else it is 401. */
  anonymous: boolean;
  /** `--api-audiences`: what an API request's credentials must be valid for (default none). */
  apiAudiences?: readonly string[];
}

/** Per-call options of {@link UnionAuthenticator.authenticate}. */
export interface AuthenticateOptions {
  /** The audiences asked for; default the API audiences. */
  audiences?: readonly string[];
  /** Receives warnings for the client (`Warning:` header). */
  warn?: (text: string) => void;
}

const ignoreWarning = (): void => undefined;

/** Authenticates a request through `methods` in order. */
export class UnionAuthenticator {
  /** The API audiences (`--api-audiences`). */
  readonly apiAudiences: readonly string[];

  constructor(
    private readonly methods: readonly RequestAuthenticator[],
    private readonly opts: UnionOptions,
  ) {
    this.apiAudiences = opts.apiAudiences ?? [];
  }

  /**
   * Returns the user (with `system:authenticated` added, or anonymous).
   * @throws AuthenticationError (→ 401): a method rejected its credential and none succeeded
   *   (the aggregate of the rejections), or nothing identified the request and anonymous
   *   requests are off.
   */
  async authenticate(req: IncomingMessage, call: AuthenticateOptions = {}): Promise<AuthResult> {
    const res = await this.identify(req, call);
    if (!res) throw new AuthenticationError('anonymous requests are not allowed');
    return res;
  }

  /**
   * Authenticates `token` as upstream's TokenReview does: a request that carries nothing but
   * `Authorization: Bearer <token>` (no connection, no client certificate) through the whole
   * union, for `audiences`. A rejection is the outcome's `error`; a token nobody claims with
   * anonymous requests off is an outcome with neither user nor error.
   */
  async reviewToken(token: string, audiences: readonly string[]): Promise<TokenReviewOutcome> {
    const req = new IncomingMessage(new Socket());
    req.headers = { authorization: `Bearer ${token}` };
    try {
      const result = await this.identify(req, { audiences });
      return result ? { result } : {};
    } catch (err) {
      if (err instanceof AuthenticationError) return { error: err.message };
      throw err;
    }
  }

  /** The first success, else anonymous when allowed, else null; throws the aggregate of the rejections when there were any. */
  private async identify(req: IncomingMessage, call: AuthenticateOptions): Promise<AuthResult | null> {
    const opts = { audiences: call.audiences ?? this.apiAudiences, warn: call.warn ?? ignoreWarning };
    const errors: AuthenticationError[] = [];
    for (const m of this.methods) {
      let res: AuthResult | null;
      try {
        res = await m.authenticateRequest(req, opts);
      } catch (err) {
        collect(errors, err);
        continue;
      }
      if (res) return withAuthenticatedGroup(res);
    }
    if (errors.length > 0) throw new AggregateAuthenticationError(errors);
    return this.opts.anonymous ? { user: { name: ANONYMOUS_USER, groups: [UNAUTHENTICATED_GROUP] } } : null;
  }
}

/** Adds `system:authenticated` unless the user is anonymous or already in it or in `system:unauthenticated` (upstream AuthenticatedGroupAdder). */
function withAuthenticatedGroup(res: AuthResult): AuthResult {
  const g = res.user.groups;
  if (g.includes(AUTHENTICATED_GROUP) || g.includes(UNAUTHENTICATED_GROUP) || res.user.name === ANONYMOUS_USER) return res;
  return { ...res, user: { ...res.user, groups: [...res.user.groups, AUTHENTICATED_GROUP] } };
}
