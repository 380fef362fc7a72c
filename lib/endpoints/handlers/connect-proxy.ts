/**
 * Sends one connect request on to its target (upstream `UpgradeAwareHandler` and
 * `LocationStreamer`; spec 000 § Verb mapping): an HTTP upgrade (WebSocket, SPDY) is forwarded
 * as it came — request head to the target, then both sockets piped, the target's `101` and every
 * frame after it passing through untouched, whatever subprotocol the two ends agree on; any
 * other request is forwarded and its answer streamed back. The client's credentials
 * (`Authorization`, `Impersonate-*`) and hop-by-hop headers are not forwarded, as upstream's
 * filters remove them.
 */
import { type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { type Socket, connect as netConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { Context } from 'koa';
import { newInternalError, newUnknownError } from '../../apimachinery/errors.js';
import { type TransportError, transportErrorMessage, urlDialAddress } from '../../client/rest-errors.js';
import type { ConnectTarget } from '../../registry/rest/connecter.js';
import { pipeUpgrade } from './upgrade-pipe.js';

/** Headers a proxy never forwards (RFC 7230 § 6.1 hop-by-hop, plus the client's credentials). */
const DROPPED = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'authorization', 'host']);

/** True for a request asking to switch protocols (`Connection: Upgrade` with an `Upgrade` header). */
export function isUpgradeRequest(headers: IncomingHttpHeaders): boolean {
  const connection = headers.connection ?? '';
  return headers.upgrade !== undefined && connection.split(',').some((t) => t.trim().toLowerCase() === 'upgrade');
}

/** The request headers sent to the target: the client's, less credentials and hop-by-hop ones (kept for an upgrade). */
function forwardedHeaders(headers: IncomingHttpHeaders, upgrade: boolean, remote: string | undefined): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined || k.startsWith('impersonate-')) continue;
    if (DROPPED.has(k) && !(upgrade && (k === 'connection' || k === 'upgrade'))) continue;
    out[k] = v;
  }
  if (remote) out['x-forwarded-for'] = headers['x-forwarded-for'] ? `${headers['x-forwarded-for']}, ${remote}` : remote;
  return out;
}

/** The TLS options of a target (none for plain HTTP). */
function tlsOptions(t: ConnectTarget) {
  const tls = t.tls;
  if (!tls) return {};
  return { ...(tls.cert !== undefined && { cert: tls.cert }), ...(tls.key !== undefined && { key: tls.key }), ...(tls.ca !== undefined && { ca: tls.ca }), rejectUnauthorized: tls.verify };
}

/** Why the target could not be reached, in Go's words (`dial tcp 10.0.0.5:10250: connect: connection refused`). */
function unreachable(t: ConnectTarget, err: unknown): string {
  return transportErrorMessage(err as TransportError, urlDialAddress(t.url));
}

