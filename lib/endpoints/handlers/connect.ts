/**
 * The handler of a connect subresource (upstream `ConnectResource` and, for `pods/log`, the
 * streaming getter; spec 000 § Verb mapping, § What the service does): decodes the options from
 * the query (and the path after `…/proxy`), runs CONNECT admission with the options object as
 * the admitted object (not for `pods/log`), resolves the target and forwards the request there —
 * a log as streamed text, an HTTP upgrade transparently, a proxy request as it came. Exec, attach
 * and portforward answer 400 `Upgrade request required` to anything but an upgrade; a proxy
 * request for the object's root without a trailing slash is redirected (301) to it, as upstream.
 * Authorization has already run with the verb of the method (`get` for GET, `create` for POST…).
 */
import { StatusError, type StatusReason, newBadRequest, newInternalError, newMethodNotAllowed } from '../../apimachinery/errors.js';
import type { Obj } from '../../apis/define.js';
import type { Connecter } from '../../registry/rest/connecter.js';
import { isUpgradeRequest, proxyHTTP, proxyUpgrade, streamText } from './connect-proxy.js';
import { admissionAttributes, type HandlerScope } from './scope.js';

/** The scope of a connect request. */
export interface ConnectScope extends HandlerScope {
  connecter: Connecter;
  /** The path after the subresource (`/a/b/`, a trailing slash kept; '' when none). */
  subpath: string;
}

/** Upstream GenericServerResponse's reason and message for a target's status code. */
function genericResponse(code: number, body: string): { reason: StatusReason; message: string } {
  const known: Record<number, [StatusReason, string]> = {
    404: ['NotFound', 'the server could not find the requested resource'],
    401: ['Unauthorized', 'the server has asked for the client to provide credentials'],
    403: ['Forbidden', body],
    405: ['MethodNotAllowed', 'the server does not allow this method on the requested resource'],
    409: ['Conflict', 'the server reported a conflict'],
    422: ['Invalid', 'the server rejected our request due to an error in our request'],
    429: ['TooManyRequests', 'the server has received too many requests and has asked us to try again later'],
    503: ['ServiceUnavailable', 'the server is currently unable to handle the request'],
    504: ['Timeout', 'the server was unable to return a response in the time allotted, but may still be processing the request'],
  };
  const hit = known[code];
  if (hit) return { reason: hit[0], message: hit[1] };
  if (code >= 500) return { reason: 'InternalError', message: `an error on the server (${JSON.stringify(body)}) has prevented the request from succeeding` };
  return { reason: 'Unknown', message: `the server responded with the status code ${code} but did not return more information` };
}

/**
 * The error of a kubelet's non-2xx answer to a log request (upstream GenericHttpResponseChecker):
 * 500 InternalError and 400 BadRequest carry its body as the message; any other code the generic
 * message with ` ( pods/log <pod>)`.
 */
function logAnswerError(podName: string): (code: number, body: string) => Error {
  return (code, body) => {
    if (code === 500) return newInternalError(body);
    if (code === 400) return newBadRequest(body);
    const { reason, message } = genericResponse(code, body);
    return new StatusError({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `${message} ( pods/log ${podName})`,
      reason,
      details: { name: podName, kind: 'pods/log' },
      code,
    });
  };
}

/**
 * Serves one connect request.
 * @throws StatusError 405 (method not served), 400/422 (options, container, unscheduled pod,
 *   not an upgrade), 404 (object, node), 403 (admission), 500/503 (target unreachable, no endpoints).
 */
export async function handleConnect(s: ConnectScope): Promise<void> {
  const c = s.connecter;
  const koa = s.koa;
  if (!c.methods.includes(koa.method)) throw newMethodNotAllowed();
  const options: Obj = c.newOptions(s.query, c.takesPath ? s.subpath : '', s.name);
  if (c.admitted) {
    const attrs = { ...admissionAttributes(s, 'CONNECT', options, null, false), group: '', version: 'v1', kind: c.optionsKind, requestKind: c.optionsKind, name: s.name };
    await s.admission.admit(s.req, attrs);
    await s.admission.validate(s.req, attrs);
  }
  const target = await c.connect(s.req, { namespace: s.namespace, name: s.name, options });
  if (!target) {
    koa.status = 200;
    koa.type = 'text/plain';
    koa.body = '';
    return;
  }
  // A log is answered as plain streamed text even to an upgrade request (the kubelet serves no
  // upgrade there; the WebSocket framing upstream's server offers for logs is not built, #20).
  if (target.textStream) return streamText(koa, target, logAnswerError(s.name));
  if (isUpgradeRequest(koa.req.headers)) return proxyUpgrade(koa, target, s.req.signal);
  if (target.upgradeRequired) throw newBadRequest('Upgrade request required');
  if (c.takesPath && s.subpath === '') {
    koa.status = 301;
    koa.set('Location', `${koa.path}/${koa.querystring ? `?${koa.querystring}` : ''}`);
    return;
  }
  target.url.search = koa.querystring ? `?${koa.querystring}` : '';
  return proxyHTTP(koa, target);
}
