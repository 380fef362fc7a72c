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
import { StatusError, genericServerResponse, newBadRequest, newInternalError, newMethodNotAllowed } from '../../apimachinery/errors.js';
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

/**
 * The error of a kubelet's non-2xx answer to a log request (upstream GenericHttpResponseChecker):
 * 500 InternalError and 400 BadRequest carry its body as the message; any other code the generic
 * message with ` ( pods/log <pod>)`.
 */
function logAnswerError(podName: string): (code: number, body: string) => Error {
  return (code, body) => {
    if (code === 500) return newInternalError(body);
    if (code === 400) return newBadRequest(body);
    const { reason, message } = genericServerResponse(code, body);
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