/** Opens the raw connection to the target, resolved once connected (TLS handshake done). */
function dial(t: ConnectTarget): Promise<Socket> {
  const host = t.url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(t.url.port) || (t.url.protocol === 'https:' ? 443 : 80);
  return new Promise((resolve, reject) => {
    const socket: Socket = t.url.protocol === 'https:' ? tlsConnect({ host, port, ...tlsOptions(t), ...(/^[\d.:]+$/.test(host) ? {} : { servername: host }) }) : netConnect({ host, port });
    const ready = t.url.protocol === 'https:' ? 'secureConnect' : 'connect';
    const timer = t.timeoutMs ? setTimeout(() => socket.destroy(Object.assign(new Error('i/o timeout'), { code: 'ETIMEDOUT' })), t.timeoutMs) : undefined;
    socket.once(ready, () => {
      clearTimeout(timer);
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

/**
 * Forwards an upgrade request: dials the target, writes the request head (path and query of the
 * target URL) and pipes both ways until either side closes or `signal` aborts (graceful shutdown
 * ends the session, as every long-running request). Koa writes nothing (`respond` false).
 * @throws StatusError 500 without a reason, `error dialing backend: <Go's reason>`, when the
 *   target cannot be reached (upstream's responder answers the dialer's error as it is).
 */
export async function proxyUpgrade(koa: Context, t: ConnectTarget, signal: AbortSignal): Promise<void> {
  const client = koa.req.socket;
  let backend: Socket;
  try {
    backend = await dial(t);
  } catch (err) {
    throw newUnknownError(`error dialing backend: ${unreachable(t, err)}`);
  }
  const headers = forwardedHeaders(koa.req.headers, true, client.remoteAddress);
  headers.host = t.url.host;
  await pipeUpgrade(koa, backend, `${koa.req.method} ${t.url.pathname}${t.url.search} HTTP/1.1`, headers, signal);
}

/** Sends a plain request to the target; resolves with its response (headers read). */
function send(koa: Context, t: ConnectTarget, method: string, body: boolean): Promise<IncomingMessage> {
  const headers = forwardedHeaders(koa.req.headers, false, koa.req.socket.remoteAddress);
  const opts = { method, headers, ...tlsOptions(t), ...(t.timeoutMs ? { timeout: t.timeoutMs } : {}) };
  return new Promise((resolve, reject) => {
    const req = (t.url.protocol === 'https:' ? httpsRequest : httpRequest)(t.url, opts, resolve);
    req.once('timeout', () => req.destroy(Object.assign(new Error('i/o timeout'), { code: 'ETIMEDOUT' })));
    req.once('error', reject);
    // The client went away: the response closes unfinished.
    koa.res.once('close', () => {
      if (!koa.res.writableFinished) req.destroy();
    });
    if (body) koa.req.pipe(req);
    else req.end();
  });
}

/**
 * Forwards a plain proxy request (`…/proxy/<path>`): method, headers and body to the target, its
 * status, headers and body back, streamed.
 * @throws StatusError 500 `error trying to reach service: <cause>` when the target cannot be reached.
 */
export async function proxyHTTP(koa: Context, t: ConnectTarget): Promise<void> {
  let res: IncomingMessage;
  try {
    res = await send(koa, t, koa.method, koa.method !== 'GET' && koa.method !== 'HEAD');
  } catch (err) {
    throw newInternalError(`error trying to reach service: ${unreachable(t, err)}`);
  }
  koa.status = res.statusCode ?? 502;
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined && !DROPPED.has(k) && k !== 'content-length') koa.set(k, v as string | string[]);
  if (res.headers['content-length'] !== undefined) koa.length = Number(res.headers['content-length']);
  koa.body = res;
}

/** How much of a target's error answer is read (upstream's maxReadLength). */
const MAX_ERROR_BODY = 50_000;

/** The Status of a target's error answer to a log request (upstream GenericHttpResponseChecker). */
export type ErrorAnswer = (status: number, body: string) => Error;

/**
 * Streams the target's body as `text/plain` (`pods/log`), written as it arrives; a non-2xx
 * answer becomes the error `onError` builds from its status and (first 50 000 bytes of, as
 * upstream's checker reads) body.
 * @throws StatusError 500 without a reason, `Get "<target URL>": <Go's reason>`, when the target
 *   cannot be reached (upstream's HTTP client error, answered as it is); `onError`'s error.
 */
export async function streamText(koa: Context, t: ConnectTarget, onError: ErrorAnswer): Promise<void> {
  let res: IncomingMessage;
  try {
    res = await send(koa, t, 'GET', false);
  } catch (err) {
    throw newUnknownError(`Get ${JSON.stringify(t.url.href)}: ${unreachable(t, err)}`);
  }
  const status = res.statusCode ?? 500;
  if (status < 200 || status > 206) {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of res as AsyncIterable<Buffer>) {
      if (size < MAX_ERROR_BODY) chunks.push(c);
      size += c.length;
    }
    throw onError(status, Buffer.concat(chunks).subarray(0, MAX_ERROR_BODY).toString('utf8'));
  }
  koa.status = 200;
  koa.type = 'text/plain';
  koa.body = res;
}
