/**
 * The last step of proxying an upgrade request (WebSocket, SPDY; issue #20): the request head is
 * written to the backend connection already dialled, Koa is told to write nothing, and bytes flow
 * both ways untouched — the backend's answer (`101` or an error) included — until either side
 * closes or `signal` aborts (the server stopping). Used by the connect subresources
 * (connect-proxy.ts) and the aggregation layer (lib/endpoints/aggregator/upgrade.ts).
 */
import type { OutgoingHttpHeaders } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Context } from 'koa';

/**
 * Writes `requestLine` (`GET /path?query HTTP/1.1`) and `headers` (a header with several values
 * as several lines) to `backend`, then pipes it with the client's socket. Resolves once both are
 * destroyed; never rejects (a socket error ends the exchange).
 */
export function pipeUpgrade(koa: Context, backend: Duplex, requestLine: string, headers: OutgoingHttpHeaders, signal?: AbortSignal): Promise<void> {
  const client = koa.req.socket;
  const lines = [requestLine];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [String(value)]) lines.push(`${name}: ${one}`);
  }
  koa.respond = false;
  koa.status = 101;
  backend.write(`${lines.join('\r\n')}\r\n\r\n`);
  return new Promise<void>((resolve) => {
    const done = () => {
      signal?.removeEventListener('abort', done);
      backend.destroy();
      client.destroy();
      resolve();
    };
    backend.once('close', done);
    client.once('close', done);
    backend.on('error', done);
    client.on('error', done);
    if (signal?.aborted) return done();
    signal?.addEventListener('abort', done, { once: true });
    backend.pipe(client);
    client.pipe(backend);
  });
}
