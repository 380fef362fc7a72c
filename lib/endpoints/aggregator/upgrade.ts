/**
 * Proxies an upgrade request (WebSocket, SPDY) to an extension API server (upstream v1.30
 * kube-aggregator: the upgrade-aware proxy with the user headers set on the request itself):
 * dials the server with the TLS of transport.ts, writes the request head — the client's headers
 * as proxy.ts forwards them, `Connection` and `Upgrade` kept — and pipes both connections until
 * either closes; the server's answer (`101` or an error) passes through untouched. The request
 * reaches the handler chain through the server's upgrade listener (lib/server/upgrade.ts).
 */
import type { RequestOptions } from 'node:https';
import { type TLSSocket, connect } from 'node:tls';
import type { Context } from 'koa';
import { newServiceUnavailable } from '../../apimachinery/errors.js';
import type { RequestContext } from '../../request/context.js';
import { pipeUpgrade } from '../handlers/upgrade-pipe.js';
import { outgoingHeaders } from './proxy.js';

function dial(options: RequestOptions): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const socket = connect({
      host: options.host ?? undefined,
      port: Number(options.port),
      servername: options.servername,
      rejectUnauthorized: options.rejectUnauthorized,
      ...(options.ca !== undefined && { ca: options.ca }),
      ...(options.cert !== undefined && { cert: options.cert }),
      ...(options.key !== undefined && { key: options.key }),
    });
    socket.once('secureConnect', () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/**
 * Forwards the upgrade request of `koa` to the server reached with `options` (https request
 * options of transport.ts); Koa writes nothing. Resolves when both connections have closed.
 * @throws StatusError 503 when the server cannot be reached.
 */
export async function proxyUpgrade(koa: Context, req: RequestContext, options: RequestOptions): Promise<void> {
  const client = koa.req.socket;
  let backend: TLSSocket;
  try {
    backend = await dial(options);
  } catch (err) {
    throw newServiceUnavailable(`error trying to reach service: ${(err as Error).message}`);
  }
  const headers = { host: `${options.host ?? ''}:${String(options.port)}`, ...outgoingHeaders(koa.req.headers, client.remoteAddress, req.user ?? { name: '', groups: [] }, true) };
  await pipeUpgrade(koa, backend, `${koa.method} ${koa.originalUrl} HTTP/1.1`, headers);
}
