/**
 * Proxies one authenticated, authorized request to an extension API server (spec 000 § Other
 * paths, § Content negotiation, § Table representation; upstream v1.30 kube-aggregator
 * `proxyHandler`): same method, path and query; the request headers as the client sent them —
 * so content negotiation (Table, protobuf, patch types) is the extension's to answer — minus
 * hop-by-hop headers, `Authorization`, impersonation headers and any user headers, plus the user
 * as `X-Remote-*` headers and `X-Forwarded-For`; the body streamed up, the answer (status,
 * headers, body) streamed back unchanged, so watches stream. A failure to reach the server before
 * it answered is 503 ServiceUnavailable.
 */
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { type RequestOptions, request } from 'node:https';
import type { Context } from 'koa';
import { newServiceUnavailable } from '../../apimachinery/errors.js';
import { dialAddress, type TransportError, transportErrorMessage } from '../../client/rest-errors.js';
import type { RequestContext } from '../../request/context.js';
import { REMOTE_EXTRA_PREFIX, REMOTE_GROUP_HEADER, REMOTE_USER_HEADER, authProxyHeaders } from './transport.js';

/** Headers of one connection only (RFC 7230 § 6.1), never forwarded either way. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'http2-settings']);

/** Request headers the front server consumed: credentials, impersonation and claimed user headers. */
function consumed(name: string): boolean {
  const n = name.toLowerCase();
  return (
    n === 'authorization' ||
    n.startsWith('impersonate-') ||
    n === REMOTE_USER_HEADER.toLowerCase() ||
    n === REMOTE_GROUP_HEADER.toLowerCase() ||
    n.startsWith(REMOTE_EXTRA_PREFIX.toLowerCase())
  );
}

function forwardable(name: string): boolean {
  return !name.startsWith(':') && !HOP_BY_HOP.has(name.toLowerCase()) && name.toLowerCase() !== 'host';
}

/** True for a request asking to switch protocols (`Connection: Upgrade` with an `Upgrade` header). */
export function isUpgrade(headers: IncomingHttpHeaders): boolean {
  return headers.upgrade !== undefined && (headers.connection ?? '').split(',').some((t) => t.trim().toLowerCase() === 'upgrade');
}

/**
 * The headers sent to the extension server for a client request with `incoming` headers from
 * `clientAddress`; an upgrade keeps its `Connection` and `Upgrade` headers.
 */
export function outgoingHeaders(incoming: IncomingHttpHeaders, clientAddress: string | undefined, user: NonNullable<RequestContext['user']>, upgrade = false): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming)) {
    const kept = forwardable(name) || (upgrade && (name === 'connection' || name === 'upgrade'));
    if (value !== undefined && kept && !consumed(name)) out[name] = value;
  }
  if (clientAddress) {
    const prior = incoming['x-forwarded-for'];
    out['x-forwarded-for'] = prior ? `${Array.isArray(prior) ? prior.join(', ') : prior}, ${clientAddress}` : clientAddress;
  }
  return { ...out, ...authProxyHeaders(user) };
}

/** Writes the extension server's answer `res` to the client, streaming its body. */
function relay(koa: Context, res: IncomingMessage): void {
  koa.status = res.statusCode ?? 502;
  for (const [name, value] of Object.entries(res.headers)) {
    if (value !== undefined && forwardable(name)) koa.set(name, value);
  }
  koa.body = res;
  // Headers go out now: a watch that has no event yet still answers at once.
  koa.flushHeaders();
}

/**
 * Sends the request of `koa` to the extension server reached with `options` (https request
 * options of transport.ts) and relays the answer. Resolves once the answer's headers are relayed.
 * @throws StatusError 503 `error trying to reach service: <Go's reason>` when the server cannot
 *   be reached or fails before answering.
 */
export function proxyRequest(koa: Context, req: RequestContext, options: RequestOptions): Promise<void> {
  const user = req.user ?? { name: '', groups: [] };
  const headers = outgoingHeaders(koa.req.headers, koa.req.socket.remoteAddress, user);
  return new Promise<void>((resolve, reject) => {
    const up = request({ ...options, method: koa.method, path: koa.originalUrl, headers }, (res) => {
      relay(koa, res);
      resolve();
    });
    const abort = () => up.destroy();
    req.signal.addEventListener('abort', abort, { once: true });
    up.once('close', () => req.signal.removeEventListener('abort', abort));
    const addr = dialAddress(String(options.host ?? options.hostname ?? ''), options.port ?? 443);
    up.on('error', (err) => reject(newServiceUnavailable(`error trying to reach service: ${transportErrorMessage(err as TransportError, addr)}`)));
    koa.req.on('aborted', abort);
    koa.req.pipe(up);
  });
}
