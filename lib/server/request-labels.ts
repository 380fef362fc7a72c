/**
 * The labels of the request metrics (upstream apiserver/pkg/endpoints/metrics, v1.30:
 * `CleanScope`, `CanonicalVerb`, `CleanVerb`, `cleanVerb`, `cleanDryRun`), computed so that no
 * client-controlled text reaches a label unbounded: the verb is one of upstream's
 * validRequestMethods or `other`; group, version, resource and subresource are those of a served
 * resource (else empty); a non-resource request is labelled only by one of the server's own
 * paths; `dry_run` is the sorted, deduplicated valid values or `invalid`.
 */
import type { RequestInfo } from '../request/request-info.js';
import type { TerminatedRequestLabels } from '../metrics/request-terminations.js';

/** Upstream's `component` label value of the API server's own requests. */
export const APISERVER_COMPONENT = 'apiserver';
/** The verb label of a request method upstream does not report. */
export const OTHER_REQUEST_METHOD = 'other';

/** Upstream's validRequestMethods: the verb labels reported as they are. */
export const VALID_REQUEST_METHODS: ReadonlySet<string> = new Set([
  'APPLY',
  'CONNECT',
  'CREATE',
  'DELETE',
  'DELETECOLLECTION',
  'GET',
  'LIST',
  'PATCH',
  'POST',
  'PROXY',
  'PUT',
  'UPDATE',
  'WATCH',
  'WATCHLIST',
]);
/** Upstream's validConnectRequests: subresources reported as CONNECT. */
const CONNECT_SUBRESOURCES: ReadonlySet<string> = new Set(['log', 'exec', 'portforward', 'attach', 'proxy']);
/** Upstream's long-running check: these verbs and subresources. */
const LONG_RUNNING_VERBS: ReadonlySet<string> = new Set(['watch', 'proxy']);
const LONG_RUNNING_SUBRESOURCES: ReadonlySet<string> = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);
/** Verbs of read-only requests (upstream's nonMutatingRequestVerbs in the max-in-flight filter). */
const READ_ONLY_VERBS: ReadonlySet<string> = new Set(['get', 'list', 'watch']);
const APPLY_PATCH_TYPE = 'application/apply-patch+yaml';

/**
 * The server's own non-resource paths, as the `subresource` label reports them (upstream labels
 * the health and other fixed handlers by their path); a path below one of the prefixes is
 * reported as the prefix, any other path as ''.
 */
const NON_RESOURCE_PATHS: ReadonlySet<string> = new Set(['/healthz', '/livez', '/readyz', '/version', '/metrics', '/api', '/apis', '/openapi/v2', '/openapi/v3', '/.well-known/openid-configuration', '/openid/v1/jwks']);
const NON_RESOURCE_PREFIXES: readonly string[] = ['/healthz/', '/livez/', '/readyz/', '/openapi/v3/', '/apis/', '/api/'];

/** The labels shared by the request metrics (`code` is added by the counter): a terminated request's and `dry_run`. */
export interface RequestLabels extends TerminatedRequestLabels {
  dry_run: string;
}

/** Upstream CleanScope: `resource` (a name, or a create), `namespace`, `cluster`, or '' for a non-resource request. */
export function cleanScope(info: RequestInfo): string {
  if (info.name !== '' || info.verb === 'create') return 'resource';
  if (info.namespace !== '') return 'namespace';
  if (info.isResourceRequest) return 'cluster';
  return '';
}

/** Upstream CanonicalVerb: GET and HEAD of a collection are LIST; `method` upper case. */
export function canonicalVerb(method: string, scope: string): string {
  if (method === 'GET' || method === 'HEAD') return scope !== 'resource' && scope !== '' ? 'LIST' : 'GET';
  return method;
}

/**
 * The reported verb (upstream cleanVerb over CanonicalVerb): WATCH for a watch (`?watch` or the
 * legacy `/watch/` prefix), APPLY for a PATCH with the apply content type, CONNECT for the
 * connect subresources, `other` for a verb outside validRequestMethods.
 * @param method the HTTP method as received; `contentType` the raw Content-Type header.
 */
export function reportedVerb(method: string, info: RequestInfo, contentType: string | undefined): string {
  const upper = method.toUpperCase();
  if (info.isResourceRequest && info.verb === 'watch') return 'WATCH';
  let verb = canonicalVerb(upper, cleanScope(info));
  if (verb === 'PATCH' && contentType === APPLY_PATCH_TYPE) verb = 'APPLY';
  if (info.isResourceRequest && CONNECT_SUBRESOURCES.has(info.subresource)) verb = 'CONNECT';
  return VALID_REQUEST_METHODS.has(verb) ? verb : OTHER_REQUEST_METHOD;
}

/**
 * Upstream cleanDryRun: '' without `dryRun` in the query; `invalid` when a value is not `All`;
 * otherwise the distinct values sorted and joined by commas (`All`).
 */
export function cleanDryRun(rawQuery: string): string {
  if (!rawQuery.includes('dryRun')) return '';
  const values = new URLSearchParams(rawQuery).getAll('dryRun');
  if (values.some((v) => v !== 'All')) return 'invalid';
  return [...new Set(values)].sort().join(',');
}

/** Upstream's long-running request check: watches, proxies and the streaming subresources. */
export function isLongRunning(info: RequestInfo): boolean {
  return info.isResourceRequest && (LONG_RUNNING_VERBS.has(info.verb) || LONG_RUNNING_SUBRESOURCES.has(info.subresource));
}

/** `readOnly` for get, list and watch (and a non-resource GET), else `mutating`. */
export function requestKind(info: RequestInfo): 'readOnly' | 'mutating' {
  return READ_ONLY_VERBS.has(info.verb) ? 'readOnly' : 'mutating';
}

/** The `subresource` label of a non-resource request: one of the server's own paths, or ''. */
export function nonResourcePath(path: string): string {
  if (NON_RESOURCE_PATHS.has(path)) return path;
  for (const p of NON_RESOURCE_PREFIXES) if (path.startsWith(p)) return p.slice(0, -1);
  return '';
}

/** Whether the server serves the resource (and subresource) a request names. */
export type ServesResource = (info: RequestInfo) => boolean;

/**
 * The labels of one request. A resource request names its group, version, resource and
 * subresource only when `serves` says they exist (else all four are ''); a non-resource request
 * reports its path through {@link nonResourcePath}.
 */
export function requestLabels(method: string, info: RequestInfo, rawQuery: string, contentType: string | undefined, serves: ServesResource): RequestLabels {
  const verb = reportedVerb(method, info, contentType);
  const dryRun = cleanDryRun(rawQuery);
  const scope = cleanScope(info);
  if (!info.isResourceRequest) {
    return { verb, dry_run: dryRun, group: '', version: '', resource: '', subresource: nonResourcePath(info.path), scope, component: APISERVER_COMPONENT };
  }
  const known = serves(info);
  return {
    verb,
    dry_run: dryRun,
    group: known ? info.apiGroup : '',
    version: known ? info.apiVersion : '',
    resource: known ? info.resource : '',
    subresource: known ? info.subresource : '',
    scope,
    component: APISERVER_COMPONENT,
  };
}
