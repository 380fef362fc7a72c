/**
 * Authorization filter: anything not allowed is 403 Forbidden with the upstream message
 * (spec 001 § Authorization, § Errors).
 */
import type { Context, Next } from 'koa';
import { newForbidden, newForbiddenPath } from '../../apimachinery/errors.js';
import { goQuote } from '../../apimachinery/go-quote.js';
import { AUTHORIZATION_DECISION_ANNOTATION, AUTHORIZATION_REASON_ANNOTATION, canonicalGroup } from '../../apis/vendor.js';
import { type Authorizer, attributesFrom } from '../../authorization/interface.js';
import { forbiddenMessage } from '../../authorization/union.js';
import type { AuthMetrics, AuthorizationResultLabel } from '../../metrics/auth.js';
import { requestContextOf } from './request-info.js';

/** The `result` label of each decision. */
const AUTHORIZATION_RESULTS: Record<'Allow' | 'Deny' | 'NoOpinion', AuthorizationResultLabel> = { Allow: 'allowed', Deny: 'denied', NoOpinion: 'no-opinion' };

/**
 * Upstream's responsewriters.InternalError, which its authorization filter answers with when a
 * mode failed to evaluate a request it did not allow: not a Status but Go's http.Error text,
 * `Internal Server Error: "<request URI>": <error>` and a newline, `&<>` as HTML entities.
 */
export function internalError(koa: Context, error: string): void {
  koa.status = 500;
  koa.set('Content-Type', 'text/plain; charset=utf-8');
  koa.set('X-Content-Type-Options', 'nosniff');
  const text = `Internal Server Error: ${goQuote(koa.originalUrl)}: ${error}`;
  koa.body = `${text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'))}\n`;
}

/**
 * Koa middleware authorizing every request, as upstream's WithAuthorization: the attributes carry
 * the canonical group (authorizers see one spelling), an Allow passes (even with an evaluation
 * error), anything else with an evaluation error is upstream's plain-text 500 (internalError), and
 * otherwise 403 `<resource>.<group> "<name>" is forbidden: User "u" cannot <verb> resource …`
 * (`forbidden: User "u" cannot <verb> path "/x"` for a non-resource request) in the group
 * spelling the client used, with the deciding mode's reason appended. The decision (`allow`,
 * `forbid`) and reason are audit annotations (`authorization.<vendor>/decision`, `…/reason`;
 * reason `internal error` for an evaluation error), as upstream.
 * `metrics` records each attempt by result (`authorization_attempts_total`,
 * `authorization_duration_seconds`; `error` when the deciding mode reported an evaluation error).
 * @throws StatusError 403 Forbidden.
 */
export function withAuthorization(authorizer: Authorizer, metrics?: AuthMetrics) {
  return async (koa: Context, next: Next): Promise<void> => {
    const ctx = requestContextOf(koa);
    const info = ctx.requestInfo;
    const attrs = attributesFrom(info, ctx.user!, canonicalGroup);
    const start = process.hrtime.bigint();
    const res = await authorizer.authorize(attrs);
    if (metrics) metrics.authorization(res.evaluationError ? 'error' : AUTHORIZATION_RESULTS[res.decision], start);
    if (res.decision !== 'Allow') {
      if (res.evaluationError) {
        ctx.auditAnnotations[AUTHORIZATION_REASON_ANNOTATION] = 'internal error';
        return internalError(koa, res.evaluationError);
      }
      ctx.auditAnnotations[AUTHORIZATION_DECISION_ANNOTATION] = 'forbid';
      ctx.auditAnnotations[AUTHORIZATION_REASON_ANNOTATION] = res.reason;
      const msg = forbiddenMessage(attrs, res.reason, info.apiGroup);
      const err = attrs.isResourceRequest ? newForbidden({ group: info.apiGroup, resource: attrs.resource }, attrs.name, msg) : newForbiddenPath(msg);
      // As upstream's responsewriters.Forbidden.
      err.headers['X-Content-Type-Options'] = 'nosniff';
      throw err;
    }
    ctx.auditAnnotations[AUTHORIZATION_DECISION_ANNOTATION] = 'allow';
    ctx.auditAnnotations[AUTHORIZATION_REASON_ANNOTATION] = res.reason;
    await next();
  };
}
